#pragma once
// core/model.h — Model: the compiled mechanism, built once by compile(spec), never changed while
// the mechanism moves (everything that changes lives in Data, core/data.h).
//
// Coordinates (DESIGN.md): fully Cartesian. Each moving body i owns 7 entries of q starting at
// bodies[i].qIndex: its frame origin r (x, y, z) in the world and its unit orientation
// quaternion p (w, x, y, z). Fixed bodies own none; their pose is pose0. nq = 7 × moving bodies.
// Φ(q, t) stacks, in this order: the equations of every joint (joint order of the spec), one
// normalisation equation pᵀp − 1 per moving body, one equation per coupling, and one equation per
// driver (the drivers come last: "Φ without drivers" is its top rows).
#include <array>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "core/spec.h"
#include "core/types.h"

namespace mechsim {

/// A shape placed in its body frame, ready to draw or to collide.
struct Shape {
  ShapeType type = ShapeType::Box;
  Vec3 size = Vec3::Zero();   // box full edges
  double radius = 0;
  double length = 0;
  Pose local;                 // shape frame in the body frame; cylinder/capsule axis = local z
  double scale = 1.0;         // mesh
  Eigen::Vector3f color{0.7f, 0.7f, 0.75f};
  double friction = -1;       // μ of the surface; < 0: the contact section's friction
  std::shared_ptr<const MeshData> mesh;  // mesh
};

struct Body {
  std::string name;
  bool fixed = false;
  int qIndex = -1;            // first of the body's 7 coordinates in q; −1 when fixed
  Pose pose0;                 // pose at the file's configuration
  double mass = 0;            // kg
  Vec3 com = Vec3::Zero();    // centre of mass, body frame
  Mat3 inertia = Mat3::Zero();  // about the com, body axes (kg·m²)
  std::vector<Shape> shapes;  // collision + default visuals
  std::vector<Shape> visuals; // visual-only (drawn instead of shapes when present)
};

/// A joint between body1 and body2, with its frames fixed in each body.
/// frame1/frame2 are orthonormal (columns x, y, z) and coincide in the world at the file's
/// configuration; z is the joint axis (revolute, prismatic, cylindrical), the plane normal
/// (planar), or axis1 (universal; axis2 is frame2's y in body2). point1/point2 are the joint
/// point in each body frame (for distance: the two attachment points).
struct Joint {
  std::string name;
  JointType type = JointType::Revolute;
  int body1 = -1, body2 = -1;
  Vec3 point1 = Vec3::Zero(), point2 = Vec3::Zero();
  Mat3 frame1 = Mat3::Identity(), frame2 = Mat3::Identity();
  double length = 0;          // distance joint nominal length
  int firstCoord = 0;         // index of its first joint coordinate in Data::coords
  int nCoords = 0;            // jointCoordinateCount(type)
  int firstEquation = 0;      // first row of its equations in Φ
  int nEquations = 0;
  std::optional<std::pair<double, double>> limits;  // SI
};

struct Driver {
  std::string name;
  int joint = -1;
  int coordinate = 0;                 // which coordinate of the joint
  std::string expression;             // as written (file units)
  std::function<double(double)> value;  // t [s] → coordinate value, SI (built by core/io)
  int equation = -1;                  // its row in Φ
};

/// Coordinate `coordinate` of joint `joint` (b) held at f(a) = Σ c_k a^k of coordinate
/// `leaderCoordinate` of joint `leader` (a; −1: none, b = c0), SI (core/kinematics/coupling.cpp).
struct Coupling {
  std::string name;
  int joint = -1, coordinate = 0;
  int leader = -1, leaderCoordinate = 0;
  std::array<double, 5> c = {0, 1, 0, 0, 0};
  int equation = -1;                  // its row in Φ
};

struct Handle {
  std::string name;
  int body = -1;
  Vec3 local = Vec3::Zero();  // point in the body frame
};

// ---- Dynamics (compiled from DynamicsSpec; used by core/dynamics/) ----

/// Point-to-point spring-damper: F = k (L − L0) + c L̇ along the line between the two points.
struct Spring {
  std::string name;
  int body1 = -1, body2 = -1;
  Vec3 local1 = Vec3::Zero(), local2 = Vec3::Zero();  // attachment points in the body frames
  double stiffness = 0, damping = 0, restLength = 0;  // N/m, N·s/m, m
};

/// Joint-coordinate spring-damper: effort −k (θ − θ0) − c θ̇.
struct JointSpring {
  std::string name;
  int joint = -1, coordinate = 0;
  double stiffness = 0, damping = 0, rest = 0;        // SI
};

/// Joint actuator: an effort function of t, or a PD servo towards driver `driver`'s value.
struct Motor {
  std::string name;
  int joint = -1, coordinate = 0;
  std::string expression;                      // effort expression (SI), empty for a servo
  std::function<double(double)> effort;        // t → effort [N·m or N] (built by core/io)
  int driver = -1;                             // servo: index into Model::drivers, else −1
  double kp = 0, kd = 0;
  double maxEffort = 0;                        // servo saturation; 0 = none
};

/// Initial rate of a joint coordinate for forward dynamics (SI).
struct InitialRate {
  int joint = -1, coordinate = 0;
  double value = 0;
};

enum class ConstraintWeights { Mass, Identity };

/// Settings of the dynamic time stepper (core/dynamics/dynamics.h documents each).
struct DynamicsOptions {
  double timestep = 1e-3;                          // s (the CLI's --dt overrides it)
  ConstraintWeights weights = ConstraintWeights::Mass;
  double reduction = 0.1;                          // f: Riley's s = f/(1−f) μ (paper 002 §6)
  double tolerance = 1e-9;                         // relative D-norm change that ends the iteration
  int maxIterations = 40;                          // Riley iterations per impulse solve
};

/// Contact settings (compiled from ContactSpec by compileContact, core/collision/compile_contact.cpp;
/// used by the stepper, core/dynamics/dynamics.h). Contact is on when the file has a "contact"
/// section (and "enabled" is not false) and some shape may touch another.
struct ContactOptions {
  bool enabled = false;
  bool pgs = false;                     // solver: false = AMGS Method 3.2 (paper 000), true = PGS
  double friction = 0.5;                // μ (pyramidal, bounds ±μ λ_n)
  double torsionalFriction = 0.0;       // m: spin about the normal, |impulse couple| ≤ μ_t λ_n (0: none)
  double rollingFriction = 0.0;         // m: rolling about the two tangents, each ≤ μ_r λ_n (0: none)
  double restitution = 0.0;             // e, applied when the approach speed exceeds restitutionVelocity
  double restitutionVelocity = 0.05;    // m/s
  double alpha = 0.3;                   // Ω = α D of AMGS
  int iterations = 60;                  // sweeps per solve
  double tolerance = 1e-7;              // RES (N·s) that ends the sweeps
  double erp = 0.2;                     // β: fraction of the penetration beyond slop removed per step
  double slop = 5e-4;                   // m: penetration left uncorrected
  double margin = 5e-3;                 // m: contacts kept (speculatively) within this gap
  std::vector<std::pair<int, int>> excluded;  // body pairs (sorted, first < second) that never collide
};

struct Model {
  std::string name;
  std::string sourceFile;
  Vec3 gravity = Vec3(0, 0, -9.81);
  std::vector<Body> bodies;
  std::vector<Joint> joints;
  std::vector<Driver> drivers;
  std::vector<Coupling> couplings;
  std::vector<Handle> handles;
  // Dynamics (empty / defaults for a purely kinematic file).
  std::vector<Spring> springs;
  std::vector<JointSpring> jointSprings;
  std::vector<Motor> motors;
  std::vector<InitialRate> initialRates;
  DynamicsOptions dynamics;
  ContactOptions contact;

  int nq = 0;                 // 7 × moving bodies
  int nMoving = 0;            // moving bodies
  int nCoords = 0;            // joint coordinates (sum of Joint::nCoords)
  int nJointEquations = 0;    // rows of Φ from joints
  int nEquations = 0;         // rows of Φ: joints + normalisations + couplings + drivers
  std::vector<std::string> coordNames;     // (nCoords) "A", "C.0", "C.1", ... (CSV columns)
  std::vector<std::string> equationNames;  // (nEquations) "joint:equation", "body:norm", "coupling:couple", "driver:drive"
  VecX q0;                    // (nq) the file's configuration

  // Sparsity of Φ_q, fixed per model (built by compile()): the pattern (values zero) and, for each
  // row i, 14 slots jacobianSlots[14 i + 7 s + k] = index into Φ_q's value array of the entry for
  // coordinate k (r x y z, p w x y z) of the row's body s (s = 0: body1 / the normalised body,
  // s = 1: body2), or −1 where the entry is structurally zero.
  SpMat jacobianPattern;                   // (nEquations × nq)
  std::vector<int> jacobianSlots;          // (14 · nEquations)
  // A coupling row touches up to four bodies: its leader's two bodies come as a second jet of the
  // same row (RowInfo::part = 1, assembly.h), whose slots are couplingSlots[14 c + 7 s + k]
  // (c: index into couplings); couplingSlotAdds says which of them are also in the first part
  // (the value is then added, not stored).
  std::vector<int> couplingSlots;          // (14 · couplings)
  std::vector<char> couplingSlotAdds;      // (14 · couplings)
  double lengthScale = 1.0;   // characteristic length [m] (joint lever arms), for perturbations

  int findBody(const std::string& name) const;
  int findJoint(const std::string& name) const;
};

/// World pose of body b at coordinates q (fixed bodies: pose0). q is not assumed normalised;
/// the quaternion is normalised for the returned pose.
Pose bodyPose(const Model& m, const VecX& q, int b);

}  // namespace mechsim
