#pragma once
// core/sim/frame.h — sim::Frame: a finished snapshot of a running mechanism, everything a view, a
// plot or an export needs at one instant, copied out of Data so that another thread can hold it
// (the GUI's worker hands frames to the GUI thread; MuJoCo simulate's scene update).
#include <memory>
#include <string>
#include <vector>

#include "core/kinematics/kinematics.h"
#include "core/max_abs.h"
#include "core/model.h"
#include "core/sim/data.h"
#include "core/sim/model.h"
#include "core/types.h"

namespace mechsim::sim {

struct Frame {
  std::shared_ptr<const mechsim::Model> model;  // the file model the frame belongs to
  double t = 0;                        // time [s]
  std::vector<Pose> poses;             // (bodies) world pose of every body
  KinematicsStats stats;               // of the solve that produced the frame
  VecX q, qd, qdd;                     // (nq)
  VecX coords, coordVel, coordAcc;     // (nCoords) joint coordinates and rates, SI
  VecX phi;                            // (rows of the model solved) Φ; joint rows first, as in `model`
  std::vector<double> dofValues;       // (DOFs) the sliders' values, SI
  std::vector<char> dofFollows;        // (DOFs) 1: the driver follows its expression of t
  bool dragging = false;               // a handle drag is on
  Vec3 dragPoint = Vec3::Zero();       // the dragged point (world) …
  Vec3 dragTarget = Vec3::Zero();      // … and where the cursor wants it
  // Dynamic mode (core/sim/dynamic_run.h): energies, reactions, the drag spring's work.
  bool dynamic = false;
  double kinetic = 0, potential = 0;   // J
  double perturbationWork = 0;         // J, done by drag springs since the mode started
  std::vector<Vec3> reactionForce;     // (joints) N, on body2 (world axes)
  std::vector<Vec3> reactionTorque;    // (joints) N·m about the joint point on body2
  // Contact of the dynamic mode's last step (core/dynamics contact stage): the points with their
  // normals (from body A to body B) and normal impulses, and the solve's statistics.
  struct ContactMark {
    Vec3 point = Vec3::Zero(), normal = Vec3::UnitZ();
    double normalImpulse = 0;  // N·s
  };
  std::vector<ContactMark> contacts;
  bool hasContact = false;             // the model has contact (the statistics below mean something)
  int contactIterations = 0;           // sweeps of the mixed LCP solve
  double contactResidual = 0;          // its RES (paper 000), N·s
  double maxPenetration = 0;           // m
  // Deformable parts: each part's boundary surface in this frame's state.
  std::vector<std::shared_ptr<const MeshData>> deformables;
  // With stress on (FrameOptions): per part, the von Mises stress at each surface vertex (Pa).
  std::vector<std::shared_ptr<const std::vector<float>>> deformableStress;
  std::string deformSolvers;           // the parts' solvers ("newton", "jgs2-jacobi, newton", ...)
  int deformIterations = 0;            // their iterations in the last step taken
  int deformUnconverged = 0;           // parts whose last step stopped at the iteration cap
  bool deformDragging = false;         // a soft handle pulls a deformable part's vertex …
  Vec3 deformPoint = Vec3::Zero();     // … now here (world) …
  Vec3 deformTarget = Vec3::Zero();    // … towards the cursor's target
  StageTimes times;                    // the stages' last wall times

  double maxResidual() const { return maxAbs(phi); }
};

struct FrameOptions {
  bool stress = false;       // the deformable parts' per-vertex von Mises stress
  bool surfaces = true;      // the deformable parts' surfaces (off: a frame for export only)
};

/// The frame of d now.
Frame frame(const Model& m, const Data& d, const FrameOptions& opt = {});

/// World poses of all bodies at coordinates q (fixed bodies: pose0), via core's bodyPose.
std::vector<Pose> bodyPoses(const mechsim::Model& m, const VecX& q);

}  // namespace mechsim::sim
