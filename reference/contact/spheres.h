#pragma once
// reference/contact/spheres.h — rigid spheres (or circles held in the xy-plane) among fixed planes,
// stepped with velocity-level contact impulses from the LCP of paper 000 (lcp.h, solver.h).
//
// A step (semi-implicit Euler, time step h):
//   1. v ← v + h g                                   (applied forces: gravity)
//   2. contacts: sphere pairs from the uniform grid (broadphase.h), sphere–sphere and
//      sphere–plane narrow phase; a contact is kept while its gap is below margin + h·(approach
//      speed), so impacts within the step are not missed
//   3. the LCP: one normal row per contact and, with friction μ > 0, one tangent row (plane) or
//      two (space), bounds ±μλ_n (pyramidal friction); bias b of the normal row
//        gap > 0 and no impact this step:  b = gap/h           (may close the gap, no more)
//        otherwise:  b = min( e·J_n v [if J_n v < −v_e, else 0],  −β/h · max(0, −gap − slop) )
//      (restitution e on approach faster than v_e, Baumgarte correction of the penetration)
//   4. warm start: λ of a contact (pair or sphere–plane) found in the previous step
//   5. solve (any solver of solver.h), v ← v + M⁻¹Jᵀλ, positions ← positions + h v.
// Planar bodies have d = 3 velocities (vx, vy, ω_z) and the inertia of a disc, ½ m r²; spatial
// spheres d = 6 and 2/5 m r².
#include <array>
#include <cstdint>
#include <unordered_map>
#include <vector>

#include "core/contact/broadphase.h"
#include "core/contact/lcp.h"
#include "core/contact/solver.h"

namespace mechsim::contact {

struct SphereWorldSettings {
  bool planar = true;          // circles in the xy-plane (d = 3) or spheres (d = 6)
  double timeStep = 1.0 / 60;  // h, seconds
  Vec3 gravity = Vec3(0, -9.80665, 0);
  double friction = 0.1;       // μ (0: frictionless, the plain LCP)
  double restitution = 0.2;    // e
  double restitutionSpeed = -1;  // v_e; < 0: 2 |g| h (no bounce from resting contact)
  double baumgarte = 0.2;      // β
  double slop = 1e-3;          // penetration left uncorrected, m
  double margin = 0.01;        // contacts kept while gap < margin, m
};

/// A fixed plane: points with normal·x ≥ offset are free.
struct Plane {
  Vec3 normal = Vec3::UnitY();
  double offset = 0;
};

/// One contact of the last step.
struct SphereContact {
  int a = -1, b = -1;      // spheres; a = −1 − p for plane p
  Vec3 normal;             // from a to b (for a plane, the plane normal)
  Vec3 point;              // on the surface of b
  double gap = 0;          // signed distance (< 0: penetration)
  int row = -1;            // its normal row in the LCP
};

class SphereWorld {
 public:
  SphereWorldSettings settings;
  std::vector<Vec3> position, velocity, angular;  // (N) centres, velocities, angular velocities
  std::vector<double> radius, mass;               // (N)
  std::vector<Plane> planes;

  int addSphere(const Vec3& centre, double r, double m);
  int bodies() const { return static_cast<int>(position.size()); }

  /// Steps 1-4: gravity, contacts, the LCP and the warm start (problem(), impulses()).
  void beginStep();
  const LcpProblem& problem() const { return problem_; }
  VecX& impulses() { return lambda_; }               // warm start after beginStep(); the solution before endStep()
  const std::vector<SphereContact>& contacts() const { return contacts_; }
  /// Step 5: apply the impulses, move the bodies, remember λ for the next warm start.
  void endStep();
  /// A whole step with the given solver; returns the solver's result.
  SolverResult step(LcpSolver& solver, const SolverSettings& s);

  double time() const { return time_; }
  /// Kinetic energy ½ Σ (m v² + I ω²).
  double kineticEnergy() const;

 private:
  double inertia(int i) const;
  void addContactRows(const SphereContact& c, const Vec3& ra, const Vec3& rb, double h);

  SphereGrid grid_;
  std::vector<std::pair<int, int>> pairs_;
  std::vector<SphereContact> contacts_;
  LcpProblem problem_;
  VecX lambda_;
  std::unordered_map<std::uint64_t, std::array<double, 3>> previous_;  // contact key → (λ_n, λ_t1, λ_t2)
  double time_ = 0;
};

}  // namespace mechsim::contact
