// bench/bench_anm.cpp — `mechsim-cli bench anm [--csv]`: handle drags of several lengths along the
// ANM continuation path (paper 004, core/anm/anm_drag.h) against Newton, every method in the same
// run (STYLE.md §14):
//   anm           one DragSolver update from the start to the target (makeAnmDragSolver, N = 20)
//   newton-steps  Newton continuation with fixed steps: the straight line from the start to the
//                 target cut into steps of h = 0.02 × Model::lengthScale, one Newton drag update
//                 (makeNewtonDragSolver) per step
//   newton-jump   one Newton drag update from the start straight to the target
// on the four-bar (crank driver left out: 1 DOF), the Stewart platform (leg drivers left out: 6 DOF)
// and the car suspension (drivers left out: 3 DOF). Targets: the four-bar's and the suspension's are
// positions of the point in configurations of the driven analysis (so the branch reached can be
// compared with them); the Stewart's are offsets of the point. All methods converge to
// max|Φ| < 1e-10 (equal accuracy); columns: factorisations and solves of Jacobians, time, final
// residual and whether the starting assembly branch was kept (four-bar / suspension: the final
// configuration is the driven analysis's, the wheel's spin about its axle aside (the point lies on
// the axle, so the minimum-norm steps may turn it); Stewart: every leg's cylinder axis points along the leg,
// every universal joint keeps the sign of cos θ1, the platform stays upright).
// Goal (issue 8): ANM needs at most a third of the factorisations of fixed-step Newton continuation,
// and never changes branch.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <iomanip>
#include <iostream>
#include <sstream>
#include <vector>

#include "bench/bench.h"
#include "core/anm/anm_drag.h"
#include "core/io/load.h"
#include "core/kinematics/kinematics.h"

namespace mechsim::bench {
namespace {

struct DragCase {
  std::string name;
  const Model* model = nullptr;
  VecX q0;                 // start configuration
  DragPoint point;
  Vec3 target;
  VecX qRef;               // the reference configuration on the starting branch (empty: indicators)
  double length = 0;       // |target − start| [m]
};

struct Outcome {
  int iterations = 0, factorizations = 0, solves = 0;
  double seconds = 0, residual = 0, distance = 0;
  bool converged = true, reached = false, branchKept = false;
};

/// Same physical configuration (quaternion sign ignored; `freeSpin`: a body whose orientation about
/// a free axis through the point is not compared — the suspension's wheel hub).
bool sameConfiguration(const Model& m, const VecX& a, const VecX& b, int freeSpin) {
  for (int i = 0; i < static_cast<int>(m.bodies.size()); ++i) {
    const Body& body = m.bodies[static_cast<size_t>(i)];
    if (body.qIndex < 0) continue;
    if (i == freeSpin) {
      if ((a.segment<3>(body.qIndex) - b.segment<3>(body.qIndex)).norm() > 1e-6 * m.lengthScale) return false;
      continue;
    }
    if ((a.segment<3>(body.qIndex) - b.segment<3>(body.qIndex)).norm() > 1e-6 * m.lengthScale) return false;
    const auto pa = a.segment<4>(body.qIndex + 3), pb = b.segment<4>(body.qIndex + 3);
    if (std::min((pa - pb).norm(), (pa + pb).norm()) > 1e-6) return false;
  }
  return true;
}

/// Stewart branch indicators (see the file comment).
std::vector<int> stewartIndicators(const Model& m, const VecX& q) {
  std::vector<int> b;
  Data d = makeData(m);
  d.q = q;
  updateJointCoordinates(m, d);
  auto world = [&](const std::string& jn) {
    const Joint& j = m.joints[m.findJoint(jn)];
    return bodyPose(m, q, j.body1).apply(j.point1);
  };
  for (int i = 1; i <= 6; ++i) {
    const std::string k = std::to_string(i);
    const Joint& P = m.joints[m.findJoint("P" + k)];
    b.push_back(bodyPose(m, q, P.body1).rotate(P.frame1.col(2)).dot(world("S" + k) - world("U" + k)) > 0);
    b.push_back(std::cos(d.coords(m.joints[m.findJoint("U" + k)].firstCoord)) > 0);
  }
  b.push_back(bodyPose(m, q, m.findBody("platform")).rotate(Vec3::UnitZ()).z() > 0);
  return b;
}

bool branchKept(const DragCase& c, const VecX& q) {
  if (c.qRef.size()) return sameConfiguration(*c.model, q, c.qRef, c.model->findBody("hub"));
  return stewartIndicators(*c.model, q) == stewartIndicators(*c.model, c.q0);
}

/// Runs `method` on case c; the median time over `reps` runs (the counts of the first run).
Outcome run(const DragCase& c, const std::string& method, int reps) {
  const Model& m = *c.model;
  Outcome first;
  std::vector<double> times;
  for (int rep = 0; rep < reps; ++rep) {
    Outcome o;
    Data d = makeData(m);
    d.q = c.q0;
    std::unique_ptr<DragSolver> s = method == "anm" ? makeAnmDragSolver() : makeNewtonDragSolver();
    s->begin(m, d, c.point);
    const Vec3 start = bodyPose(m, c.q0, c.point.body).apply(c.point.local);
    const int steps =
        method == "newton-steps" ? std::max(1, int(std::ceil(c.length / (0.02 * m.lengthScale) - 1e-9))) : 1;
    const auto t0 = std::chrono::steady_clock::now();
    for (int k = 1; k <= steps; ++k) {
      const Vec3 target = k == steps ? c.target : Vec3(start + (c.target - start) * (double(k) / steps));
      const DragResult r = s->update(m, d, target);
      o.iterations += r.iterations;
      o.factorizations += r.factorizations;
      o.solves += r.solves;
      o.converged = o.converged && r.converged;
      o.residual = r.residual;
      o.distance = r.distance;
      o.reached = r.reached;
    }
    o.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    s->end();
    o.branchKept = o.converged && branchKept(c, d.q);
    times.push_back(o.seconds);
    if (rep == 0) first = o;
  }
  std::nth_element(times.begin(), times.begin() + times.size() / 2, times.end());
  first.seconds = times[times.size() / 2];
  return first;
}

Model freeModel(const std::string& path) {
  MechanismSpec s = io::readMechanismFile(path);
  s.drivers.clear();
  return io::compileSpec(s);
}

/// Driven analysis of `driven` from t = 0 to each of `times` in small steps (continuation keeps its
/// branch); the configurations at those times.
std::vector<VecX> drivenConfigurations(const Model& driven, const std::vector<double>& times, bool& ok) {
  Data d = makeData(driven);
  std::vector<VecX> out;
  ok = solvePositions(driven, d, 0.0);
  double t = 0;
  for (double T : times) {
    const int n = std::max(1, int(std::ceil((T - t) / 0.002)));
    const double t0 = t;
    for (int k = 1; k <= n && ok; ++k) ok = solvePositions(driven, d, t0 + (T - t0) * k / n);
    t = T;
    out.push_back(d.q);
  }
  return out;
}

}  // namespace

int runAnm(std::ostream& out, bool csv, const std::string& sourceDir) {
  const auto dir = std::filesystem::path(sourceDir) / "mechanisms";
  Model fourbar, fourbarDriven, stewart, car, carDriven;
  try {
    fourbar = freeModel((dir / "fourbar.json").string());
    fourbarDriven = io::loadModel((dir / "fourbar.json").string());
    stewart = freeModel((dir / "stewart.json").string());
    car = freeModel((dir / "car-suspension.json").string());
    // The reference analysis with the wheel spin held at 0 (the dragged point lies on the spin
    // axis, so a drag leaves the spin where it is).
    MechanismSpec carSpec = io::readMechanismFile((dir / "car-suspension.json").string());
    for (DriverSpec& d : carSpec.drivers)
      if (d.name == "spin") d.expression = "0";
    carDriven = io::compileSpec(carSpec);
  } catch (const std::exception& e) {
    std::cerr << "bench anm: " << e.what() << "\n";
    return 1;
  }
  std::vector<DragCase> cases;
  auto handleOf = [](const Model& m) { return DragPoint{m.handles.at(0).body, m.handles.at(0).local}; };
  auto addFromDriven = [&](const std::string& name, const Model& m, const Model& driven, const std::vector<double>& times,
                           const std::vector<std::string>& labels) {
    bool ok = true;
    const std::vector<VecX> qs = drivenConfigurations(driven, std::vector<double>{0.0}, ok);
    const std::vector<VecX> targets = drivenConfigurations(driven, times, ok);
    if (!ok) return false;
    for (size_t i = 0; i < times.size(); ++i) {
      DragCase c;
      c.name = name + "-" + labels[i];
      c.model = &m;
      c.q0 = qs[0];
      c.point = handleOf(m);
      c.target = bodyPose(m, targets[i], c.point.body).apply(c.point.local);
      c.qRef = targets[i];
      c.length = (c.target - bodyPose(m, c.q0, c.point.body).apply(c.point.local)).norm();
      cases.push_back(c);
    }
    return true;
  };
  // Four-bar: crank +30°, +90°, +180° (driver 360 t deg).
  if (!addFromDriven("fourbar", fourbar, fourbarDriven, {30.0 / 360, 90.0 / 360, 180.0 / 360},
                     {"crank30", "crank90", "crank180"}) ||
      // Suspension: bump 0.12 sin(2πt), steer 0.025 sin(πt): t = 0.05, 0.125, 0.25.
      !addFromDriven("car-suspension", car, carDriven, {0.05, 0.125, 0.25}, {"bump37", "bump85", "bump120"})) {
    std::cerr << "bench anm: the driven reference analysis failed\n";
    return 2;
  }
  {
    Data d = makeData(stewart);
    if (!solvePositions(stewart, d, 0.0)) {
      std::cerr << "bench anm: stewart.json: position analysis failed: " << d.stats.message << "\n";
      return 2;
    }
    const Vec3 dirn = Vec3(0.6, 0.4, -0.3).normalized();
    for (double len : {0.1, 0.3, 0.6}) {
      DragCase c;
      std::ostringstream nm;
      nm << "stewart-" << int(std::lround(len * 100)) << "cm";
      c.name = nm.str();
      c.model = &stewart;
      c.q0 = d.q;
      c.point = handleOf(stewart);
      c.target = bodyPose(stewart, d.q, c.point.body).apply(c.point.local) + len * dirn;
      c.length = len;
      cases.push_back(c);
    }
  }

  const std::vector<std::string> methods = {"anm", "newton-steps", "newton-jump"};
  struct Row {
    const DragCase* c;
    std::string method;
    Outcome o;
  };
  std::vector<Row> rows;
  for (const DragCase& c : cases)
    for (const std::string& meth : methods) rows.push_back({&c, meth, run(c, meth, 3)});

  if (csv) {
    out << "case,method,iterations,time_s,factorizations,solves,residual,branch_kept,length_m,distance_m\n";
    out << std::setprecision(6);
    for (const Row& r : rows)
      out << r.c->name << "," << r.method << "," << r.o.iterations << "," << r.o.seconds << "," << r.o.factorizations
          << "," << r.o.solves << "," << r.o.residual << "," << (r.o.branchKept ? 1 : 0) << "," << r.c->length << ","
          << r.o.distance << "\n";
    return 0;
  }
  out << "mechsim bench anm — handle drags: ANM continuation (paper 004, N = 20) vs Newton, one run, one core\n"
      << "newton-steps: fixed steps of 0.02 x lengthScale, one Newton drag update each; newton-jump: one update.\n"
      << "fact ratio = factorisations / ANM's in the same case (goal: newton-steps >= 3); time ratio likewise.\n\n";
  char line[320];
  std::snprintf(line, sizeof line, "%-24s %-13s %8s %6s %7s %10s %7s %9s %9s %6s\n", "case", "method", "length_m", "fact",
                "ratio", "time_us", "ratio", "residual", "distance", "branch");
  out << line;
  for (size_t i = 0; i < rows.size(); ++i) {
    const Row& r = rows[i];
    const Row& ref = rows[i - (i % methods.size())];
    const double fr = ref.o.factorizations > 0 ? double(r.o.factorizations) / ref.o.factorizations : 0.0;
    const double tr = ref.o.seconds > 0 ? r.o.seconds / ref.o.seconds : 0.0;
    std::snprintf(line, sizeof line, "%-24s %-13s %8.3f %6d %7.2f %10.1f %7.2f %9.1e %9.1e %6s%s\n", r.c->name.c_str(),
                  r.method.c_str(), r.c->length, r.o.factorizations, fr, r.o.seconds * 1e6, tr, r.o.residual,
                  r.o.distance, r.o.branchKept ? "kept" : "LOST", r.o.converged ? "" : "  FAILED");
    out << line;
    if (i % methods.size() == methods.size() - 1) out << "\n";
  }
  return 0;
}

}  // namespace mechsim::bench
