// bench/bench_anm.cpp — `mechsim-cli bench anm [--csv]`: handle drags of several lengths along the
// ANM continuation path (paper 004, core/anm/anm_drag.h) against Newton, every method in the same
// run (STYLE.md §14):
//   anm           one DragSolver update from the start to the target (makeAnmDragSolver, N = 20)
//   anm-pade      the same with the Padé approximants (AnmOptions::pade, paper 004 eq. 30-31)
//   newton-steps  Newton continuation with fixed steps: the straight line from the start to the
//                 target cut into steps of h = 0.02 × Model::lengthScale, one Newton drag update
//                 (makeNewtonDragSolver) per step
//   newton-jump   one Newton drag update from the start straight to the target
// on the four-bar (crank driver left out: 1 DOF), a near-fold four-bar built in code (a crank-rocker
// close to its change point, whose open and crossed circuits nearly touch; closed-form targets), the
// Stewart platform (leg drivers left out: 6 DOF) and the car suspension (drivers left out: 3 DOF).
// Targets: the four-bar's and the suspension's are positions of the point in configurations of the
// driven analysis; the near-fold four-bar's are closed-form positions on its open circuit; the
// Stewart's are offsets of the point. All methods converge to max|Φ| < 1e-10 (equal accuracy);
// columns: factorisations and solves of Jacobians, time, final residual and whether the starting
// assembly branch was kept — four-bars: the assembly mode, sign of z·((C − B) × (D − C)) (the check
// of tests/core/test_anm_branch.cpp); suspension: the final configuration is the driven analysis's,
// the wheel's spin about its axle aside (the point lies on the axle, so the minimum-norm steps may
// turn it); Stewart: every leg's cylinder axis points along the leg, every universal joint keeps the
// sign of cos θ1, the platform stays upright.
// After the drags: static deformation of a tet mesh (deformRows below, paper 004 eq. 68).
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
#include "reference/anm/deform_static.h"
#include "core/deform/solver.h"
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
  enum class Branch { Configuration, FourBarMode, Stewart } branch = Branch::Configuration;
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

/// Four-bar assembly mode (joints B, C, D): the sign of z·((C − B) × (D − C)), constant on each
/// circuit of a Grashof crank-rocker (tests/core/test_anm_branch.cpp uses the same check).
int fourBarMode(const Model& m, const VecX& q) {
  auto world = [&](const std::string& jn) {
    const Joint& j = m.joints[m.findJoint(jn)];
    return bodyPose(m, q, j.body1).apply(j.point1);
  };
  const Vec3 B = world("B"), C = world("C"), D = world("D");
  return (C - B).cross(D - C).z() > 0 ? 1 : -1;
}

bool branchKept(const DragCase& c, const VecX& q) {
  switch (c.branch) {
    case DragCase::Branch::FourBarMode: return fourBarMode(*c.model, q) == fourBarMode(*c.model, c.q0);
    case DragCase::Branch::Stewart: return stewartIndicators(*c.model, q) == stewartIndicators(*c.model, c.q0);
    case DragCase::Branch::Configuration: break;
  }
  return sameConfiguration(*c.model, q, c.qRef, c.model->findBody("hub"));
}

/// A crank-rocker close to its change point (ground 0.4, crank 0.19, coupler 0.4, rocker 0.2:
/// s + l = 0.59 < p + q = 0.6) in the xy-plane, built at crank angle 90° on the open circuit; its
/// open and crossed circuits pass within millimetres of each other near crank angle 180°. The
/// closed-form configuration at crank angle th on the open circuit (C: the intersection of the
/// coupler and rocker circles on the side where z·((C − B) × (O4 − C)) > 0).
struct NearFoldFourBar {
  static constexpr double a = 0.19, b = 0.4, c = 0.2, d = 0.4, th0 = M_PI / 2;
  Model model;
  static void points(double th, Vec3& B, Vec3& C) {
    B = Vec3(a * std::cos(th), a * std::sin(th), 0);
    const Vec3 O4(d, 0, 0), e = (O4 - B).normalized(), n(-e.y(), e.x(), 0);
    const double L = (O4 - B).norm(), x = (b * b - c * c + L * L) / (2 * L), h = std::sqrt(std::max(b * b - x * x, 0.0));
    C = B + x * e + h * n;
    if ((C - B).cross(O4 - C).z() < 0) C = B + x * e - h * n;
  }
  static double angle(const Vec3& v) { return std::atan2(v.y(), v.x()); }
  NearFoldFourBar() {
    Vec3 B, C;
    points(th0, B, C);
    auto body = [](const std::string& name, const Vec3& pos, double rot, bool fixed) {
      BodySpec s;
      s.name = name;
      s.fixed = fixed;
      s.position = pos;
      s.orientation = Quat(Eigen::AngleAxisd(rot, Vec3::UnitZ()));
      if (!fixed) s.mass = 1.0;
      return s;
    };
    auto revolute = [](const std::string& name, const std::string& b1, const std::string& b2, const Vec3& p) {
      JointSpec j;
      j.name = name;
      j.type = JointType::Revolute;
      j.body1 = b1;
      j.body2 = b2;
      j.point = p;
      j.axis = j.normal = Vec3::UnitZ();
      return j;
    };
    MechanismSpec s;
    s.name = "near-fold four-bar";
    s.bodies = {body("ground", Vec3::Zero(), 0, true), body("crank", Vec3::Zero(), 0, false),
                body("coupler", B, angle(C - B), false), body("rocker", Vec3(d, 0, 0), 0, false)};
    s.joints = {revolute("A", "ground", "crank", Vec3::Zero()), revolute("B", "crank", "coupler", B),
                revolute("C", "coupler", "rocker", C), revolute("D", "ground", "rocker", Vec3(d, 0, 0))};
    model = io::compileSpec(s);
  }
  VecX config(double th) const {
    Vec3 B, C, B0, C0;
    points(th, B, C);
    points(th0, B0, C0);
    const Vec3 O4(d, 0, 0);
    VecX q = model.q0;
    auto set = [&](const std::string& name, const Vec3& r, double rot) {
      const int i = model.bodies[static_cast<size_t>(model.findBody(name))].qIndex;
      q.segment<3>(i) = r;
      q.segment<4>(i + 3) << std::cos(rot / 2), 0, 0, std::sin(rot / 2);
    };
    set("crank", Vec3::Zero(), th - th0);
    set("coupler", B, angle(C - B));
    set("rocker", O4, angle(C - O4) - angle(C0 - O4));
    return q;
  }
};

/// Runs `method` on case c; the median time over `reps` runs (the counts of the first run).
Outcome run(const DragCase& c, const std::string& method, int reps) {
  const Model& m = *c.model;
  Outcome first;
  std::vector<double> times;
  for (int rep = 0; rep < reps; ++rep) {
    Outcome o;
    Data d = makeData(m);
    d.q = c.q0;
    AnmDragOptions padeOpt;
    padeOpt.anm.pade = true;
    std::unique_ptr<DragSolver> s = method == "anm"        ? makeAnmDragSolver()
                                    : method == "anm-pade" ? makeAnmDragSolver(padeOpt)
                                                           : makeNewtonDragSolver();
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


/// Static deformation rows (paper 004 §3.3-3.4): a cantilever 0.8 × 0.2 × 0.2 m (16×4×4 cells, 1536
/// tets, E = 5e5 Pa, ν = 0.4, ρ = 1000 kg/m³; stable neo-Hookean, and ARAP in the "-arap" rows)
/// clamped at x = 0 —
///   deform-gravity  forward gravity equilibrium (λ scales gravity 0 → 1);
///   deform-pull     the x = L face as a handle, moved up 0.25 m and twisted 45° (gravity on), from
///                   the gravity equilibrium with the handle held;
/// methods anm / anm-pade (solveStaticAnm, N = 20) and newton-static (core/deform's projected Newton,
/// CHOLMOD, on the incremental potential with h = 100 s, whose inertia M/h² is negligible: one
/// factorisation per iteration, started with the handle at its target). Columns: iterations =
/// ANM steps / Newton iterations, factorisations likewise, residual = max|R_i| / (μ extent²) of the
/// static forces, branch_kept = no tet inverted, length_m = the handle's largest displacement,
/// distance_m = the largest vertex distance to Newton's solution.
struct DeformRow {
  std::string name, method;
  int iterations = 0, factorizations = 0, solves = 0;
  double seconds = 0, residual = 0, length = 0, distance = 0;
  bool converged = false, noInversion = false;
};

std::vector<DeformRow> deformRows() {
  constexpr double L = 0.8, W = 0.2;
  std::vector<DeformRow> rows;
  deform::TetMesh mesh = deform::makeBoxMesh(Vec3(L, W, W), 16, 4, 4);
  deform::Material mat;
  mat.youngs = 5e5;
  mat.poisson = 0.4;
  mat.density = 1000;
  std::vector<int> clamp, clampAndHandle;
  for (int v = 0; v < mesh.vertexCount(); ++v) {
    if (mesh.vertices[static_cast<size_t>(v)].x() < 1e-12) clamp.push_back(v);
    if (mesh.vertices[static_cast<size_t>(v)].x() < 1e-12 || mesh.vertices[static_cast<size_t>(v)].x() > L - 1e-12)
      clampAndHandle.push_back(v);
  }
  auto maxDistance = [](const VecX& a, const VecX& b) {
    double d = 0;
    for (int v = 0; v < a.size() / 3; ++v) d = std::max(d, (a.segment<3>(3 * v) - b.segment<3>(3 * v)).norm());
    return d;
  };
  auto noInversion = [](const deform::DeformableModel& m, const VecX& x) {
    deform::TetMesh moved = m.mesh;
    for (int v = 0; v < m.vertexCount(); ++v) moved.vertices[static_cast<size_t>(v)] = x.segment<3>(3 * v);
    for (int t = 0; t < m.tetCount(); ++t)
      if (!(deform::tetVolume(moved, t) > 0)) return false;
    return true;
  };
  auto scaleOf = [](const deform::DeformableModel& m) { return m.mu() * m.extent * m.extent; };
  for (const deform::hd::MaterialKind kind : {deform::hd::kStableNeoHookean, deform::hd::kArap}) {
    mat.kind = kind;
    const std::string suffix = kind == deform::hd::kArap ? "-arap" : "";
    const deform::DeformableModel free = deform::makeDeformableModel(mesh, mat, 100.0, Vec3(0, 0, -9.81), clamp);
    const deform::DeformableModel held = deform::makeDeformableModel(mesh, mat, 100.0, Vec3(0, 0, -9.81), clampAndHandle);
    const VecX rest = deform::restPositions(free);
    // The handle case's start: the gravity equilibrium with the handle held; its target.
    const anm::StaticDeformResult held0 = anm::solveStaticAnm(held, rest, 0.0, rest, 1.0);
    VecX target = held0.x;
    const Vec3 axis(L, W / 2, W / 2);
    const Eigen::AngleAxisd twist(M_PI / 4, Vec3::UnitX());
    for (int v = 0; v < held.vertexCount(); ++v)
      if (held.prescribed[static_cast<size_t>(v)] && rest(3 * v) > L - 1e-12)
        target.segment<3>(3 * v) = axis + twist * (Vec3(rest.segment<3>(3 * v)) - axis) + Vec3(0, 0, 0.25);
    struct Case {
      std::string name;
      const deform::DeformableModel* m;
      VecX x0, p1;
      double s0;
    };
    const std::vector<Case> cases = {{"deform-gravity" + suffix, &free, rest, rest, 0.0},
                                   {"deform-pull" + suffix, &held, held0.x, target, 1.0}};
    for (const Case& c : cases) {
      // Newton reference first (its solution is the distance reference).
      DeformRow nr;
      nr.name = c.name;
      nr.method = "newton-static";
      VecX xn = c.p1;  // prescribed at the target, free vertices at the start
      for (int v = 0; v < c.m->vertexCount(); ++v)
        if (!c.m->prescribed[static_cast<size_t>(v)]) xn.segment<3>(3 * v) = c.x0.segment<3>(3 * v);
      VecX z = xn;
      for (int v = 0; v < c.m->vertexCount(); ++v) z.segment<3>(3 * v) += c.m->h * c.m->h * c.m->gravity;
      deform::SolveOptions so;
      so.method = deform::Method::Newton;
      so.tolerance = 1e-12;
      so.maxIterations = 100;
      const deform::SolveStats st = deform::minimise(*c.m, nullptr, so, z, xn);
      nr.iterations = nr.factorizations = nr.solves = st.iterations;
      nr.seconds = st.seconds;
      nr.converged = st.converged;
      nr.residual = anm::staticResidual(*c.m, xn, 1.0).lpNorm<Eigen::Infinity>() / scaleOf(*c.m);
      nr.noInversion = noInversion(*c.m, xn);
      nr.length = maxDistance(c.p1, c.x0);
      for (bool pade : {false, true}) {
        DeformRow r;
        r.name = c.name;
        r.method = pade ? "anm-pade" : "anm";
        anm::StaticDeformOptions opt;
        opt.anm.pade = pade;
        const auto t0 = std::chrono::steady_clock::now();
        const anm::StaticDeformResult a = anm::solveStaticAnm(*c.m, c.x0, c.s0, c.p1, 1.0, opt);
        r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        r.iterations = r.factorizations = a.steps;
        r.solves = a.solves;
        r.converged = a.converged;
        r.residual = a.residual;
        r.noInversion = noInversion(*c.m, a.x);
        r.length = nr.length;
        r.distance = maxDistance(a.x, xn);
        rows.push_back(r);
      }
      rows.push_back(nr);
    }
  }
  return rows;
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
      if (&m == &fourbar) c.branch = DragCase::Branch::FourBarMode;
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
      c.branch = DragCase::Branch::Stewart;
      cases.push_back(c);
    }
  }

  // Near-fold four-bar: drags from crank 260° (past the near-fold) to targets on the open circuit;
  // crank 50° and 55° are targets for which one Newton drag update slides onto the crossed circuit
  // (tests/core/test_anm_branch.cpp), crank 200° one for which it does not.
  const NearFoldFourBar nearFold;
  for (int deg : {50, 55, 200}) {
    DragCase c;
    c.name = "nearfold-260to" + std::to_string(deg);
    c.model = &nearFold.model;
    c.q0 = nearFold.config(260 * M_PI / 180);
    c.point = DragPoint{nearFold.model.findBody("coupler"), Vec3(0.1, 0.05, 0)};
    c.qRef = nearFold.config(deg * M_PI / 180);
    c.target = bodyPose(nearFold.model, c.qRef, c.point.body).apply(c.point.local);
    c.length = (c.target - bodyPose(nearFold.model, c.q0, c.point.body).apply(c.point.local)).norm();
    c.branch = DragCase::Branch::FourBarMode;
    cases.push_back(c);
  }

  const std::vector<std::string> methods = {"anm", "anm-pade", "newton-steps", "newton-jump"};
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
    for (const DeformRow& r : deformRows())
      out << r.name << "," << r.method << "," << r.iterations << "," << r.seconds << "," << r.factorizations << ","
          << r.solves << "," << r.residual << "," << (r.noInversion ? 1 : 0) << "," << r.length << "," << r.distance
          << "\n";
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
  out << "static deformation (paper 004 eq. 68), cantilever 16x4x4 cells, stable neo-Hookean (-arap: ARAP): ANM\n"
      << "continuation vs "
      << "projected Newton (CHOLMOD); fact = ANM steps / Newton iterations; residual = max|R| / (mu extent^2);\n"
      << "distance = largest vertex distance to Newton's solution; branch = no inverted tet.\n";
  const std::vector<DeformRow> drows = deformRows();
  for (size_t i = 0; i < drows.size(); ++i) {
    const DeformRow& r = drows[i];
    const DeformRow& ref = drows[i - (i % 3)];
    std::snprintf(line, sizeof line, "%-24s %-13s %8.3f %6d %7.2f %10.1f %7.2f %9.1e %9.1e %6s%s\n", r.name.c_str(),
                  r.method.c_str(), r.length, r.factorizations,
                  ref.factorizations ? double(r.factorizations) / ref.factorizations : 0.0, r.seconds * 1e6,
                  ref.seconds > 0 ? r.seconds / ref.seconds : 0.0, r.residual, r.distance,
                  r.noInversion ? "ok" : "INV", r.converged ? "" : "  FAILED");
    out << line;
    if (i % 3 == 2) out << "\n";
  }
  return 0;
}

}  // namespace mechsim::bench
