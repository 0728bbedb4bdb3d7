#pragma once
// core/spec.h — MechanismSpec: the plain, editable description of a mechanism.
//
// Files (native JSON, URDF, MJCF) become a MechanismSpec in core/io; compile(spec) turns it into
// a Model (core/compile.h). Every number here is SI (metres, radians, kilograms, seconds) and
// every pose is in WORLD coordinates at the file's configuration, whatever units the file used:
// the reader converts, and the writer converts back using `units`. Driver expressions are the
// exception: they are kept as text in the file's units and scaled when evaluated.
#include <array>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/types.h"

namespace mechsim {

/// Where a value came from in its file (1-based line and column; 0 when not from a file).
struct SourceLoc {
  int line = 0;
  int col = 0;
};

/// Units the file was written in. Values in the spec are SI; these are kept for writing back.
struct UnitsSpec {
  std::string length = "m";   // "m", "cm" or "mm"
  std::string angle = "rad";  // "rad" or "deg"
  double lengthScale() const { return length == "mm" ? 1e-3 : length == "cm" ? 1e-2 : 1.0; }
  double angleScale() const { return angle == "deg" ? 3.14159265358979323846 / 180.0 : 1.0; }
};

/// A triangle mesh in its own file frame (unscaled), loaded by core/io (Assimp).
struct MeshData {
  std::vector<Eigen::Vector3f> vertices;
  std::vector<Eigen::Vector3f> normals;  // per vertex; may be empty
  std::vector<unsigned> indices;         // 3 per triangle
  /// The file's own colours (its materials' diffuse or base colour, as given: RGB in [0, 1]), by
  /// run of triangles: indices [first, first + count) are drawn in `rgb`. Ascending, apart,
  /// multiples of 3; triangles in no run have no colour of their own. Empty: the file gave none.
  struct ColorRun {
    unsigned first = 0, count = 0;
    Eigen::Vector3f rgb = Eigen::Vector3f::Ones();
  };
  std::vector<ColorRun> colors;
};

enum class ShapeType { Box, Cylinder, Sphere, Capsule, Mesh, Plane };  // Plane: fixed bodies only, half-space below z

struct ShapeSpec {
  ShapeType type = ShapeType::Box;
  Vec3 size = Vec3::Zero();        // box: full edge lengths
  double radius = 0;               // cylinder, sphere, capsule
  double length = 0;               // cylinder, capsule (cylindrical part, without the caps)
  Vec3 axis = Vec3::UnitZ();       // cylinder, capsule: unit axis in the body frame; plane: its outward normal
  Vec3 position = Vec3::Zero();    // shape origin in the body frame
  Quat orientation = Quat::Identity();  // shape orientation in the body frame (optional key)
  std::string file;                // mesh: path as written in the file
  std::string resolvedFile;        // mesh: absolute path the loader used
  double scale = 1.0;              // mesh: uniform scale applied to the mesh file's coordinates
  Vec3 mirror = Vec3::Ones();      // mesh: ±1 per file axis, the reflection of a negative scale (in `mesh`)
  std::string color;               // "#rrggbb" or empty (default colour)
  std::optional<double> friction;  // Coulomb μ of this shape's surface (contact; else contact.friction)
  std::shared_ptr<const MeshData> mesh;  // mesh: the loaded triangles, mirrored (core/mesh_mirror.h), not scaled
};

struct BodySpec {
  std::string name;
  bool fixed = false;
  Vec3 position = Vec3::Zero();          // body frame origin in the world
  Quat orientation = Quat::Identity();   // body frame orientation in the world
  std::optional<double> mass;            // kg
  std::optional<double> density;         // kg/m³, used with shapes when mass is omitted
  Vec3 com = Vec3::Zero();               // centre of mass in the body frame
  bool comGiven = false;                 // false: derived from the shapes when they give mass
  std::optional<Eigen::Matrix<double, 6, 1>> inertia;  // Ixx Iyy Izz Ixy Ixz Iyz about the com
  std::vector<ShapeSpec> shapes;         // collision + default visual geometry
  std::vector<ShapeSpec> visuals;        // optional visual-only geometry
  std::string color;                     // optional default colour of the body
};

enum class JointType { Revolute, Prismatic, Cylindrical, Spherical, Universal, Planar, Fixed, Distance };

struct JointSpec {
  std::string name;
  JointType type = JointType::Revolute;
  std::string body1, body2;
  Vec3 point = Vec3::Zero();     // world point (all but distance)
  Vec3 axis = Vec3::UnitZ();     // revolute, prismatic, cylindrical (unit)
  Vec3 axis1 = Vec3::UnitX();    // universal: axis fixed in body1 (unit)
  Vec3 axis2 = Vec3::UnitY();    // universal: axis fixed in body2 (unit)
  Vec3 normal = Vec3::UnitZ();   // planar (unit)
  Vec3 point1 = Vec3::Zero();    // distance: world point on body1
  Vec3 point2 = Vec3::Zero();    // distance: world point on body2
  std::optional<double> length;  // distance: default |point2 − point1|
  std::optional<std::pair<double, double>> limits;  // optional [lower, upper] of the coordinate (SI)
};

struct DriverSpec {
  std::string name;
  std::string joint;
  std::string expression;  // expression of t in the file's angle / length units
  int coordinate = 0;      // which coordinate of a multi-DOF joint (key "coordinate", default 0)
};

/// A coupling (the "couplings" section; core/kinematics/coupling.cpp): coordinate `coordinate` of
/// joint `joint` (the follower b) held at a polynomial of coordinate `leaderCoordinate` of joint
/// `leader` (a): b = c0 + c1 a + c2 a² + c3 a³ + c4 a⁴ (`ratio`/`offset` in the file: c1, c0). The
/// coefficients are SI (rad or m of b per rad^k or m^k of a); the reader converts the file's units.
/// No leader: b = c0 (the coordinate is locked).
struct CouplingSpec {
  std::string name;
  std::string joint;
  int coordinate = 0;
  std::string leader;                // empty: none
  int leaderCoordinate = 0;
  std::array<double, 5> polynomial = {0, 1, 0, 0, 0};
  bool polynomialForm = false;       // the file gave "polynomial" (else "ratio"/"offset"); for writing back
};

struct HandleSpec {
  std::string name;
  std::string body;
  Vec3 point = Vec3::Zero();  // world point at the file's configuration
};

// ---- Dynamics (docs/format.md "Dynamics"; used by forward dynamics, core/dynamics/) ----

/// A point-to-point spring-damper between a point of body1 and a point of body2:
/// F = k (L − L0) + c L̇ along the line joining the points (pulling them together when positive).
struct SpringSpec {
  std::string name;
  std::string body1, body2;
  Vec3 point1 = Vec3::Zero();      // world point on body1 (file configuration), m
  Vec3 point2 = Vec3::Zero();      // world point on body2 (file configuration), m
  double stiffness = 0;            // k, N/m
  double damping = 0;              // c, N·s/m
  std::optional<double> length;    // L0, m; default: the distance in the file
};

/// A spring-damper on one joint coordinate: effort = −k (θ − θ0) − c θ̇ (torque or force).
struct JointSpringSpec {
  std::string name;
  std::string joint;
  int coordinate = 0;
  double stiffness = 0;            // N·m/rad or N/m
  double damping = 0;              // N·m·s/rad or N·s/m
  double rest = 0;                 // θ0, SI (rad or m), relative to the file configuration
};

/// An actuator on one joint coordinate: either an effort given as an expression of t (N·m or N,
/// SI whatever the file's units) or a PD servo towards a driver's value:
/// effort = kp (value(t) − θ) + kd (value'(t) − θ̇), clamped to ±maxEffort. A driver a servo
/// follows is not imposed as a constraint in dynamics.
struct MotorSpec {
  std::string name;
  std::string joint;
  int coordinate = 0;
  std::string effort;              // expression of t (SI effort); empty for a servo
  std::string servo;               // name of the driver followed; empty for an effort motor
  double kp = 0, kd = 0;           // servo gains, SI (N·m/rad, N·m·s/rad or N/m, N·s/m)
  std::optional<double> maxEffort; // servo saturation (SI)
};

/// An initial rate of a joint coordinate (SI: rad/s or m/s) for forward dynamics.
struct InitialRateSpec {
  std::string joint;
  int coordinate = 0;
  double value = 0;
};

/// Time-stepper and constraint-solver settings (core/dynamics/dynamics.h).
struct DynamicsSolverSpec {
  std::optional<double> timestep;      // s
  std::optional<std::string> weights;  // "mass" (default) or "identity"
  std::optional<double> reduction;     // target error reduction f per Riley iteration, 0 < f < 1
  std::optional<double> tolerance;     // relative tolerance of the Riley iteration
  std::optional<int> maxIterations;    // Riley iterations per solve
};

struct DynamicsSpec {
  std::vector<SpringSpec> springs;
  std::vector<JointSpringSpec> jointSprings;
  std::vector<MotorSpec> motors;
  std::vector<InitialRateSpec> initialRates;
  DynamicsSolverSpec solver;
  bool present = false;  // the file has a "dynamics" section (the writer writes it back)
};

/// A deformable part ("deformables" in the native format; docs/format.md). The reader fills the
/// tetrahedral mesh in world coordinates at the file's configuration (generated grid or mesh
/// file), so core/deform builds its model from plain arrays; core/ reads no files.
/// A world box {min, max} (SI) that selected vertices, kept as the file gave it so that writing the
/// file back keeps the author's selection rather than its vertex list.
using VertexBox = std::array<Vec3, 2>;
struct DeformableAttachmentSpec {
  std::string body;          // a body of the mechanism (not "ground"-only: any body; fixed ones pin)
  std::vector<int> vertices; // mesh vertices that move with the body
  std::optional<VertexBox> box;  // the selection was this box (else the index list)
};
struct DeformableSpec {
  std::string name;
  std::string meshType;                  // "box", "cylinder", "tetgen", "gmsh", "surface"
  std::string file, resolvedFile;        // tetgen (.node, .ele beside it) / gmsh (.msh) / surface
  // The mesh as the file describes it (SI), to write it back: box size and cells [nx, ny, nz];
  // cylinder radius, length and cells [across, along]; a file's scale; a surface's largest tet
  // edge (0: Gmsh's default); the translation "position".
  Vec3 boxSize = Vec3::Zero();
  std::vector<int> cells;
  double radius = 0, length = 0;
  double fileScale = 1;
  double surfaceSize = 0;
  Vec3 position = Vec3::Zero();
  std::vector<Vec3> vertices;            // world rest positions (SI)
  std::vector<std::array<int, 4>> tets;  // vertex indices
  std::string material = "stable-neo-hookean";  // or "arap"
  double youngs = 1e6;                   // Pa
  double poisson = 0.4;
  double density = 1000;                 // kg/m³
  std::vector<int> pinned;               // vertices held at their rest positions
  std::optional<VertexBox> pinnedBox;    // the pinned selection was this box
  std::vector<DeformableAttachmentSpec> attachments;
  // Solver of the part's implicit-Euler steps (core/deform/solver.h names): "newton", "vbd",
  // "jacobi", "jgs2-jacobi", "jgs2-gs"; and the per-vertex methods' global step control "none",
  // "line-search", "subspace". Empty: not given (newton; subspace).
  std::string solver, stepControl;
  // Iteration cap per step and the ‖Δx‖ tolerance (unit-extent normalised) of the step's solve;
  // 0: not given (the program's default: docs/format.md).
  int maxIterations = 0;
  double tolerance = 0;
  // JGS2 parts: rest modes in the modal split's coarse space; 0: not given (deform::kDefaultModalModes).
  int modes = 0;
};

/// The "contact" section (docs/format.md "Contact"; core/collision, core/contact, the stepper).
/// Unset values take the defaults of ContactOptions (core/model.h).
struct ContactSpec {
  bool present = false;                 // the file has a "contact" section
  std::optional<bool> enabled;
  std::optional<std::string> solver;    // "amgs-3.2" (default) or "pgs"
  std::optional<double> friction, restitution, restitutionVelocity, alpha, tolerance;
  std::optional<int> iterations;
  std::optional<double> erp, slop, margin;          // penetration correction β, slop (m), detection margin (m)
  std::optional<double> torsionalFriction, rollingFriction;  // m (lengths: couple per unit normal impulse)
  std::optional<bool> jointedCollide;   // bodies joined by a joint collide (default false)
  std::vector<std::pair<std::string, std::string>> exclude;  // body pairs that never collide
};

/// A named number of the "parameters" section (docs/format.md, "Parameters"), usable as "=EXPR" in
/// any number field and by name in driver and effort expressions. `value` is in the file's units
/// of its kind (length: units.length; angle: units.angle; mass: kg; none: as is).
struct ParameterSpec {
  std::string name;
  std::string unit = "none";   // "length", "angle", "mass" or "none"
  double value = 0;            // the file's units (resolved when `expression` is given)
  std::string expression;      // the value as an expression of other parameters (without "="), or empty
};

/// A robot description a native file includes (its "import" section, core/io/load_import.h): the
/// imported bodies and joints come first in MechanismSpec::bodies / joints, its drivers and
/// couplings after the native file's own. Written back as the section, not inlined.
struct ImportSpec {
  std::string file;          // as written in the native file (relative to its folder, or absolute)
  std::string resolvedFile;  // the path read (absolute)
  std::string shownFile;     // the name diagnostics give it (as the native file's name leads to it)
  bool floatingBase = false; // URDF: the root link is free (ImportOptions::floatingBase)
  /// Names of what the import brought, left out when the native file is written back.
  std::vector<std::string> bodies, joints, drivers, couplings;
  /// While the native file is read: the locations of the imported drivers and couplings, which
  /// finishImport (core/io/load_import.h) files under their final paths. Empty after.
  std::map<std::string, SourceLoc> heldLocations;
};

struct MechanismSpec {
  int version = 1;
  std::string name;
  UnitsSpec units;
  Vec3 gravity = Vec3(0, 0, -9.81);  // m/s²
  std::vector<BodySpec> bodies;
  std::vector<JointSpec> joints;
  std::vector<DriverSpec> drivers;
  std::vector<HandleSpec> handles;
  std::vector<CouplingSpec> couplings;      // the "couplings" section, in file order
  std::vector<ParameterSpec> parameters;    // the "parameters" section, in file order
  /// Number fields the file wrote as "=EXPR": path ("joints[1].point[0]") → EXPR. The writer writes
  /// EXPR back where the value still equals it (core/io/parameters.h).
  std::map<std::string, std::string> parameterFields;
  std::vector<DeformableSpec> deformables;  // deformable parts (load_deformable.cpp)
  DynamicsSpec dynamics;   // springs, motors, initial rates, solver settings (optional section)
  ContactSpec contact;     // contact settings (optional section, load_contact.cpp)

  std::string sourceFile;  // the file it was read from (empty when built in code)
  /// Source location of each value, keyed by its path ("joints[3].axis", "bodies[0]").
  std::map<std::string, SourceLoc> locations;
  /// What the reader worked around, as "FILE:LINE:COL: warning: ..." (an imported file's missing
  /// mesh drawn as a placeholder, an approximated joint, ...). Not written back.
  std::vector<std::string> warnings;

  /// The robot description the native file imports, if it has an "import" section.
  std::optional<ImportSpec> imported;
  /// The file of each recorded path whose location is in another file than sourceFile (the
  /// imported robot's "bodies[2]", ...).
  std::map<std::string, std::string> locationFiles;

  /// Location of `path`, or of its nearest recorded ancestor ("joints[3].axis[1]" → "joints[3].axis").
  SourceLoc locate(const std::string& path) const;
  /// The file that location is in: locationFiles' entry for that ancestor, else sourceFile.
  std::string fileOf(const std::string& path) const;
};

const char* toString(JointType t);
const char* toString(ShapeType t);
std::optional<JointType> jointTypeFromString(const std::string& s);
std::optional<ShapeType> shapeTypeFromString(const std::string& s);

/// Number of coordinates (degrees of freedom) a joint lets body2 have relative to body1:
/// revolute 1, prismatic 1, cylindrical 2, spherical 3, universal 2, planar 3, fixed 0, distance 1
/// (the distance joint's coordinate is its extension, length − nominal length; it is only free
/// when a driver prescribes it).
int jointCoordinateCount(JointType t);

/// Number of scalar constraints the joint removes in the Grübler count (6 − freedoms, distance 1).
int jointConstraintCount(JointType t);

}  // namespace mechsim
