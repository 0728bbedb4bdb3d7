// core/io/runs.cpp — the command line's time runs (core/io/runs.h). The loops are those the
// commands ran before they moved here: the kinematics at the output times t_k = k·dt (free of
// accumulated sums) from the assembly's branch; the dynamics one step per output time; the
// deformable parts one implicit-Euler step per time after the bodies were placed.
#include "core/io/runs.h"

#include <chrono>
#include <cstdarg>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <filesystem>
#include <sstream>
#include <stdexcept>

#include "core/deform/stress.h"
#include "core/dynamics/dynamics.h"
#include "core/io/vtk.h"
#include "core/io/write.h"
#include "core/sim/stages.h"

namespace mechsim::io {

namespace {

std::string format(const char* fmt, ...) __attribute__((format(printf, 1, 2)));
std::string format(const char* fmt, ...) {
  char buf[1024];
  va_list ap;
  va_start(ap, fmt);
  std::vsnprintf(buf, sizeof buf, fmt, ap);
  va_end(ap);
  return buf;
}

double seconds(std::chrono::steady_clock::time_point since) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - since).count();
}

/// The table of trajectory frames: trajectoryRow per frame, then its extra values.
void fillTrajectoryTable(RunResult& r, bool rates) {
  r.columns = trajectoryColumns(*r.model, rates);
  r.columns.insert(r.columns.end(), r.extraColumns.begin(), r.extraColumns.end());
  r.values.assign(r.columns.size(), {});
  for (auto& c : r.values) c.reserve(r.frames.size());
  for (const TrajectoryFrame& f : r.frames) {
    std::vector<double> row = trajectoryRow(*r.model, f, rates);
    row.insert(row.end(), f.extra.begin(), f.extra.end());
    for (std::size_t c = 0; c < row.size() && c < r.values.size(); ++c) r.values[c].push_back(row[c]);
  }
}

bool stopped(const RunStop& stop, RunResult& r) {
  if (!stop || !stop()) return false;
  r.interrupted = true;
  r.failure = "interrupted";
  return true;
}

}  // namespace

long runSteps(const std::string& command, double tEnd, double dt) {
  if (!(tEnd >= 0) || !(dt > 0) || !std::isfinite(tEnd) || !std::isfinite(dt))
    throw std::invalid_argument("need --t-end ≥ 0 and --dt > 0");
  const bool kinematics = command == "kinematics", simulate = command == "simulate";
  const double most = kinematics ? 1e7 : simulate ? 1e8 : 1e6;
  const double steps = std::floor(tEnd / dt + 1e-9);
  if (steps > most)
    throw std::invalid_argument(format("%.0f %s is too many (at most %s)", steps, kinematics ? "output times" : "steps",
                                       kinematics ? "1e7" : simulate ? "1e8" : "1e6"));
  return static_cast<long>(steps);
}

int RunResult::column(const std::string& name) const {
  for (std::size_t i = 0; i < columns.size(); ++i)
    if (columns[i] == name) return static_cast<int>(i);
  return -1;
}

std::string RunResult::csv() const {
  if (command != "deform") return trajectoryCsv(*model, frames, true, extraColumns);
  // The deform table as the command has always written it: iostream numbers, 9 significant digits.
  std::ostringstream out;
  out.precision(9);
  for (std::size_t c = 0; c < columns.size(); ++c) out << (c ? "," : "") << columns[c];
  out << '\n';
  for (long i = 0; i < rows(); ++i) {
    for (std::size_t c = 0; c < columns.size(); ++c) {
      if (c) out << ',';
      if (static_cast<int>(c) == textColumn) out << text[i];
      else out << values[c][i];
    }
    out << '\n';
  }
  return out.str();
}

std::string RunResult::json() const {
  if (command == "deform") throw std::invalid_argument("a deform table has no JSON form: write it as CSV");
  return trajectoryJson(*model, frames, true);
}

sim::Options kinematicsOptions() {
  sim::Options o;
  o.rangeBudgetSeconds = 0;  // no sliders to drag: their ranges are not searched
  o.deformables = false;     // the rigid mechanism (`deform` runs the parts)
  return o;
}

sim::Options simulateOptions() {
  sim::Options o = kinematicsOptions();
  o.sliders = false;  // the dynamics runs on the file model: no DOF analysis
  return o;
}

sim::Options deformOptions(double dt, const DeformSettings& s) {
  sim::Options o = kinematicsOptions();
  o.deformables = true;
  o.deformStep = dt;
  o.deformMethod = s.method;
  o.deformControl = s.control;
  o.deformModes = s.modes;
  o.backend = s.backend;
  return o;
}

// ---- kinematics ----

RunResult runKinematics(const sim::Model& m, double tEnd, double dt, const RunStop& stop) {
  const long steps = runSteps("kinematics", tEnd, dt);
  RunResult r;
  r.command = "kinematics";
  r.model = m.file;
  const auto wall0 = std::chrono::steady_clock::now();
  sim::Data d = sim::makeData(m);
  r.frames.reserve(static_cast<size_t>(steps) + 1);
  double maxResidual = 0;
  long totalIterations = 0;
  int singularCount = 0;
  double firstSingular = -1;
  for (long k = 0; k <= steps; ++k) {
    if (k > 0 && stopped(stop, r)) break;
    const double t = k * dt;
    // Position, velocity and acceleration analysis at t (t = 0: the assembly makeData solved),
    // starting from the previous solution.
    const bool ok = k == 0 ? d.rigid.stats.converged : sim::advanceTo(m, d, t);
    if (!ok) {
      r.failure = d.rigid.stats.message;  // "cannot assemble at t = …: …; the last good pose (t = …) is kept"
      break;
    }
    const mechsim::Data& s = d.rigid;
    if (!s.q.allFinite() || !s.qd.allFinite() || !s.qdd.allFinite()) {
      r.failure = format("non-finite state at t = %.9g s (a driver expression may be undefined there)", t);
      break;
    }
    maxResidual = std::max(maxResidual, s.stats.residual);
    totalIterations += s.stats.iterations;
    if (s.stats.singular && singularCount++ == 0) firstSingular = t;
    r.frames.push_back({t, s.q, s.qd, s.qdd, s.coords, s.coordVel, s.coordAcc, {}});
  }
  const double wall = seconds(wall0);
  const size_t n = r.frames.size();
  r.summary = format("kinematics: %zu steps, wall %.3f s, %.2f Newton iterations per step, max residual %.3g", n, wall,
                     n == 0 ? 0.0 : double(totalIterations) / n, maxResidual);
  if (singularCount) r.summary += format(", singular at %d steps (first at t = %.6g s)", singularCount, firstSingular);
  fillTrajectoryTable(r, true);
  return r;
}

// ---- simulate ----

RunResult runSimulate(const sim::Model& m, double tEnd, std::optional<double> dtGiven, const RunStop& stop) {
  const double dt = dtGiven ? *dtGiven : m.file->dynamics.timestep;  // the file's solver.timestep (default 1e-3 s)
  const long steps = runSteps("simulate", tEnd, dt);
  const Model& model = *m.file;
  RunResult r;
  r.command = "simulate";
  r.model = m.file;
  for (const Joint& j : model.joints)
    for (const char* s : {".Fx", ".Fy", ".Fz", ".Tx", ".Ty", ".Tz"}) r.extraColumns.push_back(j.name + s);
  for (const char* s : {"energy.kinetic", "energy.potential", "energy.total"}) r.extraColumns.push_back(s);

  sim::Data sd = sim::makeData(m);
  const auto wall0 = std::chrono::steady_clock::now();
  const std::clock_t cpu0 = std::clock();
  if (!sim::startFromFile(m, sd)) r.failure = "initial state: " + sd.message;
  // A coordinate that started beyond a joint limit was moved onto it (DynamicsStepper::initialize).
  if (sd.dynamics)
    for (const std::string& n : sd.dynamics->stats().notices) r.warnings.push_back(n);
  // A row: the dynamics' own state (of the file model), its reactions and energy.
  auto frame = [&]() {
    const Data& d = sd.dynamics->data();
    TrajectoryFrame f{d.t, d.q, d.qd, d.qdd, d.coords, d.coordVel, d.coordAcc, {}};
    for (const JointReaction& jr : sd.dynamics->reactions()) {
      for (int k = 0; k < 3; ++k) f.extra.push_back(jr.force(k));
      for (int k = 0; k < 3; ++k) f.extra.push_back(jr.torque(k));
    }
    const EnergyReport e = sd.dynamics->energy();
    f.extra.insert(f.extra.end(), {e.kinetic, e.potential, e.total()});
    return f;
  };
  double e0 = 0, maxDrift = 0;
  long totalRiley = 0;
  if (r.failure.empty()) {
    r.frames.reserve(static_cast<size_t>(std::min<double>(steps, 1e6)) + 1);
    r.frames.push_back(frame());
    e0 = r.frames.back().extra.back();
    for (long k = 1; k <= steps; ++k) {
      if (stopped(stop, r)) break;
      if (!sim::stepDynamics(m, sd, dt)) {
        r.failure = format("step failed at t = %.9g s: %s", sd.dynamics->data().t, sd.dynamics->stats().message.c_str());
        break;
      }
      totalRiley += sd.dynamics->stats().rileyIterations;
      r.frames.push_back(frame());
      maxDrift = std::max(maxDrift, std::abs(r.frames.back().extra.back() - e0));
    }
  }
  const double wall = seconds(wall0);
  const double cpu = double(std::clock() - cpu0) / CLOCKS_PER_SEC;
  const double eEnd = r.frames.empty() ? 0.0 : r.frames.back().extra.back();
  const DynamicsStats stats = sd.dynamics ? sd.dynamics->stats() : DynamicsStats{};
  const size_t n = r.frames.size();
  r.summary = format(
      "simulate: %zu steps of %.3g s, CPU %.3f s (wall %.3f s), energy %.9g -> %.9g J (drift %.3g J, max |E - E0| %.3g J), "
      "max constraint residual %.3g, %.1f Riley iterations per step (mu %.3g, s %.3g)",
      n == 0 ? size_t(0) : n - 1, dt, cpu, wall, e0, eEnd, eEnd - e0, maxDrift, stats.maxResidual,
      n > 1 ? double(totalRiley) / double(n - 1) : 0.0, stats.mu, stats.s);
  fillTrajectoryTable(r, true);
  return r;
}

// ---- deform ----

namespace {
std::string formatSeconds(double s) { return format("%.2f", s); }
}  // namespace

RunResult runDeform(const sim::Model& m, double tEnd, double dt, const DeformSettings& settings, const RunStop& stop) {
  const long steps = runSteps("deform", tEnd, dt);
  if (m.spec && m.spec->deformables.empty())
    throw std::invalid_argument(m.spec->sourceFile + " has no deformable parts (\"deformables\")");
  if (!m.spec || m.parts.size() != m.spec->deformables.size())
    throw std::invalid_argument(m.message.empty() ? std::string("the model has no deformable parts") : m.message);
  for (const sim::PartModel& p : m.parts)
    if (p.model->h != dt)
      throw std::invalid_argument(format("part \"%s\" was compiled for steps of %.9g s, not %.9g s: compile the model "
                                         "with deformOptions(dt)", p.name.c_str(), p.model->h, dt));
  if (!settings.vtkDir.empty() && settings.vtkEvery < 1) throw std::invalid_argument("--vtk-every must be at least 1");

  RunResult r;
  r.command = "deform";
  r.columns = {"t", "part", "iterations", "converged", "centroid_x", "centroid_y", "centroid_z", "max_speed",
               "attach_error"};
  r.textColumn = 1;
  r.values.assign(r.columns.size(), {});
  sim::Data d = sim::makeData(m);
  std::string methods, backends;  // the parts' methods and backends, for the summary line
  std::string precomputed;         // the JGS2 parts' precomputations: read or computed
  for (std::size_t k = 0; k < m.parts.size(); ++k) {
    const sim::PartModel& p = m.parts[k];
    if (!methods.empty()) methods += ", ";
    methods += deform::toString(p.solve.method);
    if (p.jgs2) {
      if (!p.precomputation.warning.empty()) r.warnings.push_back("part \"" + p.name + "\": " + p.precomputation.warning);
      if (!precomputed.empty()) precomputed += ", ";
      precomputed += p.precomputation.fromCache ? std::string("read from the cache")
                                                : "computed in " + formatSeconds(p.precomputation.seconds) + " s" +
                                                      (p.precomputation.saved ? ", saved" : "");
    }
    if (!p.cpuReason.empty()) r.warnings.push_back("part \"" + p.name + "\" runs on the CPU: " + p.cpuReason);
    if (p.device && !d.parts[k].device) {  // the upload failed (device memory)
      if (settings.backend == sim::Backend::Cuda)
        throw std::runtime_error("part \"" + p.name + "\": --backend cuda: " + d.message);
      r.warnings.push_back(d.message);
    }
    if (!backends.empty()) backends += ", ";
    backends += d.parts[k].device ? "cuda" : "cpu";
  }

  // --vtk: each part's states as DIR/<stem>_<i>.vtu, then DIR/<stem>.pvd.
  const std::string& vtkDir = settings.vtkDir;
  std::vector<std::string> stems(m.parts.size());
  std::vector<std::vector<std::pair<double, std::string>>> vtkSteps(m.parts.size());
  if (!vtkDir.empty()) {
    std::error_code ec;
    std::filesystem::create_directories(vtkDir, ec);
    if (!std::filesystem::is_directory(vtkDir, ec)) throw std::runtime_error("--vtk: cannot make the folder '" + vtkDir + "'");
    std::vector<std::string> names;
    for (const sim::PartModel& p : m.parts) names.push_back(p.name);
    stems = fileStems(names);
  }
  // Part k's state at t_i (atomically; a state that is not finite is not written, the run ends there anyway).
  auto writeVtk = [&](std::size_t k, long i, double t) {
    const sim::PartModel& p = m.parts[k];
    const sim::PartState& s = d.parts[k];
    if (!s.x.allFinite() || !s.v.allFinite()) return;
    const std::string file = stems[k] + format("_%06ld.vtu", i);
    const VecX disp = s.x - p.rest;
    std::vector<VtkField> cellData = {{"von_mises", 1, deform::tetVonMises(*p.model, s.x)}};
    std::vector<VtkField> pointData = {{"displacement", 3, {disp.data(), disp.data() + disp.size()}},
                                       {"velocity", 3, {s.v.data(), s.v.data() + s.v.size()}},
                                       {"von_mises", 1, deform::vertexVonMises(*p.model, cellData[0].values)}};
    writeFileAtomically((std::filesystem::path(vtkDir) / file).string(),
                        vtuText(p.model->mesh.tets, s.x, pointData, cellData));
    vtkSteps[k].emplace_back(t, file);
  };

  long totalIterations = 0, solves = 0, capped = 0, stepsDone = 0;  // stepsDone: every part stepped
  double maxAttach = 0;
  const auto wall0 = std::chrono::steady_clock::now();
  for (long i = 0; i <= steps && r.failure.empty(); ++i) {
    if (i > 0 && stopped(stop, r)) break;
    const double t = i * dt;
    // The bodies at t_i (t = 0: the assembly makeData solved), then one step of every part.
    if (!(i == 0 ? d.rigid.stats.converged : sim::advanceTo(m, d, t))) {
      r.failure = d.rigid.stats.message;  // names t and the pose kept (core/kinematics/position.cpp)
      break;
    }
    if (i > 0) sim::stepDeformables(m, d);
    for (std::size_t k = 0; k < m.parts.size(); ++k) {
      const sim::PartModel& p = m.parts[k];
      const sim::PartState& s = d.parts[k];
      deform::SolveStats st;
      if (i > 0) {
        st = s.last;
        totalIterations += st.iterations;
        ++solves;
      } else {
        st.converged = true;
      }
      // The part's own largest attachment error (Data::attachError is the largest of all parts).
      double attach = 0, speed = 0;
      for (const deform::Attachment& a : p.model->attachments) {
        const int b = m.partBodies[a.body];
        attach = std::max(attach, (s.x.segment<3>(3 * a.vertex) - bodyPose(*m.file, d.rigid.q, b).apply(a.local)).norm());
      }
      Vec3 centroid = Vec3::Zero();
      const int nv = p.model->vertexCount();
      for (int v = 0; v < nv; ++v) {
        centroid += s.x.segment<3>(3 * v) / nv;
        speed = std::max(speed, s.v.segment<3>(3 * v).norm());
      }
      maxAttach = std::max(maxAttach, attach);
      if (!vtkDir.empty() && i % settings.vtkEvery == 0) {
        try {
          writeVtk(k, i, t);
        } catch (const std::exception& e) {
          r.failure = std::string("--vtk: ") + e.what();
        }
      }
      const double row[] = {t, 0, double(st.iterations), double(int(st.converged)), centroid.x(), centroid.y(),
                            centroid.z(), speed, attach};
      for (std::size_t c = 0; c < r.columns.size(); ++c)
        if (static_cast<int>(c) != r.textColumn) r.values[c].push_back(row[c]);
      r.text.push_back(p.name);
      if (!st.diverged && !st.cancelled && !st.converged && p.fileBudget) {
        ++capped;  // on the file's iteration budget: the reached state is kept
      } else if (st.diverged || !st.converged) {
        r.failure = "part \"" + p.name + "\" did not converge at t = " + std::to_string(t) + " s (" +
                    std::to_string(st.iterations) + " iterations)";
        if (!d.message.empty()) r.failure += ": " + d.message;
        break;
      }
    }
    if (i > 0 && r.failure.empty()) ++stepsDone;
  }
  const double wall = seconds(wall0);
  if (!vtkDir.empty()) try {  // the series, also after a failure: the states written
      for (std::size_t k = 0; k < m.parts.size(); ++k)
        writeFileAtomically((std::filesystem::path(vtkDir) / (stems[k] + ".pvd")).string(), pvdText(vtkSteps[k]));
    } catch (const std::exception& e) {
      if (r.failure.empty()) r.failure = std::string("--vtk: ") + e.what();
    }
  r.summary = format("deform: %zu part(s), %ld steps, method %s, backend %s, wall %.3f s, %.2f iterations per step, max "
                     "attachment error %.3g m",
                     m.parts.size(), stepsDone, methods.c_str(), backends.c_str(), wall,
                     solves ? double(totalIterations) / solves : 0.0, maxAttach);
  if (!precomputed.empty()) r.summary += ", JGS2 precomputation " + precomputed;
  if (capped > 0) r.summary += format(", %ld part step(s) stopped at the file's maxIterations", capped);
  if (!vtkDir.empty())
    r.summary += format(", VTK series %s (%zu states)",
                        (std::filesystem::path(vtkDir) / (stems.front() + ".pvd")).lexically_normal().c_str(),
                        vtkSteps.front().size());
  // The rows written: every time up to the failed step, whose row (if the part got one) says
  // converged 0 with the state the solve stopped at.
  if (!r.failure.empty() && !r.interrupted)
    r.failure += " after " + std::to_string(stepsDone) + " of " + std::to_string(steps) + " steps";
  return r;
}

}  // namespace mechsim::io
