#pragma once
// core/io/import/import_common.h — pieces the three importers share: rotations from the formats'
// angle conventions, rigid-pose composition, inertia checks (the same rules as the native reader,
// so that an imported mechanism written in the native format reads back), colours, and the
// nominal mass of massless frames.
#include <array>
#include <functional>
#include <mutex>
#include <string>

#include "core/spec.h"
#include "core/types.h"

namespace mechsim::io::imp {

class XmlFile;
}
namespace tinyxml2 {
class XMLElement;
}
namespace mechsim::io::imp {

/// Mass given to a moving body that the file leaves massless (a URDF link without <inertial>, an
/// intermediate frame between two MJCF joints of one body): 1 g, so that the body compiles. Such
/// frames (tool flanges, sensor mounts) matter for kinematics only. Documented in docs/import.md.
constexpr double kNominalMass = 1e-3;

/// Relative slack of the inertia checks (the native reader's value).
constexpr double kInertiaRelTol = 1e-9;

/// URDF / SDF roll-pitch-yaw: fixed axes X, then Y, then Z: R = Rz(yaw) · Ry(pitch) · Rx(roll).
Quat quatFromRpy(double roll, double pitch, double yaw);

/// a ∘ b: the pose b given in frame a, in a's parent frame.
Pose compose(const Pose& a, const Pose& b);

/// Ixx Iyy Izz Ixy Ixz Iyz (tensor entries) of a symmetric matrix.
Eigen::Matrix<double, 6, 1> inertiaVector(const Mat3& I);

/// Empty when I is a valid inertia (positive definite, principal moments meet the triangle
/// inequality), else the reason in words.
std::string inertiaProblem(const Mat3& I);

/// Sets the body's mass, centre of mass (body frame) and inertia about it (body axes). A mass
/// ≤ 0 leaves the body massless (handled by nominalMassIfMissing). An invalid inertia is reported
/// through `warn` and left out (the compiler then derives it from the shapes, scaled to the mass).
void setInertial(BodySpec& b, double mass, const Vec3& com, const Mat3& inertia,
                 const std::function<void(const std::string&)>& warn);

/// A moving body without mass and without collision shapes gets kNominalMass.
void nominalMassIfMissing(BodySpec& b);

/// "#rrggbb" from components in [0, 1] (clamped).
std::string colorHex(double r, double g, double b);

/// "FILE:LINE:COL: warning: MSG" (no position when loc.line is 0).
std::string formatWarning(const std::string& file, SourceLoc loc, const std::string& msg);

/// The mechsim extension element <mechsim:driver name="..." joint="..." value="EXPR"
/// [coordinate="k"]/> (docs/import.md): a driver of joint coordinate k, the expression of t in the
/// format's units (radians and metres; MJCF: its <compiler angle>). Call after all joints are in
/// `spec`. Throws LoadError pointing at the attribute at fault.
void readDriver(const XmlFile& xml, const tinyxml2::XMLElement* e, MechanismSpec& spec);

/// Appends the coupling "coordinate 0 of `follower` = Σ poly_k (coordinate 0 of `leader`)^k" (SI;
/// `leader` empty: none) that element e of an imported file describes (URDF / SDFormat <mimic>,
/// SDFormat gearbox, MJCF <equality><joint>), named `name`, located at `loc`. Call after all joints
/// are in `spec`. Returns an empty string, or why it was left out (the caller warns): a joint
/// that is not in the mechanism, that has no coordinate to couple, or whose coordinate is
/// already coupled.
std::string addCoupling(MechanismSpec& spec, SourceLoc loc, const std::string& name, const std::string& follower,
                        const std::string& leader, const std::array<double, 5>& poly);

/// console_bridge's output handler is process-wide: held while urdfdom runs, directly (URDF) or
/// inside libsdformat (SDFormat falls back to URDF parsing on some errors).
std::mutex& consoleBridgeMutex();

}  // namespace mechsim::io::imp
