#pragma once
// core/spec_edit.h — building and taking apart a MechanismSpec item by item: what a GUI that
// starts from nothing needs (File → New, add a body, join two bodies, drive the joint, remove a
// body and what hangs on it, rename anything). Single values of existing items are edited by path
// (core/spec_path.h), which renames through renameItem below.
//
// Every function either succeeds or throws std::invalid_argument and leaves the spec as it was.
// The result compiles exactly like a spec read from a file (io::compileSpec, compile): the items
// are filled as the native reader fills them (core/io/load.cpp), and what only the compiler
// checks (a mechanism without a fixed body, a joint type changed afterwards) it still reports.
#include <memory>
#include <string>
#include <vector>

#include "core/spec.h"

namespace mechsim {

/// The named kinds of item a spec holds: at its top level, and the dynamics section's springs,
/// joint springs and motors.
enum class SpecKind { Body, Joint, Driver, Handle, Deformable, Spring, JointSpring, Motor };

/// The spec has an item of `kind` named `name`.
bool hasItem(const MechanismSpec& spec, SpecKind kind, const std::string& name);

/// "body", "joint", "driver", "handle", "deformable part", "spring", "joint spring", "motor".
const char* toString(SpecKind kind);

/// `base` followed by the smallest number ≥ 1 that no item of `kind` has yet ("body1", "body2",
/// …). An empty base is the kind's own word ("body", "joint", "driver", "handle", "part").
std::string uniqueName(const MechanismSpec& spec, SpecKind kind, const std::string& base = "");

/// What File → New starts from: format version 1, name "untitled", units m and deg (driver
/// expressions in degrees, as the examples write them), gravity (0, 0, −9.81) m/s² and one fixed
/// body "ground" without shapes.
MechanismSpec newMechanismSpec();

/// Adds a moving body named uniqueName(spec, Body) at `position` (world, m), density 1000 kg/m³
/// (its mass from the shape), with one shape of type `primitive` at the body origin, sized from
/// the characteristic length `size` (m): a box size × size/4 × size/4 (long along x), a cylinder or
/// capsule of radius size/8 and length size along x, a sphere of radius size/2. A Plane makes a
/// fixed body instead (the floor of contact: the half-space below z = position.z; the compiler
/// takes planes on fixed bodies only). Mesh: use addMeshBody. Returns the body's name.
std::string addBody(MechanismSpec& spec, ShapeType primitive, const Vec3& position, double size);

/// Adds a moving body with one mesh shape, as the reader leaves one: `file` as the file names it,
/// `resolvedFile` the absolute path it was loaded from, `mesh` its triangles (scale 1: the mesh's
/// coordinates are metres), density 1000 kg/m³. Returns the body's name.
std::string addMeshBody(MechanismSpec& spec, const std::string& file, const std::string& resolvedFile,
                        std::shared_ptr<const MeshData> mesh, const Vec3& position);

/// Adds a joint named uniqueName(spec, Joint) of `type` between two different existing bodies, not
/// both fixed, at the world point `point` (m). `axis` (normalised here; refused when zero, except
/// by spherical and fixed joints, which have none) becomes every direction the type may use, so
/// that a type changed afterwards (joints.NAME.type) starts from the same geometry: axis, the
/// planar normal and the universal axis1, with axis2 the world axis least aligned with it made
/// perpendicular. A distance joint joins `point` on body1 to body2's origin (they must differ).
/// Returns the joint's name.
std::string addJoint(MechanismSpec& spec, JointType type, const std::string& body1, const std::string& body2,
                     const Vec3& point, const Vec3& axis);

/// Adds a driver named uniqueName(spec, Driver) of `coordinate` of `joint`: `expression` of t in
/// the spec's units (spec.units; checked when compiled by io::compileSpec, which parses it).
/// Refuses an unknown joint, a joint without that coordinate (a fixed joint has none; a distance
/// joint's one coordinate is its extension) and a coordinate already driven. Returns the name.
std::string addDriver(MechanismSpec& spec, const std::string& joint, const std::string& expression,
                      int coordinate = 0);

/// Adds a handle named uniqueName(spec, Handle) on an existing body at the world point `point` (m).
std::string addHandle(MechanismSpec& spec, const std::string& body, const Vec3& point);

/// Renames the item `name` of `kind` to `newName` and every reference to it: a body's in joints,
/// handles, springs, deformable attachments and contact exclusions; a joint's in drivers, joint
/// springs, motors and initial rates; a driver's in servo motors. Refuses an empty name and one
/// another item of the kind has ("a body named 'x' already exists"); the same name is no change.
void renameItem(MechanismSpec& spec, SpecKind kind, const std::string& name, const std::string& newName);

/// Throws std::invalid_argument unless `coordinate` of `joint` can be driven: the joint exists
/// and has that coordinate. (Whether another driver drives it is the caller's question.)
void checkDriverTarget(const MechanismSpec& spec, const std::string& joint, int coordinate);

/// One item removeItem took out: what it is ("body", "joint", "driver", "handle", "deformable
/// part", "spring", "joint spring", "motor", "initial rate", "attachment", "contact exclusion")
/// and its name (an initial rate: its joint's; an attachment: its part's; an exclusion: "a/b").
struct RemovedItem {
  std::string kind;
  std::string name;
};

/// Removes the item `name` of `kind` and everything that cannot stand without it: a body's joints,
/// handles, springs, deformable attachments (the parts stay) and contact exclusions; a joint's
/// drivers, joint springs, motors and initial rates; a driver's servo motors (so removing a body
/// also removes the drivers and motors of its joints). Any body may go, the last fixed one too (a
/// mechanism may float; the native reader refuses a file without bodies, so a GUI keeps one before
/// saving). Source locations and "=EXPR" fields (MechanismSpec::locations,
/// parameterFields, keyed by list index) follow the items that stay. Returns what was removed,
/// the named item first.
std::vector<RemovedItem> removeItem(MechanismSpec& spec, SpecKind kind, const std::string& name);

/// The list as a GUI says it: "body 'b2', joints 'B', 'C', driver 'crank'".
std::string describeRemoved(const std::vector<RemovedItem>& removed);

}  // namespace mechsim
