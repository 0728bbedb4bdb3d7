#pragma once
// core/sim/dynamic_run.h — a mechanism moving under its forces (gravity, springs, motors, contact;
// core/dynamics/dynamics.h) instead of following its drivers' expressions: the engine's dynamic
// mode, on the GUI's worker or in any client.
//
// DynamicRun holds a DynamicsStepper on the FILE model (its drivers stay imposed as rheonomic
// constraints; the GUI's coordinate sliders are not), the rigid Data it advances, and the drag
// perturbation.
//
// Perturbation ("drag a body" in dynamic mode): while the mouse holds a point P of a body, a
// spring-damper from P to the cursor's target T acts on the body, F = k (T − P) − c Ṗ, and time
// runs. Its work is accumulated per step by the trapezoidal rule, W += ½ (F_n + F_{n+1})·(P_{n+1} − P_n),
// so that the mechanism's energy after the release is E_grab + W (+ the integrator's O(h²) error):
// the spring stores nothing the mechanism keeps — when it is removed it leaves no energy behind.
// Stiffness: k = M_total (2π f₀)² with f₀ = 2 Hz (the whole mechanism follows the cursor within
// about a second), capped so that the dragged body alone keeps ω h ≤ 0.2 for the explicit kicks;
// damping c = 2 ζ √(k m_body), ζ = 0.7, capped at c h ≤ 0.5 m_body.
//
// Files without a dynamics section simulate with the model's gravity (default −z 9.81 m/s²) and
// the masses and inertias of the file; a moving body without mass or inertia is refused with a
// message naming it.
#include <memory>
#include <string>
#include <vector>

#include "core/data.h"
#include "core/dynamics/dynamics.h"
#include "core/kinematics/drag.h"
#include "core/model.h"

namespace mechsim::sim {

/// Why m cannot be simulated in dynamic mode (a body without mass or inertia), or empty.
std::string dynamicModeProblem(const mechsim::Model& m);

class DynamicRun {
 public:
  /// `model` is the file model (kept alive here: the stepper refers to it).
  explicit DynamicRun(std::shared_ptr<const mechsim::Model> model);

  /// Starts from positions q at time t with rates qd (size nq, or empty: at rest). The positions
  /// are made consistent, the rates projected onto the velocity constraints — or, with
  /// `fileRates`, replaced by the smallest twist that meets the file's initial joint rates
  /// (Model::initialRates). False: message().
  bool start(const VecX& q, const VecX& qd, double t, bool fileRates = false);
  /// Advances by dt in steps of at most the model's time step. On failure the last good state
  /// is kept and false is returned (message() says why).
  bool advance(double dt);
  /// One step of length h.
  bool step(double h);

  /// Perturbation spring from `point` (body frame) to `target` (world). Replaces a previous one.
  void grab(const DragPoint& point, const Vec3& target);
  void setTarget(const Vec3& target);
  /// Removes the spring (the work it did stays in perturbationWork()).
  void release();
  bool grabbed() const { return springId_ >= 0; }
  /// The grabbed point's world position now.
  Vec3 grabbedPoint() const;
  const Vec3& target() const { return target_; }
  /// Work done on the mechanism by the perturbation springs since start() [J].
  double perturbationWork() const { return work_; }
  double stiffness() const { return spring_.stiffness; }
  double damping() const { return spring_.damping; }

  const mechsim::Data& data() const { return d_; }
  const mechsim::Model& model() const { return *m_; }
  EnergyReport energy() const { return sim_.energy(d_); }
  std::vector<JointReaction> reactions() const { return sim_.reactions(); }
  const DynamicsStats& stats() const { return sim_.stats(); }
  /// Contact points of the last step (empty without contact) and whether the model has contact.
  const std::vector<ContactReport>& contacts() const { return sim_.contacts(); }
  bool hasContact() const { return sim_.collisionWorld() != nullptr; }
  const std::string& message() const { return message_; }
  double timestep() const { return m_->dynamics.timestep; }

 private:
  Vec3 springForce() const;
  std::shared_ptr<const mechsim::Model> m_;
  DynamicsStepper sim_;
  mechsim::Data d_;
  PerturbationSpring spring_;
  int springId_ = -1;
  Vec3 target_ = Vec3::Zero();
  double work_ = 0;
  std::string message_;
};

}  // namespace mechsim::sim
