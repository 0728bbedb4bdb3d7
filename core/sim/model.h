#pragma once
// core/sim/model.h — sim::Model: the whole mechanism as the engine runs it, compiled once from a
// MechanismSpec by sim::compile and never changed while it moves (everything that changes is in
// sim::Data, core/sim/data.h). MuJoCo's mjModel, Pinocchio's Model.
//
//   file     the rigid model of the file (core/model.h), its drivers as the file writes them;
//            dynamics runs on it (its drivers stay imposed as rheonomic constraints).
//   work     the working model: the file's drivers plus one driver per independent coordinate the
//            drivers leave free (core/sim/dofs.h), so that every DOF is a slider whose position the
//            position analysis meets exactly. Its driver functions read a DriverInputs (held value
//            or "follow the expression of t"); Model::work is the template, and every Data binds a
//            copy of it to its own inputs (sim::makeData), so that one Model serves many Datas.
//   free     the model without drivers, on which a handle drag moves every DOF (null without a spec).
//   dofs     the sliders: the file's drivers, then the added coordinates, with their ranges.
//   parts    the deformable parts with their solver settings and JGS2 precomputation (paper 001).
//
// Units: SI throughout (angles in radians).
#include <memory>
#include <string>
#include <vector>

#include "core/deform/deformable.h"
#include "core/deform/solver.h"
#include "core/kinematics/kinematics.h"
#include "core/model.h"
#include "core/sim/dofs.h"
#include "core/sim/options.h"
#include "core/spec.h"
#include "core/types.h"

namespace mechsim::sim {

/// A deformable part (a tetrahedral mesh; spec "deformables") as compiled for the engine: its
/// pinned vertices stay at rest, its attached vertices follow their bodies, the rest follows one
/// implicit-Euler step of length Options::deformStep per stepDeformables.
struct PartModel {
  std::string name;
  /// Mesh, material, masses, attachments (indices into spec.bodies), h. Shared, never changed; a
  /// soft handle is the Data's (core/sim/data.h: a part under a handle steps on a copy).
  std::shared_ptr<const deform::DeformableModel> model;
  std::vector<int> surfaceVertices;     // mesh vertices on the boundary, in surface order
  std::vector<unsigned> surfaceIndices; // boundary triangles (outward), into surfaceVertices
  deform::SolveOptions solve;           // method, step control, iteration cap, tolerance
  bool fileBudget = false;              // the file gives maxIterations: a step at it is a budget, not a failure
  std::shared_ptr<const deform::Jgs2Data> jgs2;  // JGS2's precomputed data (JGS2 methods only)
  Jgs2Report precomputation;            // how jgs2 was obtained
  bool device = false;                  // stepped on Options::device (the Data uploads it)
  std::string cpuReason;                // why a part runs on the CPU while a device is present
  VecX rest;                            // (3 nv) rest positions
};

struct Model {
  std::shared_ptr<const mechsim::Model> file;    // the file's rigid model
  std::shared_ptr<const MechanismSpec> spec;     // what it was compiled from (null: a bare rigid model)
  mechsim::Model work;                           // the working model (file drivers + coordinate drivers)
  std::shared_ptr<const mechsim::Model> free;    // no drivers (handle drags); null without a spec
  std::vector<DofInfo> dofs;                     // (DOFs) the sliders, file drivers first
  std::vector<std::pair<int, int>> addedCoordinates;  // (joint, coordinate) of the added drivers
  MobilityReport mobility;                       // of the file model at its assembled configuration
                                                 // (Options::sliders; else not computed: sim::analyse)
  VecX q0;                                       // (nq) the assembled file configuration at t = 0
  std::vector<double> dofValues0;                // (DOFs) the sliders' values there
  std::vector<PartModel> parts;                  // (deformable parts) in spec order
  std::vector<int> partBodies;                   // (spec bodies) → index into file->bodies; the step's poses
  Options options;
  std::string message;                           // what fell short (DOF analysis, deformable parts), or empty

  int nq() const { return file ? file->nq : 0; }
  int dofCount() const { return static_cast<int>(dofs.size()); }
  /// The DOF of this name (a file driver's name, or a coordinate's "C", "C.1"), or −1.
  int findDof(const std::string& name) const;
  /// The handle of this name (Model::handles of the file), or −1.
  int findHandle(const std::string& name) const;
  /// The deformable part of this name, or −1.
  int findPart(const std::string& name) const;
};

/// The engine's model of `spec`, whose rigid model `file` was compiled from it (io::compileSpec,
/// which reports errors by file position; io::compileEngine does both), or of a bare rigid model
/// (spec null: no coordinate sliders, no drag model, no deformable parts). Runs the DOF analysis,
/// assembles the file configuration at t = 0, searches the sliders' ranges, builds the deformable
/// parts and their JGS2 precomputation. A shortfall of the DOF analysis or of the parts is not an
/// error: it is said in Model::message (the mechanism still runs, without them). Throws
/// std::invalid_argument for a null `file`, and deform::Cancelled when options.cancel asks during
/// a precomputation.
Model compile(std::shared_ptr<const MechanismSpec> spec, std::shared_ptr<const mechsim::Model> file,
              const Options& options = {});

}  // namespace mechsim::sim
