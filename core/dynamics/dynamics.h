#pragma once
// core/dynamics/dynamics.h — forward dynamics of a mechanism: the time stepper and what the GUI,
// the CLI and the benchmarks call.
//
// State: positions q (Data::q, the kinematic coordinates) and body TWISTS ν (v of the com, ω; 6 per
// moving body, world axes) with the block-diagonal mass matrix M = diag(m E₃, I) of paper 000 eq. 2
// (twist.h). Data::qd is kept equal to T(q) ν, so anything that reads Data (plots, exports, the
// viewport) sees consistent rates.
//
// One step of length h is a named pipeline (kick – drift – kick, the RATTLE / velocity-Verlet form
// of a constrained mechanical system); each stage is a public member so it can be timed and tested:
//   0. (initialize)   a joint coordinate that starts beyond a limit is moved onto it, positions only
//                     (projectIntoLimits; stats().notices says so)
//   1. forces         f(q_n, ν_n, t_n): gravity, gyroscopic −ω × Iω, point springs and dampers,
//                     joint springs and dampers, motors (effort(t) or PD servo), perturbation spring
//   2. free velocity  ν* = ν_n + ½h M⁻¹ f
//   3. impulses       bilateral constraint impulses λ (every joint row, every imposed driver, active
//                     joint limits): J ν⁺ = −Φ_t with ν⁺ = ν* + M⁻¹ Jᵀ λ, i.e. the consistent
//                     system (J M⁻¹ Jᵀ) λ = −Φ_t − J ν* (= Aᵀ b with A = M^{-½} Jᵀ), solved for its
//                     WEIGHTED MINIMUM-NORM solution by Riley's iteration (riley.h, paper 002 eq. 66)
//   3b. contact       when the model has contact (Model::contact.enabled): collision detection at q_n
//                     (core/collision), then ONE mixed boxed LCP of the contact rows (normal: λ ≥ 0;
//                     two tangents: |λ_t| ≤ μ λ_n, pyramidal) TOGETHER with every bilateral row
//                     (unbounded) and active limit (one-sided), solved by AMGS Method 3.2 of paper 000
//                     (or PGS) through v̂ = ν + M⁻¹Jᵀλ, never forming J M⁻¹ Jᵀ; warm-started from
//                     the last step's contact impulses (matched by shape pair and feature); the
//                     bilateral rows start from the Riley impulses of stage 3 (correction 0)
//                     (contact_stage.cpp). Then the `contactStage` hook, if set.
//   4. drift          q̃ = q_n ⊕ h ν_{n+½} (com += h v, exact rotation by h ω)
//   5. projection     drift removal onto Φ(q, t_{n+1}) = 0: Newton in the mass metric,
//                     Δν = M⁻¹ Jᵀ μ with (J M⁻¹ Jᵀ) μ = −Φ (J from step n: SHAKE's direction), then,
//                     if that has not reached the position tolerance, the kinematic position solver
//                     (solvePositions, least-squares Newton of paper 003); the joint and driver
//                     rows' part of Δ becomes velocity (RATTLE's secant), the limit rows' part
//                     (a coordinate lifted back onto its bound) stays a position correction
//   6. forces, free velocity and impulses again at q_{n+1} (the closing half kick: ν_{n+1} satisfies
//                     the velocity constraints at q_{n+1} exactly). The gyroscopic torque −ω × Iω
//                     is taken at the predicted twist ν̂ = 2 ν_{n+½} − ν_n (= ν_{n+1} + O(h²)), not
//                     at ν_{n+½}: with a velocity-dependent force f(q, ν) the closing kick
//                     ν_{n+1} = ν_{n+½} + ½h M⁻¹ f(q_{n+1}, ν_{n+½}) misses ¼h² M⁻¹ f_ν M⁻¹ f of the
//                     Taylor expansion and the step is only first order (measured on the heavy
//                     symmetric top, tests/core/test_dynamics_physics.cpp: the axis error halved,
//                     not quartered, with h). Dampers and servo gains keep ν_{n+½}: extrapolating
//                     them would halve their explicit stability limit (h c / m < 2 instead of 4).
// Energy behaviour (measured in tests/core/test_dynamics.cpp and by `bench dynamics`): the scheme
// is second order; on conservative systems the total energy oscillates by O(h²) about its initial
// value with no secular drift (the velocity-level impulses are M-orthogonal projections, which never
// add kinetic energy, and the drift is the symplectic Störmer–Verlet step). Dampers, servos and
// the velocity projection at singular positions only remove energy; motors add the work they do.
// Joint limits are inelastic stops that never add energy: an active limit row's target is
// σθ̇ ≥ −max(g, 0)/h with the gap g = σ(θ − bound) ≥ 0 inside the range (σ = ±1 at a lower /
// upper bound) — land on the bound by the end of the drift, then stop; never a velocity pushing
// a coordinate out of penetration — so the kick's change of kinetic energy λᵀc − ½λᵀNλ is ≤ 0
// (c: the rows' targets, zero on joint rows; on limit rows σλ ≥ 0 and σc ≤ 0, or c = 0 for a row
// kept beyond its bound; stepper.cpp, rowVelocityBias). Penetration is undone by positions alone
// (stage 5's limit part, stage 0).
//
// Weights D of the minimum-norm impulses (Model::dynamics.weights):
//   "mass" (default): D_ii = (J M⁻¹ Jᵀ)_ii, the inverse effective mass of constraint row i, so
//     λᵀ D λ = Σ_i ‖M^{-½} J_iᵀ λ_i‖² sums the kinetic energies the row impulses would each impart:
//     the impulses that do the job with least "energy per row"; invariant to scaling a row (a
//     joint equation written in mm or m, an angle row vs a position row).
//   "identity": D = I, the plain minimum-norm impulses (depends on how rows are scaled).
// Riley's s = f/(1 − f) μ with f = Model::dynamics.reduction (default 0.1) and μ the smallest
// non-zero eigenvalue of D^{-½} J M⁻¹ Jᵀ D^{-½}, estimated at the first step and whenever the
// set of constraint rows changes (riley.h).
#include <functional>
#include <map>
#include <memory>
#include <tuple>
#include <string>
#include <vector>

#include "core/collision/world.h"
#include "core/contact/solver.h"
#include "core/data.h"
#include "core/dynamics/riley.h"
#include "core/dynamics/twist.h"
#include "core/model.h"

namespace mechsim {

/// A spring to a world target attached to a point of a body (the GUI's "perturb by dragging"):
/// F = k (target − x) − c ẋ at the point. It is not part of the mechanism's energy; once removed
/// it exerts nothing and leaves nothing stored (the work it did stays as the mechanism's energy).
struct PerturbationSpring {
  int body = -1;                 // index into Model::bodies (a moving body)
  Vec3 local = Vec3::Zero();     // point in the body frame [m]
  Vec3 target = Vec3::Zero();    // world target [m]
  double stiffness = 0;          // N/m
  double damping = 0;            // N·s/m
};

/// Reaction of a joint over the last step: the force and torque the joint applies to body2
/// (world axes; torque about the joint point on body2), N and N·m. body1 receives the opposite.
/// It is the step's whole constraint impulse divided by h: the two half-kick impulses λ and the
/// drift projection's (Σμ)/h (whose velocity change the step keeps, RATTLE's secant twist) — the
/// latter carries the centripetal part (a pendulum's rod tension 3 m g sin φ, not m g sin φ).
/// When the projection falls back to the kinematic solver, that correction is not included.
struct JointReaction {
  Vec3 force = Vec3::Zero();
  Vec3 torque = Vec3::Zero();
};

struct EnergyReport {
  double kinetic = 0;            // ½ νᵀ M ν
  double potential = 0;          // gravity + point springs + joint springs
  double total() const { return kinetic + potential; }
};

/// Statistics of the last step (GUI status bar, CLI summary, benchmarks).
struct DynamicsStats {
  long steps = 0;                // steps taken since initialize()
  int rileyIterations = 0;       // Riley iterations in the last step (all solves)
  int maxRileyIterations = 0;    // the most in one solve, since initialize()
  int projectionIterations = 0;  // mass-metric Newton iterations in the last step
  bool kinematicFallback = false;// the last projection needed solvePositions
  double residual = 0;           // max |Φ_i| after the last step
  double maxResidual = 0;        // the largest since initialize()
  double mu = 0, s = 0;          // Riley's μ estimate and s in use
  int constraintRows = 0;        // rows of J in the last impulse solve
  double seconds = 0;            // wall time of the last step
  std::string message;           // why a step failed, when it did
  /// What initialize() changed in the given state: one line per joint coordinate that started
  /// beyond a limit and was moved onto it (projectIntoLimits). The CLI prints them as warnings.
  std::vector<std::string> notices;
  // contact (stage 3b) in the last step
  int contactCount = 0;          // contact points
  int contactRows = 0;           // rows of the mixed LCP (contact + bilateral)
  int contactIterations = 0;     // sweeps of its solve
  double contactResidual = 0;    // its RES (paper 000 eq. 24, natural residual), N·s
  double maxPenetration = 0;     // deepest penetration of the step's contacts, m (≥ 0)
  double contactSeconds = 0;     // wall time of detection + solve
};

/// One contact point of the last step (for the GUI and the tests): world point, normal from bodyA
/// to bodyB, gap (< 0 penetration) at detection, and the impulses of the step (N·s): normal and the
/// friction impulse as a world vector (acting on bodyB; bodyA gets the opposite), and the impulse
/// couple of torsional and rolling friction (world vector, on bodyB; zero when they are off).
struct ContactReport {
  int bodyA = -1, bodyB = -1;    // Model::bodies indices
  Vec3 point = Vec3::Zero();
  Vec3 normal = Vec3::UnitZ();
  double gap = 0;
  double normalImpulse = 0;
  Vec3 frictionImpulse = Vec3::Zero();
  Vec3 frictionCouple = Vec3::Zero();
};

/// Arguments of the contact stage hook: the model, the data at the stage, the inverse mass
/// blocks and the twist after the bilateral impulses (to be modified in place), the step h.
using ContactStage = std::function<void(const Model&, const Data&, const std::vector<dyn::BodyInertia>&, VecX& nu,
                                        double h)>;

/// The forward-dynamics time stepper of one model. Not thread-safe; one per worker thread.
/// Typical use:
///   DynamicsStepper sim(model);  Data d = makeData(model);
///   sim.initialize(d);                        // consistent q, ν from the file's initial velocities
///   while (...) sim.step(d, h);               // d.t, d.q, d.qd, d.coords advance
///   sim.energy(d), sim.reactions()            // energy, per-joint reactions
class DynamicsStepper {
 public:
  explicit DynamicsStepper(const Model& m);

  /// Makes d consistent for dynamics at d.t: solves the positions (drivers imposed, servo drivers
  /// excepted), and sets the twists — the M-norm-smallest twist satisfying the velocity constraints
  /// and the file's initial joint rates (Model::initialRates) when `useInitialRates`, else the twist
  /// of d.qd projected onto the velocity constraints. Returns false (d.stats / stats().message say why).
  bool initialize(Data& d, bool useInitialRates = true);

  /// Advances d by h seconds (pipeline in the header comment). On failure d is left at the last good
  /// state and false is returned. If d.q / d.qd were changed from outside since the last step (a
  /// kinematic drag, a mode switch), the stepper re-initialises from them first.
  bool step(Data& d, double h);

  // ---- stages (public for tests and per-stage timing) ----
  /// Applied forces and torques per moving body (6 per body: force at the com, torque), at d.t,
  /// for positions d.q and the twist `nu` (the gyroscopic torques at `gyroscopicTwist` when given).
  void appliedForces(const Data& d, const VecX& nu, VecX& f, const VecX* gyroscopicTwist = nullptr) const;
  /// Bilateral impulses at d.q (time tPhi for the driver rates): replaces nu by the constrained
  /// twist and returns the impulses (one per constraint row). Needs prepareConstraints(d).
  VecX constraintImpulses(const Data& d, double tPhi, VecX& nu);
  /// Evaluates the constraint rows (J in twist space, inverse masses, Riley factors) at d.q, d.t.
  bool prepareConstraints(const Data& d);
  /// Drift removal onto Φ(q, d.t) = 0 (mass-metric Newton, then the kinematic solver if needed).
  bool project(Data& d);

  // ---- results ----
  const VecX& twist() const { return nu_; }
  /// Sets the twist (size 6 × moving bodies); d.qd is updated on the next step.
  void setTwist(const VecX& nu) { nu_ = nu; }
  EnergyReport energy(const Data& d) const;
  /// Reactions of every joint over the last step (Model::joints order).
  std::vector<JointReaction> reactions() const;
  /// Impulses of the last step per row of J (joint rows, imposed drivers, active limits), N·s:
  /// both half kicks and the projection's (JointReaction); the first kick's and the projection's
  /// only when the row set did not change within the step.
  const VecX& impulses() const { return lastImpulse_; }
  const DynamicsStats& stats() const { return stats_; }
  const dyn::RileySolver& riley() const { return riley_; }
  /// The constraint rows J (twist space), N = J M⁻¹ Jᵀ and the weights D of the last impulse solve.
  const SpMat& constraintJacobian() const { return J_; }
  const SpMat& constraintSystem() const { return N_; }
  const VecX& constraintWeights() const { return D_; }
  /// Joint of each constraint row (drivers and limits: the joint they act on).
  const std::vector<int>& rowJoints() const { return rowJoint_; }

  // ---- perturbation (GUI drag) and the contact hook ----
  /// Adds a perturbation spring; returns its id (for removal).
  int addPerturbation(const PerturbationSpring& p);
  /// Moves the target of perturbation `id` (the cursor moved).
  void setPerturbationTarget(int id, const Vec3& target);
  /// Removes perturbation `id` (release). Unknown ids are ignored.
  void removePerturbation(int id);
  /// A further stage after the built-in contact stage (3b), before the integration.
  ContactStage contactStage;

  // ---- contact (stage 3b, contact_stage.cpp) ----
  /// Contact points of the last step with their impulses.
  const std::vector<ContactReport>& contacts() const { return contactReport_; }
  /// The collision world (null when the model has no contact).
  const collision::CollisionWorld* collisionWorld() const { return world_.get(); }
  /// Stage 3b: detects contacts at d.q and applies the mixed contact + bilateral impulses to the
  /// twist (tPhi: time of the driver rates). Returns the bilateral part of the impulses (rows of J,
  /// to add to the step's impulses; empty when there was no contact).
  VecX contactImpulses(const Data& d, double tPhi, double h);

 private:
  void buildRows(const Data& d);
  void assembleN();
  void finishStep(Data& d, double h, const VecX& nuOld);
  /// Adds Jᵀλ (rows of the current J) to the step's per-joint reaction wrenches.
  void addReactionImpulse(const VecX& lambda);
  /// Φ_t of the rows of J at tPhi (drivers); limit rows' σ max(σ (θ − bound), 0)/h (σ = +1 lower,
  /// −1 upper: the speculative gap, never a push out of penetration): the rows' velocity target is J ν = −Φ_t.
  VecX rowVelocityBias(const Data& d, double tPhi) const;
  /// Moves every joint coordinate beyond a limit onto it (positions only, one at a time, the
  /// others kept where the joints allow; moveOntoLimits) and records it in stats().notices.
  /// False when the move failed.
  bool projectIntoLimits(Data& d);
  /// One such move: joint `target`'s coordinate onto the bound it is beyond, the joints closed,
  /// the coordinates fixedAt (not NaN) kept there and the others at startCoords as well as the
  /// joints allow (tangent steps, lexicographic in the mass metric, joints closed by solvePositions).
  bool moveOntoLimits(Data& d, const VecX& startCoords, int target, const std::vector<double>& fixedAt);
  /// Residual of the rows of J at d.q: Φ of the joint and driver rows, the one-sided violation of
  /// the limit rows (0 inside the range); returns its max norm.
  double rowResidual(const Data& d, VecX& res) const;

  const Model& m_;
  std::vector<int> imposedDrivers_;     // drivers imposed as constraints (not followed by a servo)
  std::vector<dyn::BodyInertia> bi_;    // at the q of the last prepareConstraints
  VecX nu_;                             // (6 × moving) twist
  VecX projectionDelta_;                // (6 × moving) displacement of the last projection
  VecX projectionImpulse_;              // (rows of J_n) its constraint impulse (Σμ)/h
  SpMat J_;                             // (rows × 6 moving) constraint rows in twist space (row-major build)
  SpMat N_;                             // J M⁻¹ Jᵀ
  std::vector<std::vector<int>> bodyRows_;  // rows of J touching each moving body (pattern of N)
  std::vector<int> nSlots_;             // value index in N_ of each body-block entry
  Eigen::Index nPatternRows_ = -1, nPatternNnz_ = -1;
  std::vector<int> rowSignature_;       // active limits + row count of the current J
  std::vector<int> wrenchTarget_;       // per stored entry of J: 2 joint (+1 body2), −1 (reactions)
  Eigen::Index wrenchPatternRows_ = -1;
  std::vector<int> jSlots_;             // value index in J_ of each entry in visit order (buildRows)
  Eigen::Matrix<double, Eigen::Dynamic, 6> blockB_, blockBM_;  // assembleN work space
  VecX D_;                              // Riley weights
  std::vector<int> rowJoint_;           // joint of each row (drivers, limits: the joint they act on)
  std::vector<int> rowKind_;            // 0 joint, 1 driver, 2 limit, 3 coupling
  std::vector<int> rowSource_;          // Φ row for kinds 0/1, joint coordinate index for limits
  std::vector<double> rowLimitSign_;    // limits: +1 lower, −1 upper (impulse must be ≥ 0 times this)
  std::vector<int> activeLimits_;       // active limits: 2 j (lower) / 2 j + 1 (upper) of joint j
  std::vector<int> muKey_;              // the row set μ was estimated for
  double mu_ = 0;
  dyn::RileySolver riley_;
  VecX lastImpulse_;
  std::vector<std::pair<dyn::Vec6, dyn::Vec6>> reactionWrench_;  // per joint: Jᵀλ on body1, body2 over the step
  std::vector<PerturbationSpring> perturb_;
  std::vector<int> perturbIds_;
  int nextPerturbId_ = 1;
  VecX writtenQ_, writtenQd_;           // what step() left in d (to detect outside changes)
  double writtenT_ = 0;
  bool initialized_ = false;
  DynamicsStats stats_;
  double lastH_ = 0;
  // contact
  std::unique_ptr<collision::CollisionWorld> world_;
  std::vector<collision::Contact> contactPoints_;
  std::vector<ContactReport> contactReport_;
  contact::LcpProblem lcp_;
  contact::LcpSolver lcpSolver_;
  VecX lcpLambda_;
  /// Warm start: impulses (normal, tangent 1, tangent 2, spin, roll 1, roll 2) of the last step by
  /// (geomA, geomB, feature).
  std::map<std::tuple<int, int, int>, Eigen::Matrix<double, 6, 1>> warm_;
};

/// Mechanical energy of d (kinetic from d.q, d.qd; potential: gravity, springs, joint springs).
EnergyReport mechanicalEnergy(const Model& m, const Data& d);

/// One step of `sim` (free-function form of DynamicsStepper::step).
inline bool stepDynamics(DynamicsStepper& sim, Data& d, double h) { return sim.step(d, h); }

}  // namespace mechsim
