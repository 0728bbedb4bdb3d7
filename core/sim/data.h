#pragma once
// core/sim/data.h — sim::Data: everything of a running mechanism that changes, for one sim::Model
// (MuJoCo's mjData, Pinocchio's Data). Made by sim::makeData(model); the stages
// (core/sim/stages.h) take (const Model&, Data&). One Model serves any number of Datas, each used
// by one thread at a time. Sizes: nq = 7 × moving bodies, nc = joint coordinates, nd = DOFs
// (sliders), np = deformable parts, nv_k = vertices of part k.
#include <memory>
#include <string>
#include <vector>

#include "core/anm/anm_drag.h"
#include "core/data.h"
#include "core/deform/handle.h"
#include "core/deform/solver.h"
#include "core/kinematics/drag.h"
#include "core/sim/anm_slider.h"
#include "core/sim/dofs.h"
#include "core/sim/dynamic_run.h"
#include "core/sim/model.h"
#include "core/sim/services.h"

namespace mechsim::sim {

/// One deformable part's state.
struct PartState {
  VecX x;                        // (3 nv_k) vertex positions, world [m]
  VecX v;                        // (3 nv_k) vertex velocities [m/s]
  deform::SolveStats last;       // of the last step taken
  bool stepped = false;          // a step was taken since makeData / resetDeformables
  std::unique_ptr<DeviceSolver> device;  // the part resident on the device (PartModel::device and the upload worked)
  /// While a soft handle pulls this part: a copy of PartModel::model with the handle in it (the
  /// step's incremental potential includes the handle's spring, core/deform/handle.h); else null.
  std::shared_ptr<deform::DeformableModel> handled;
};

/// Wall time of the stages' last calls [s] (the GUI's per-stage timings).
struct StageTimes {
  double kinematics = 0;     // assemble / setDof / advance (kinematic) / restore
  double drag = 0;           // the last dragTo
  double dynamics = 0;       // the last advance in dynamic mode
  double deformables = 0;    // the last stepDeformables
};

struct Data {
  // ---- rigid state (of the bound working model) ----
  std::unique_ptr<mechsim::Model> work;     // Model::work bound to `inputs` (its driver functions read them)
  std::shared_ptr<DriverInputs> inputs;     // (drivers of work) held values [SI] and follow flags
  mechsim::Data rigid;                      // t, q (nq), qd (nq), qdd (nq), phi, Jq, coords (nc), rates, stats

  // ---- kinematic drags ----
  DragMethod dragMethod = DragMethod::Newton;  // drags (and with Anm the sliders): Options::drag, or setDragMethod
  bool dragging = false;                    // a handle drag is on (kinematic: drag solver; dynamic: spring)
  DragPoint dragPoint;                      // the dragged point (body, local point)
  Vec3 dragTarget = Vec3::Zero();           // where the cursor wants it (world) [m]
  std::unique_ptr<DragSolver> drag;         // kinematic drag: the solver's per-drag state
  mechsim::Data freeData;                   // kinematic drag: the state of Model::free (nq as rigid)
  DragResult lastDrag;                      // of the last dragTo
  std::unique_ptr<AnmSliderPath> anmPath;   // dragMethod Anm: the kept series of the last slider move

  // ---- dynamic mode ----
  std::unique_ptr<DynamicRun> dynamics;     // non-null while time runs by the forward dynamics

  // ---- deformable parts ----
  std::vector<PartState> parts;             // (np)
  int handlePart = -1;                      // the part under a soft handle (−1: none)
  int handleVertex = -1;                    // its surface vertex
  double attachError = 0;                   // largest attached-vertex error after the last step [m]
  int deformIterations = 0;                 // all parts' iterations in the last step
  int deformUnconverged = 0;                // parts whose last step stopped at the iteration cap

  // ---- statistics ----
  StageTimes times;
  std::string message;                      // the last stage's problem (why it failed), or empty

  double t() const { return rigid.t; }
  const VecX& q() const { return rigid.q; }
};

/// Data for m at its assembled file configuration (t = 0, rates from the drivers), the sliders at
/// their initial values, the deformable parts at rest (uploaded to the device where the Model says).
Data makeData(const Model& m);

}  // namespace mechsim::sim
