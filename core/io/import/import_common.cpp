// core/io/import/import_common.cpp — rotations, poses, inertia checks and colours shared by the
// URDF, MJCF and SDF importers.
#include "core/io/import/import_common.h"

#include <Eigen/Eigenvalues>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <sstream>

#include "core/io/expressions.h"
#include "core/io/import/xml_file.h"

namespace mechsim::io::imp {

Quat quatFromRpy(double roll, double pitch, double yaw) {
  return Quat(Eigen::AngleAxisd(yaw, Vec3::UnitZ()) * Eigen::AngleAxisd(pitch, Vec3::UnitY()) *
              Eigen::AngleAxisd(roll, Vec3::UnitX()))
      .normalized();
}

Pose compose(const Pose& a, const Pose& b) {
  Pose p;
  p.position = a.position + a.orientation * b.position;
  p.orientation = (a.orientation * b.orientation).normalized();
  return p;
}

Eigen::Matrix<double, 6, 1> inertiaVector(const Mat3& I) {
  Eigen::Matrix<double, 6, 1> v;
  v << I(0, 0), I(1, 1), I(2, 2), 0.5 * (I(0, 1) + I(1, 0)), 0.5 * (I(0, 2) + I(2, 0)), 0.5 * (I(1, 2) + I(2, 1));
  return v;
}

std::string inertiaProblem(const Mat3& I) {
  if (!I.allFinite()) return "the inertia has non-finite entries";
  const Mat3 S = 0.5 * (I + I.transpose());
  const Eigen::SelfAdjointEigenSolver<Mat3> es(S, Eigen::EigenvaluesOnly);
  const Vec3 l = es.eigenvalues();  // ascending
  const std::string moments = fmt(l[0]) + ", " + fmt(l[1]) + ", " + fmt(l[2]);
  if (!(l[0] > kInertiaRelTol * std::fabs(l[2])) || !(l[2] > 0))
    return "the inertia matrix is not positive definite (principal moments " + moments + ")";
  if (l[2] > (l[0] + l[1]) * (1 + kInertiaRelTol))
    return "the principal moments " + moments + " violate the triangle inequality";
  return "";
}

void setInertial(BodySpec& b, double mass, const Vec3& com, const Mat3& inertia,
                 const std::function<void(const std::string&)>& warn) {
  if (!(mass > 0)) return;
  b.mass = mass;
  b.com = com;
  b.comGiven = true;
  const std::string why = inertiaProblem(inertia);
  if (why.empty()) {
    b.inertia = inertiaVector(inertia);
  } else if (warn) {
    warn("link \"" + b.name + "\": " + why + "; the inertia is derived from the shapes (or a sphere) of its mass instead");
  }
}

void nominalMassIfMissing(BodySpec& b) {
  if (b.fixed || b.mass || !b.shapes.empty()) return;
  b.mass = kNominalMass;
}

std::string colorHex(double r, double g, double b) {
  auto c = [](double x) { return int(std::lround(std::clamp(std::isfinite(x) ? x : 0.0, 0.0, 1.0) * 255)); };
  char buf[8];
  std::snprintf(buf, sizeof buf, "#%02x%02x%02x", c(r), c(g), c(b));
  return buf;
}

std::string formatWarning(const std::string& file, SourceLoc loc, const std::string& msg) {
  std::ostringstream s;
  s << (file.empty() ? "<input>" : file);
  if (loc.line > 0) s << ':' << loc.line << ':' << loc.col;
  s << ": warning: " << msg;
  return s.str();
}

void readDriver(const XmlFile& xml, const tinyxml2::XMLElement* e, MechanismSpec& spec) {
  const std::string path = "drivers[" + std::to_string(spec.drivers.size()) + "]";
  spec.locations[path] = xml.loc(e);
  DriverSpec d;
  d.name = xml.reqAttr(e, "name", "the driver's name");
  for (const DriverSpec& o : spec.drivers)
    if (o.name == d.name) xml.failAttr(e, "name", "duplicate driver name \"" + d.name + "\"");
  d.joint = xml.reqAttr(e, "joint", "the driven joint's name");
  spec.locations[path + ".joint"] = xml.attrLoc(e, "joint");
  const JointSpec* joint = nullptr;
  std::vector<std::string> names;
  for (const JointSpec& j : spec.joints) {
    names.push_back(j.name);
    if (j.name == d.joint) joint = &j;
  }
  if (!joint) xml.failAttr(e, "joint", "unknown joint \"" + d.joint + "\"" + didYouMean(d.joint, names));
  const int n = jointCoordinateCount(joint->type);
  if (n == 0) xml.failAttr(e, "joint", "joint \"" + d.joint + "\" is a fixed joint: it has no coordinate to drive");
  if (e->Attribute("coordinate")) {
    const double c = xml.number(e, "coordinate", 0.0);
    if (c != std::floor(c) || c < 0 || c >= n)
      xml.failAttr(e, "coordinate", "coordinate " + fmt(c) + " is out of range: joint \"" + d.joint + "\" has " +
                                        std::to_string(n) + " coordinate" + (n == 1 ? " (0)" : "s (0.." + std::to_string(n - 1) + ")"));
    d.coordinate = int(c);
  }
  for (const DriverSpec& o : spec.drivers)
    if (o.joint == d.joint && o.coordinate == d.coordinate)
      xml.failAttr(e, "joint", "coordinate " + std::to_string(d.coordinate) + " of joint \"" + d.joint +
                                   "\" is already driven by driver \"" + o.name + "\"");
  d.expression = xml.reqAttr(e, "value", "an expression of t, e.g. \"0.5 * sin(t)\"");
  spec.locations[path + ".value"] = xml.attrLoc(e, "value");
  try {
    compileExpression(d.expression);
  } catch (const ExpressionError& err) {
    xml.failAttr(e, "value", expressionErrorMessage(d.expression, err));
  }
  spec.drivers.push_back(std::move(d));
}

std::string addCoupling(MechanismSpec& spec, SourceLoc loc, const std::string& name, const std::string& follower,
                        const std::string& leader, const std::array<double, 5>& poly) {
  auto coupled = [&](const std::string& n, const char* role) -> std::string {
    for (const JointSpec& j : spec.joints)
      if (j.name == n) {
        if (jointCoordinateCount(j.type) == 0 || j.type == JointType::Distance)
          return std::string("its ") + role + " \"" + n + "\" is a " + toString(j.type) + " joint, with no coordinate to couple";
        return "";
      }
    return std::string("its ") + role + " \"" + n + "\" is not a joint of the mechanism";
  };
  if (std::string why = coupled(follower, "joint"); !why.empty()) return why;
  if (!leader.empty())
    if (std::string why = coupled(leader, "leader"); !why.empty()) return why;
  if (leader == follower) return "joint \"" + follower + "\" cannot follow itself";
  for (const CouplingSpec& o : spec.couplings) {
    if (o.joint == follower && o.coordinate == 0) return "joint \"" + follower + "\" is already coupled by \"" + o.name + "\"";
    if (o.name == name) return "a coupling named \"" + name + "\" exists already";
  }
  for (double c : poly)
    if (!std::isfinite(c)) return "its coefficients are not finite";
  const std::string path = "couplings[" + std::to_string(spec.couplings.size()) + "]";
  spec.locations[path] = loc;
  CouplingSpec c;
  c.name = name;
  c.joint = follower;
  c.leader = leader;
  c.polynomial = poly;
  c.polynomialForm = poly[2] != 0 || poly[3] != 0 || poly[4] != 0;
  spec.couplings.push_back(std::move(c));
  return "";
}

std::mutex& consoleBridgeMutex() {
  static std::mutex m;
  return m;
}

}  // namespace mechsim::io::imp
