// core/io/trajectory.cpp — trajectory CSV (FORMAT.md §3) and JSON.
//
// Body origin velocity and acceleration come straight from qd and qdd: the first three of a
// moving body's seven coordinates are its origin in the world (core/model.h), so ṙ and r̈ are
// slices of them. Numbers are formatted with std::to_chars (17 significant digits, "%.17g"
// semantics) because printf follows the C locale, which a Qt program sets from the environment
// (a German locale would print "0,5" and break the CSV).
#include "core/io/trajectory.h"

#include <charconv>
#include <cstdio>
#include <cmath>
#include <stdexcept>

#include "core/io/write.h"

namespace mechsim::io {

namespace {

void appendNumber(std::string& out, double x, const std::string& column, double t) {
  if (!std::isfinite(x)) {
    char tb[32];
    const auto r = std::to_chars(tb, tb + sizeof tb, t, std::chars_format::general, 17);
    throw std::invalid_argument("trajectory value '" + column + "' at t = " + std::string(tb, r.ptr) +
                                " is not finite; refusing to write NaN or infinity");
  }
  char buf[40];
  const auto r = std::to_chars(buf, buf + sizeof buf, x, std::chars_format::general, 17);
  out.append(buf, r.ptr);
}

void checkSize(const VecX& v, Eigen::Index n, const char* what, double t) {
  if (v.size() != n)
    throw std::invalid_argument(std::string("trajectory frame at t = ") + std::to_string(t) + ": " + what + " has " +
                                std::to_string(v.size()) + " entries, the model needs " + std::to_string(n));
}

}  // namespace

std::vector<std::string> trajectoryColumns(const Model& m, bool rates) {
  std::vector<std::string> c{"t"};
  for (const std::string& n : m.coordNames) c.push_back(n);
  for (const Body& b : m.bodies)
    if (!b.fixed)
      for (const char* s : {".x", ".y", ".z", ".qw", ".qx", ".qy", ".qz"}) c.push_back(b.name + s);
  if (rates) {
    for (const std::string& n : m.coordNames) c.push_back(n + ".vel");
    for (const std::string& n : m.coordNames) c.push_back(n + ".acc");
    for (const Body& b : m.bodies)
      if (!b.fixed)
        for (const char* s : {".vx", ".vy", ".vz"}) c.push_back(b.name + s);
    for (const Body& b : m.bodies)
      if (!b.fixed)
        for (const char* s : {".ax", ".ay", ".az"}) c.push_back(b.name + s);
  }
  return c;
}

std::vector<double> trajectoryRow(const Model& m, const TrajectoryFrame& f, bool rates) {
  checkSize(f.q, m.nq, "q", f.t);
  checkSize(f.coords, m.nCoords, "coords", f.t);
  if (rates) {
    checkSize(f.qd, m.nq, "qd", f.t);
    checkSize(f.qdd, m.nq, "qdd", f.t);
    checkSize(f.coordVel, m.nCoords, "coordVel", f.t);
    checkSize(f.coordAcc, m.nCoords, "coordAcc", f.t);
  }
  std::vector<double> r{f.t};
  for (int i = 0; i < m.nCoords; ++i) r.push_back(f.coords[i]);
  for (int b = 0; b < int(m.bodies.size()); ++b) {
    if (m.bodies[b].fixed) continue;
    const Pose p = bodyPose(m, f.q, b);
    r.insert(r.end(), {p.position.x(), p.position.y(), p.position.z(), p.orientation.w(), p.orientation.x(),
                       p.orientation.y(), p.orientation.z()});
  }
  if (rates) {
    for (int i = 0; i < m.nCoords; ++i) r.push_back(f.coordVel[i]);
    for (int i = 0; i < m.nCoords; ++i) r.push_back(f.coordAcc[i]);
    for (const Body& b : m.bodies)
      if (!b.fixed)
        for (int k = 0; k < 3; ++k) r.push_back(f.qd[b.qIndex + k]);
    for (const Body& b : m.bodies)
      if (!b.fixed)
        for (int k = 0; k < 3; ++k) r.push_back(f.qdd[b.qIndex + k]);
  }
  return r;
}

std::string trajectoryCsv(const Model& m, const std::vector<TrajectoryFrame>& frames, bool rates) {
  return trajectoryCsv(m, frames, rates, {});
}

std::string trajectoryCsv(const Model& m, const std::vector<TrajectoryFrame>& frames, bool rates,
                          const std::vector<std::string>& extraColumns) {
  std::vector<std::string> cols = trajectoryColumns(m, rates);
  cols.insert(cols.end(), extraColumns.begin(), extraColumns.end());
  std::string out;
  for (std::size_t i = 0; i < cols.size(); ++i) out += (i ? "," : "") + cols[i];
  out += '\n';
  for (const TrajectoryFrame& f : frames) {
    std::vector<double> row = trajectoryRow(m, f, rates);
    if (!extraColumns.empty()) {
      if (f.extra.size() != extraColumns.size())
        throw std::invalid_argument("trajectory frame at t = " + std::to_string(f.t) + ": " + std::to_string(f.extra.size()) +
                                    " extra values for " + std::to_string(extraColumns.size()) + " extra columns");
      row.insert(row.end(), f.extra.begin(), f.extra.end());
    }
    for (std::size_t i = 0; i < row.size(); ++i) {
      if (i) out += ',';
      appendNumber(out, row[i], cols[i], f.t);
    }
    out += '\n';
  }
  return out;
}

namespace {
std::string jsonString(const std::string& s) {
  std::string o = "\"";
  for (unsigned char c : s) {
    if (c == '"' || c == '\\') {
      o += '\\';
      o += char(c);
    } else if (c < 0x20) {
      char b[8];
      std::snprintf(b, sizeof b, "\\u%04x", c);
      o += b;
    } else {
      o += char(c);
    }
  }
  return o + "\"";
}
}  // namespace

std::string trajectoryJson(const Model& m, const std::vector<TrajectoryFrame>& frames, bool rates) {
  // Written by hand rather than through a JSON DOM: a long trajectory has millions of numbers.
  const std::vector<std::string> cols = trajectoryColumns(m, rates);
  std::string out = "{\n  \"format\": \"mechsim-trajectory\",\n  \"version\": 1,\n  \"model\": " + jsonString(m.name) +
                    ",\n  \"units\": {\"length\": \"m\", \"angle\": \"rad\", \"time\": \"s\"},\n  \"columns\": [";
  for (std::size_t i = 0; i < cols.size(); ++i) out += (i ? ", " : "") + jsonString(cols[i]);
  out += "],\n  \"rows\": [";
  for (std::size_t k = 0; k < frames.size(); ++k) {
    const std::vector<double> row = trajectoryRow(m, frames[k], rates);
    out += k ? ",\n    [" : "\n    [";
    for (std::size_t i = 0; i < row.size(); ++i) {
      if (i) out += ", ";
      appendNumber(out, row[i], cols[i], frames[k].t);
    }
    out += ']';
  }
  out += frames.empty() ? "]\n}\n" : "\n  ]\n}\n";
  return out;
}

void writeTrajectoryCsvFile(const std::string& path, const Model& m, const std::vector<TrajectoryFrame>& frames,
                            bool rates) {
  writeFileAtomically(path, trajectoryCsv(m, frames, rates));
}

void writeTrajectoryJsonFile(const std::string& path, const Model& m, const std::vector<TrajectoryFrame>& frames,
                             bool rates) {
  writeFileAtomically(path, trajectoryJson(m, frames, rates));
}

}  // namespace mechsim::io
