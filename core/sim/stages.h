#pragma once
// core/sim/stages.h — the engine's named stages: free functions on (const Model&, Data&), the
// pipeline every client runs (MuJoCo's mj_step stages; STYLE.md §4). A stage that fails returns
// false, keeps the last good state and says why in Data::message.
//
//   kinematic mode (the drivers and sliders place the mechanism; papers 003, 004)
//     assemble        back to the assembled file configuration at t = 0, sliders at their start
//     setDof          a slider to a value: continuation in steps (Newton) or the ANM path, with
//                     bisection to the last reachable value when the target is out of reach
//     setDofFollows   a file driver follows its expression of t (play) or holds its slider value
//     advance         time by dt: the position, velocity and acceleration analyses at t + dt
//                     (in dynamic mode: the forward dynamics over dt instead)
//     beginDrag / dragTo / endDrag   a handle: the drag solver on the model without drivers, the
//                     drivers then hold the new pose (dynamic mode: a spring pulls the point)
//     restore         a recorded state (q, slider values, follow flags) solved again
//   dynamic mode (forces move the mechanism; paper 002, contact paper 000)
//     setDynamic      on: from the current pose and rates; off: back to the drivers
//   deformable parts (paper 001)
//     stepDeformables one implicit-Euler step of every part with the bodies where they are now
//     resetDeformables / setDeformHandle / moveDeformHandle / clearDeformHandle
//   analysis and output
//     analyse         mobility, redundancy and singularity at the current pose
//     frame           a snapshot for drawing and export (core/sim/frame.h)
#include <string>

#include "core/kinematics/kinematics.h"
#include "core/sim/data.h"
#include "core/sim/model.h"

namespace mechsim::sim {

// ---- kinematic mode ----

/// Back to the assembled file configuration (Model::q0) at t = 0 with every slider at its start
/// value and the file drivers following their expressions; leaves dynamic mode and any drag; the
/// deformable parts at rest.
void assemble(const Model& m, Data& d);

/// Moves DOF `dof` to `value` (clamped to the slider's range). The position analysis follows in
/// steps of at most Options::sliderStep* (or along the ANM path with Options::drag = Anm); a value
/// out of reach is narrowed by bisection to the last one that solved, and the mechanism stays
/// there (false, Data::message says so). Rates are those of the drivers that follow their
/// expressions. The driver holds its value from now on.
bool setDof(const Model& m, Data& d, int dof, double value);

/// The named DOF (Model::findDof); false with a message for an unknown name.
bool setDof(const Model& m, Data& d, const std::string& dof, double value);

/// A file driver follows its expression of t (true) or holds its slider value (false). Coordinate
/// DOFs have no expression: false.
bool setDofFollows(const Model& m, Data& d, int dof, bool follows);

/// Time by dt. Kinematic mode: the position analysis at t + dt (from a second-order prediction of
/// the last solution), then velocities and accelerations; the held sliders stay, the following
/// drivers move. Dynamic mode: the forward dynamics over dt. False: the analysis or a step failed,
/// the last good state is kept.
bool advance(const Model& m, Data& d, double dt);
/// advance to time t (the command line's output times t_k = k·dt, free of accumulated sums).
bool advanceTo(const Model& m, Data& d, double t);

/// Starts a drag of `point` (a point of a moving body). Kinematic mode: the drag solver
/// (Options::drag) on Model::free, so the handle moves every DOF; dynamic mode: a spring-damper
/// pulls the point (core/sim/dynamic_run.h). False for a fixed or unknown body.
bool beginDrag(const Model& m, Data& d, const DragPoint& point);
/// The file's handle of this name (Model::file->handles); false with a message when unknown.
bool beginDrag(const Model& m, Data& d, const std::string& handle);
/// Moves the dragged point towards `target` (world). Kinematic: solved now, no time passes
/// (rates zero), the sliders take the new pose; the mechanism stops at the closest reachable pose.
/// Dynamic: the spring's target, time runs with advance().
bool dragTo(const Model& m, Data& d, const Vec3& target);
/// Ends the drag: the drivers hold the dragged pose (kinematic), the spring is removed (dynamic).
void endDrag(const Model& m, Data& d);
/// The solver of the next kinematic drags (and, with Anm, of the slider moves).
void setDragMethod(const Model& m, Data& d, DragMethod method);

/// What restore() puts back.
struct State {
  double t = 0;
  VecX q;                          // (nq)
  std::vector<double> dofValues;   // (DOFs) held values, SI
  std::vector<char> dofFollows;    // (DOFs) 1: the driver follows its expression of t
};
/// The state now.
State state(const Model& m, const Data& d);
/// Puts a recorded state back and solves it (in dynamic mode: restarts there, at rest). False
/// when the state does not belong to the model.
bool restore(const Model& m, Data& d, const State& s);

// ---- dynamic mode ----

/// Dynamic mode on (from the current pose and rates, projected onto the constraints; at the file's
/// start — t = 0, the assembled pose, the sliders untouched — from the file's configuration and
/// initial joint rates, as startFromFile) or off (back to the drivers, the sliders hold the pose
/// the dynamics left). False when it cannot start
/// (a moving body without mass or inertia, a failed projection): Data::message says why.
bool setDynamic(const Model& m, Data& d, bool on);
bool isDynamic(const Data& d);
/// Dynamic mode from the file's own state: its configuration as written, t = 0, and its initial
/// joint rates (dynamics "initialVelocities"), made consistent by the stepper — what
/// `mechsim-cli simulate` runs. False with Data::message when it cannot start.
bool startFromFile(const Model& m, Data& d);
/// One step of the forward dynamics of length h (dynamic mode on; advance() takes as many steps
/// of at most the file's time step as fit in its dt). False: the step failed, the last good state
/// is kept, Data::message says why.
bool stepDynamics(const Model& m, Data& d, double h);

// ---- deformable parts ----

/// One implicit-Euler step (h = Options::deformStep) of every part with its attached vertices at
/// the bodies' poses now. A part whose step fails keeps its last good state; false and
/// Data::message says which and why. A step stopped at the iteration cap keeps what it reached
/// (finite; counted in Data::deformUnconverged and in the part's `last.converged`).
bool stepDeformables(const Model& m, Data& d);
/// The parts back to rest, at rest.
void resetDeformables(const Model& m, Data& d);
/// A soft handle on surface vertex `surfaceVertex` of part `part` pulling it towards `target` from
/// the next step on (stiffness k = c m̄ / h², c = kDeformHandleStiffness, m̄ the part's mean
/// vertex mass); replaces any handle. False for a bad part, vertex or target.
bool setDeformHandle(const Model& m, Data& d, int part, int surfaceVertex, const Vec3& target);
void moveDeformHandle(const Model& m, Data& d, const Vec3& target);
/// Removes the handle: the part springs back.
void clearDeformHandle(const Model& m, Data& d);
/// c of the soft handle's stiffness. 10× core/deform's default of 100: the example strap (1 cm
/// cells of rubber, h = 1/60 s) then gets k ≈ 2 kN/m, above its own stiffness at its middle
/// (clamped at both ends, about 1 kN/m across it), so the vertex follows the cursor most of the
/// way; the local stretch stays moderate (k is ten times below one cell's E × 1 cm = 20 kN/m).
constexpr double kDeformHandleStiffness = 1e3;
/// Position (world) of surface vertex `surfaceVertex` of part k now (zero when out of range).
Vec3 partSurfacePoint(const Model& m, const Data& d, int part, int surfaceVertex);
/// Largest vertex speed of all parts after the last step [m/s]: whether they have settled.
double deformMaxSpeed(const Data& d);

// ---- analysis ----

/// Mobility (Grübler, true mobility, DOF left by the drivers), redundant equations and
/// singularity of the file model at the current pose (paper 003's rank analysis).
MobilityReport analyse(const Model& m, const Data& d);

}  // namespace mechsim::sim
