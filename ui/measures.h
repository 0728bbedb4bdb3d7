#pragma once
// ui/measures.h — what an engineer traces and measures on a running mechanism (Measure menu):
// traced points (the curve a point of a body draws: a coupler curve), the distance between two
// points, the angle at the middle one of three points. Each is a set of body points (a point
// fixed in a body's frame; a fixed body's points are world points) evaluated on the recorded
// frames — so traces and plots follow the history, scrubbing included — and each gives named
// columns for the plots, the traces' CSV and the trajectory export.
//
// A point fixed in body b at local coordinates l (q holds the body's frame origin r and its unit
// quaternion p, q̇ and q̈ their rates; ⊗ the quaternion product, p* the conjugate):
//   x = r + R(p) l,   ω = 2 vec(ṗ ⊗ p*),   α = 2 vec(p̈ ⊗ p*)   (ṗ ⊗ ṗ* is real, |ṗ|²)
//   v = ṙ + ω × (R l),   a = r̈ + α × (R l) + ω × (ω × (R l))
// Distance: |x₂ − x₁|. Angle at x₂ of the triangle x₁ x₂ x₃: atan2(|u × w|, u · w), u = x₁ − x₂,
// w = x₃ − x₂ (radians, 0 … π; well conditioned near 0 and π, unlike acos).
#include <string>
#include <vector>

#include "core/io/trajectory.h"
#include "core/model.h"
#include "core/types.h"

namespace mechsim::sim {
struct Frame;
}

namespace mechsim::ui {

class History;

struct BodyPoint {
  int body = -1;               // Model::bodies index
  Vec3 local = Vec3::Zero();   // in the body frame [m]
};

struct Measure {
  enum Kind { Trace, Distance, Angle };
  Kind kind = Trace;
  std::string name;               // "P1", "d1", "angle1": the columns' prefix
  std::vector<BodyPoint> points;  // 1 (trace), 2 (distance) or 3 (angle, vertex in the middle)
};

/// Points a measure of this kind takes.
int pointsNeeded(Measure::Kind kind);

/// World position, velocity and acceleration of a body point at a frame (formulas above). A
/// fixed body's point is at rest. A frame without rates (q̇, q̈ empty) gives zero rates.
Vec3 pointPosition(const Model& m, const sim::Frame& f, const BodyPoint& p);
Vec3 pointVelocity(const Model& m, const sim::Frame& f, const BodyPoint& p);
Vec3 pointAcceleration(const Model& m, const sim::Frame& f, const BodyPoint& p);

/// The measure's columns: a trace "P1.x,P1.y,P1.z,P1.vx,P1.vy,P1.vz,P1.ax,P1.ay,P1.az" (m, m/s,
/// m/s²), a distance "d1" (m), an angle "angle1" (rad).
std::vector<std::string> measureColumns(const Measure& ms);
/// Their values at a frame (same order as measureColumns).
std::vector<double> measureValues(const Model& m, const sim::Frame& f, const Measure& ms);

/// The traces' table: header "t,<columns of every measure>", one row per recorded frame of the
/// history (17 significant digits), written atomically. Throws std::runtime_error with the path
/// when it cannot be written, or when there is nothing to write.
void writeMeasuresCsv(const std::string& path, const Model& m, const History& history, const std::vector<Measure>& measures);

/// Appends the measures' columns to `columns` and their values to every row's `extra` (a row is
/// taken as a frame of its t, q, q̇, q̈): the trajectory export's measure columns.
void appendMeasureColumns(const Model& m, const std::vector<Measure>& measures, std::vector<io::TrajectoryFrame>& rows,
                          std::vector<std::string>& columns);

/// The path a trace draws over the history (world points, oldest first).
std::vector<Vec3> tracePath(const Model& m, const History& history, const BodyPoint& p);

}  // namespace mechsim::ui
