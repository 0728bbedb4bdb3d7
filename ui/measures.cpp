// ui/measures.cpp — traced points, distances and angles on the recorded frames (ui/measures.h).
#include "ui/measures.h"

#include <cmath>
#include <cstdio>
#include <stdexcept>

#include "core/io/write.h"
#include "ui/history.h"
#include "ui/simulation_controller.h"

namespace mechsim::ui {
namespace {

/// The body's 7 coordinates (r, p) and their rates in q, q̇, q̈; false for a fixed body.
bool bodyState(const Model& m, const sim::Frame& f, int b, Vec3& r, Quat& p, Vec3& rd, Quat& pd, Vec3& rdd, Quat& pdd) {
  const int i = m.bodies[b].qIndex;
  if (i < 0 || f.q.size() < i + 7) return false;
  auto quat = [](const VecX& v, int k) { return Quat(v(k), v(k + 1), v(k + 2), v(k + 3)); };
  r = f.q.segment<3>(i);
  p = quat(f.q, i + 3);
  const bool rates = f.qd.size() == f.q.size(), acc = f.qdd.size() == f.q.size();
  rd = rates ? Vec3(f.qd.segment<3>(i)) : Vec3::Zero();
  pd = rates ? quat(f.qd, i + 3) : Quat(0, 0, 0, 0);
  rdd = acc ? Vec3(f.qdd.segment<3>(i)) : Vec3::Zero();
  pdd = acc ? quat(f.qdd, i + 3) : Quat(0, 0, 0, 0);
  return true;
}

/// 2 vec(a ⊗ p*): ω from ṗ, α from p̈ (ui/measures.h).
Vec3 twiceVec(const Quat& a, const Quat& p) { return 2.0 * (a * p.conjugate()).vec(); }

}  // namespace

int pointsNeeded(Measure::Kind kind) { return kind == Measure::Trace ? 1 : kind == Measure::Distance ? 2 : 3; }

Vec3 pointPosition(const Model& m, const sim::Frame& f, const BodyPoint& p) {
  if (p.body < 0 || p.body >= static_cast<int>(m.bodies.size())) return Vec3::Zero();
  if (p.body < static_cast<int>(f.poses.size())) return f.poses[p.body].apply(p.local);
  return bodyPose(m, f.q, p.body).apply(p.local);
}

Vec3 pointVelocity(const Model& m, const sim::Frame& f, const BodyPoint& p) {
  Vec3 r, rd, rdd;
  Quat q, qd, qdd;
  if (p.body < 0 || !bodyState(m, f, p.body, r, q, rd, qd, rdd, qdd)) return Vec3::Zero();
  const Vec3 arm = q.normalized() * p.local;
  return rd + twiceVec(qd, q).cross(arm);
}

Vec3 pointAcceleration(const Model& m, const sim::Frame& f, const BodyPoint& p) {
  Vec3 r, rd, rdd;
  Quat q, qd, qdd;
  if (p.body < 0 || !bodyState(m, f, p.body, r, q, rd, qd, rdd, qdd)) return Vec3::Zero();
  const Vec3 arm = q.normalized() * p.local;
  const Vec3 w = twiceVec(qd, q), alpha = twiceVec(qdd, q);
  return rdd + alpha.cross(arm) + w.cross(w.cross(arm));
}

std::vector<std::string> measureColumns(const Measure& ms) {
  switch (ms.kind) {
    case Measure::Trace: {
      std::vector<std::string> c;
      for (const char* s : {".x", ".y", ".z", ".vx", ".vy", ".vz", ".ax", ".ay", ".az"}) c.push_back(ms.name + s);
      return c;
    }
    case Measure::Distance:
    case Measure::Angle:
      return {ms.name};
  }
  return {};
}

std::vector<double> measureValues(const Model& m, const sim::Frame& f, const Measure& ms) {
  if (static_cast<int>(ms.points.size()) < pointsNeeded(ms.kind)) return std::vector<double>(measureColumns(ms).size(), NAN);
  switch (ms.kind) {
    case Measure::Trace: {
      const Vec3 x = pointPosition(m, f, ms.points[0]), v = pointVelocity(m, f, ms.points[0]),
                 a = pointAcceleration(m, f, ms.points[0]);
      return {x.x(), x.y(), x.z(), v.x(), v.y(), v.z(), a.x(), a.y(), a.z()};
    }
    case Measure::Distance:
      return {(pointPosition(m, f, ms.points[1]) - pointPosition(m, f, ms.points[0])).norm()};
    case Measure::Angle: {
      const Vec3 c = pointPosition(m, f, ms.points[1]);
      const Vec3 u = pointPosition(m, f, ms.points[0]) - c, w = pointPosition(m, f, ms.points[2]) - c;
      return {std::atan2(u.cross(w).norm(), u.dot(w))};
    }
  }
  return {};
}

void writeMeasuresCsv(const std::string& path, const Model& m, const History& history, const std::vector<Measure>& measures) {
  if (measures.empty()) throw std::runtime_error(path + ": nothing to export: no traced point or measure");
  if (history.size() == 0) throw std::runtime_error(path + ": nothing to export: no recorded frame");
  std::string out = "t";
  for (const Measure& ms : measures)
    for (const std::string& c : measureColumns(ms)) out += "," + c;
  out += "\n";
  char buf[40];
  for (int i = 0; i < history.size(); ++i) {
    const sim::Frame& f = history.at(i);
    std::snprintf(buf, sizeof buf, "%.17g", f.t);
    out += buf;
    for (const Measure& ms : measures)
      for (double v : measureValues(m, f, ms)) {
        // A value that cannot be had is an empty field, never "nan".
        if (std::isfinite(v)) std::snprintf(buf, sizeof buf, ",%.17g", v);
        else std::snprintf(buf, sizeof buf, ",");
        out += buf;
      }
    out += "\n";
  }
  io::writeFileAtomically(path, out);
}

void appendMeasureColumns(const Model& m, const std::vector<Measure>& measures, std::vector<io::TrajectoryFrame>& rows,
                          std::vector<std::string>& columns) {
  if (measures.empty()) return;
  for (const Measure& ms : measures)
    for (const std::string& c : measureColumns(ms)) columns.push_back(c);
  sim::Frame f;
  for (io::TrajectoryFrame& row : rows) {
    f.t = row.t;
    f.q = row.q;
    f.qd = row.qd;
    f.qdd = row.qdd;
    for (const Measure& ms : measures)
      for (double v : measureValues(m, f, ms)) row.extra.push_back(std::isfinite(v) ? v : 0.0);
  }
}

std::vector<Vec3> tracePath(const Model& m, const History& history, const BodyPoint& p) {
  std::vector<Vec3> out;
  out.reserve(static_cast<size_t>(history.size()));
  for (int i = 0; i < history.size(); ++i)
    if (history.at(i).q.size() == m.nq) out.push_back(pointPosition(m, history.at(i), p));
  return out;
}

}  // namespace mechsim::ui
