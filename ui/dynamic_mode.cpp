// ui/dynamic_mode.cpp — the GUI's dynamic mode (ui/dynamic_mode.h): the DynamicMode state, the
// SimulationController members that switch to it and drive it, its plot sources and its export
// columns.
#include "ui/dynamic_mode.h"

#include <algorithm>
#include <cmath>

#include <Eigen/Eigenvalues>
#include <QAction>
#include <QMainWindow>
#include <QSignalBlocker>
#include <QStatusBar>

#include "core/io/trajectory.h"
#include "core/io/write.h"
#include "core/kinematics/kinematics.h"
#include "ui/history.h"
#include "ui/plot_dock.h"
#include "ui/simulation_controller.h"
#include "ui/trajectory_export.h"

namespace mechsim::ui {
namespace {
constexpr double kPi = 3.14159265358979323846;
/// Perturbation spring (header): natural frequency of the whole mechanism on it, damping ratio,
/// and the caps that keep the explicit kicks of the dragged body stable.
constexpr double kSpringHz = 2.0;
constexpr double kSpringZeta = 0.7;
constexpr double kMaxOmegaH = 0.2;
constexpr double kMaxDampingH = 0.5;
}  // namespace

std::string dynamicModeProblem(const Model& m) {
  if (m.nMoving == 0) return "the mechanism has no moving body";
  for (const Body& b : m.bodies) {
    if (b.qIndex < 0) continue;
    if (!(b.mass > 0) || !std::isfinite(b.mass))
      return "body '" + b.name + "' has no mass: dynamic mode needs the mass and inertia of every moving body "
             "(\"mass\", \"inertia\" in the file)";
    Eigen::SelfAdjointEigenSolver<Mat3> es(b.inertia, Eigen::EigenvaluesOnly);
    if (!(es.eigenvalues().minCoeff() > 0))
      return "body '" + b.name + "' has no positive-definite inertia: dynamic mode needs it (\"inertia\" in the file)";
  }
  return {};
}

DynamicMode::DynamicMode(std::shared_ptr<const Model> model) : m_(std::move(model)), sim_(*m_), d_(makeData(*m_)) {}

bool DynamicMode::start(const VecX& q, const VecX& qd, double t) {
  message_ = dynamicModeProblem(*m_);
  if (!message_.empty()) return false;
  if (q.size() != m_->nq) {
    message_ = "the state does not belong to this mechanism";
    return false;
  }
  d_.q = q;
  d_.qd = qd.size() == m_->nq && qd.allFinite() ? qd : VecX::Zero(m_->nq);
  d_.t = t;
  work_ = 0;
  if (!sim_.initialize(d_, /*useInitialRates=*/false)) {
    message_ = sim_.stats().message;
    return false;
  }
  return true;
}

Vec3 DynamicMode::grabbedPoint() const {
  if (spring_.body < 0) return Vec3::Zero();
  return bodyPose(*m_, d_.q, spring_.body).apply(spring_.local);
}

Vec3 DynamicMode::springForce() const {
  // F = k (T − P) − c Ṗ, Ṗ = v_com + ω × (P − com) from the stepper's twist.
  const Body& b = m_->bodies[spring_.body];
  const int mv = b.qIndex / 7;
  const VecX& nu = sim_.twist();
  const Pose P = bodyPose(*m_, d_.q, spring_.body);
  const Vec3 x = P.apply(spring_.local), com = P.apply(b.com);
  Vec3 v = Vec3::Zero();
  if (nu.size() >= 6 * (mv + 1)) v = nu.segment<3>(6 * mv) + nu.segment<3>(6 * mv + 3).cross(x - com);
  return spring_.stiffness * (spring_.target - x) - spring_.damping * v;
}

bool DynamicMode::advance(double dt) {
  message_.clear();
  if (!(dt > 0)) return true;
  const double hMax = m_->dynamics.timestep > 0 ? m_->dynamics.timestep : 1e-3;
  const int n = std::max(1, static_cast<int>(std::ceil(dt / hMax - 1e-9)));
  const double h = dt / n;
  for (int k = 0; k < n; ++k) {
    const bool spring = springId_ >= 0;
    Vec3 f0 = Vec3::Zero(), x0 = Vec3::Zero();
    if (spring) f0 = springForce(), x0 = grabbedPoint();
    if (!sim_.step(d_, h)) {
      message_ = "dynamics step failed at t = " + std::to_string(d_.t) + " s: " + sim_.stats().message;
      return false;
    }
    // Work of the spring over the step (trapezoidal rule).
    if (spring) work_ += 0.5 * (f0 + springForce()).dot(grabbedPoint() - x0);
  }
  return true;
}

void DynamicMode::grab(const DragPoint& point, const Vec3& target) {
  release();
  const Body& b = m_->bodies[point.body];
  double total = 0;
  for (const Body& x : m_->bodies)
    if (x.qIndex >= 0) total += x.mass;
  const double h = m_->dynamics.timestep > 0 ? m_->dynamics.timestep : 1e-3;
  const double w0 = 2 * kPi * kSpringHz;
  spring_ = PerturbationSpring{};
  spring_.body = point.body;
  spring_.local = point.local;
  spring_.target = target;
  spring_.stiffness = std::min(total * w0 * w0, b.mass * (kMaxOmegaH / h) * (kMaxOmegaH / h));
  spring_.damping = std::min(2 * kSpringZeta * std::sqrt(spring_.stiffness * b.mass), kMaxDampingH * b.mass / h);
  target_ = target;
  springId_ = sim_.addPerturbation(spring_);
}

void DynamicMode::setTarget(const Vec3& target) {
  if (springId_ < 0 || !target.allFinite()) return;
  target_ = target;
  spring_.target = target;
  sim_.setPerturbationTarget(springId_, target);
}

void DynamicMode::release() {
  if (springId_ >= 0) sim_.removePerturbation(springId_);
  springId_ = -1;
}

// ---- SimulationController: the dynamic mode's side of the single time-advance function ----

void SimulationController::setDynamic(bool on) {
  if (!work_ || !model_) return;
  if (dragging_) endDrag();
  if (!on) {
    dyn_.reset();
    modeMessage_ = "Kinematic mode";
    // Back to the drivers: the sliders hold the pose the dynamics left.
    solvePositions(*work_, *data_, data_->t);
    finishPositions();
    publish(true);
    return;
  }
  auto mode = std::make_unique<DynamicMode>(model_);
  if (!mode->start(data_->q, data_->qd, data_->t)) {
    modeMessage_ = "Dynamic mode not available: " + mode->message();
    publish(false);
    return;
  }
  dyn_ = std::move(mode);
  const Vec3 g = model_->gravity;
  char buf[160];
  std::snprintf(buf, sizeof buf, "Dynamic mode: gravity (%g, %g, %g) m/s², time step %g s", g.x(), g.y(), g.z(),
                dyn_->timestep());
  modeMessage_ = buf;
  copyDynamicState();
  publish(true);
}

bool SimulationController::advanceDynamic(double dt) {
  const bool ok = dyn_->advance(dt);
  // A failure is shown once in the status bar; the last good state is kept.
  modeMessage_ = ok ? std::string() : dyn_->message();
  copyDynamicState();
  return ok;
}

void SimulationController::copyDynamicState() {
  const Data& s = dyn_->data();
  data_->t = s.t;
  data_->q = s.q;
  data_->qd = s.qd;
  data_->qdd = s.qdd;
  data_->stats = s.stats;
  data_->stats.iterations = dyn_->stats().rileyIterations;
  data_->stats.solveSeconds = dyn_->stats().seconds;
  updateJointCoordinates(*work_, *data_);
  // The sliders show where the dynamics is (file drivers that follow their expression: its value).
  for (const DofInfo& d : dofs_) {
    if (inputs_->follow[d.driver]) {
      inputs_->value[d.driver] = inputs_->at(d.driver, data_->t);
      continue;
    }
    double v = data_->coords[d.coordIndex];
    if (d.angular) v = unwrapNear(v, inputs_->value[d.driver]);
    inputs_->value[d.driver] = v;
  }
}

void SimulationController::restartDynamic(bool keepRates) {
  if (!dyn_) return;
  if (!dyn_->start(data_->q, keepRates ? data_->qd : VecX(), data_->t)) {
    modeMessage_ = "Dynamic mode: " + dyn_->message();
    dyn_.reset();
    return;
  }
  copyDynamicState();
}

void SimulationController::beginPerturbation(const DragPoint& point) {
  if (dragging_) endDrag();
  dragPoint_ = point;
  dragTarget_ = dragPointPosition(*model_, data_->q, point);
  dyn_->grab(point, dragTarget_);
  dragging_ = true;
  resumeAfterDrag_ = playing_;
  // Time runs while the spring pulls.
  if (!playing_) play();
  modeMessage_.clear();
}

void SimulationController::endPerturbation() {
  if (pendingTarget_) {
    dyn_->setTarget(*pendingTarget_);
    pendingTarget_.reset();
  }
  dyn_->release();
  dragging_ = false;
  if (!resumeAfterDrag_) pause();
  publish(true);
}

void SimulationController::fillDynamicFrame(Frame& f) const {
  f.modeMessage = modeMessage_;
  if (!dyn_) return;
  f.dynamic = true;
  const EnergyReport e = dyn_->energy();
  f.kinetic = e.kinetic;
  f.potential = e.potential;
  f.perturbationWork = dyn_->perturbationWork();
  for (const JointReaction& r : dyn_->reactions()) {
    f.reactionForce.push_back(r.force);
    f.reactionTorque.push_back(r.torque);
  }
  f.hasContact = dyn_->hasContact();
  if (f.hasContact) {
    const DynamicsStats& st = dyn_->stats();
    f.contactIterations = st.contactIterations;
    f.contactResidual = st.contactResidual;
    f.maxPenetration = st.maxPenetration;
    f.contacts.reserve(dyn_->contacts().size());
    for (const ContactReport& c : dyn_->contacts()) f.contacts.push_back({c.point, c.normal, c.normalImpulse});
  }
  if (dragging_) {
    f.dragPoint = dyn_->grabbedPoint();
    f.dragTarget = dyn_->target();
  }
}

// ---- main window ----

void showDynamicModeStatus(QMainWindow* window, QAction* dynamicAction, const Frame& frame) {
  if (!dynamicAction || !window) return;
  if (dynamicAction->isChecked() != frame.dynamic && frame.serial > 0) {
    const QSignalBlocker block(dynamicAction);
    dynamicAction->setChecked(frame.dynamic);
  }
  const QString msg = QString::fromStdString(frame.modeMessage);
  if (msg != dynamicAction->property("shownMessage").toString()) {
    dynamicAction->setProperty("shownMessage", msg);
    if (!msg.isEmpty()) window->statusBar()->showMessage(msg, 8000);
  }
}

// ---- plots and export ----

void appendDynamicPlotQuantities(const Model& m, std::vector<PlotQuantity>& out) {
  const QString energy = QObject::tr("Energy (dynamic mode)");
  out.push_back({energy, QObject::tr("kinetic (J)"), [](const Frame& f) { return f.dynamic ? f.kinetic : NAN; }});
  out.push_back({energy, QObject::tr("potential (J)"), [](const Frame& f) { return f.dynamic ? f.potential : NAN; }});
  out.push_back({energy, QObject::tr("total (J)"),
                 [](const Frame& f) { return f.dynamic ? f.kinetic + f.potential : NAN; }});
  out.push_back({energy, QObject::tr("drag work (J)"), [](const Frame& f) { return f.dynamic ? f.perturbationWork : NAN; }});
  if (m.contact.enabled) {
    const QString contact = QObject::tr("Contact (dynamic mode)");
    out.push_back({contact, QObject::tr("contacts"),
                   [](const Frame& f) { return f.hasContact ? double(f.contacts.size()) : NAN; }});
    out.push_back({contact, QObject::tr("RES (N·s)"), [](const Frame& f) { return f.hasContact ? f.contactResidual : NAN; }});
    out.push_back({contact, QObject::tr("LCP sweeps"),
                   [](const Frame& f) { return f.hasContact ? double(f.contactIterations) : NAN; }});
    out.push_back({contact, QObject::tr("max penetration (m)"),
                   [](const Frame& f) { return f.hasContact ? f.maxPenetration : NAN; }});
  }
  const QString reactions = QObject::tr("Reactions (dynamic mode)");
  const char* axes[3] = {"x", "y", "z"};
  for (int j = 0; j < static_cast<int>(m.joints.size()); ++j) {
    const QString name = QString::fromStdString(m.joints[j].name);
    for (int a = 0; a < 3; ++a)
      out.push_back({reactions, QStringLiteral("%1.F%2 (N)").arg(name, axes[a]), [j, a](const Frame& f) {
                       return f.dynamic && j < static_cast<int>(f.reactionForce.size()) ? f.reactionForce[j][a] : NAN;
                     }});
    out.push_back({reactions, QStringLiteral("%1 |F| (N)").arg(name), [j](const Frame& f) {
                     return f.dynamic && j < static_cast<int>(f.reactionForce.size()) ? f.reactionForce[j].norm() : NAN;
                   }});
    out.push_back({reactions, QStringLiteral("%1 |τ| (N·m)").arg(name), [j](const Frame& f) {
                     return f.dynamic && j < static_cast<int>(f.reactionTorque.size()) ? f.reactionTorque[j].norm() : NAN;
                   }});
  }
}

std::vector<std::string> addDynamicColumns(const Model& m, const History& history, std::vector<io::TrajectoryFrame>& rows) {
  bool any = false;
  for (int i = 0; i < history.size(); ++i) any = any || history.at(i).dynamic;
  if (!any || static_cast<int>(rows.size()) != history.size()) return {};
  std::vector<std::string> cols = {"dynamic", "energy.kinetic", "energy.potential", "energy.total"};
  const char* f[3] = {".Fx", ".Fy", ".Fz"};
  const char* tq[3] = {".Tx", ".Ty", ".Tz"};
  for (const Joint& j : m.joints) {
    for (const char* s : f) cols.push_back(j.name + s);
    for (const char* s : tq) cols.push_back(j.name + s);
  }
  Data d = makeData(m);
  const size_t nj = m.joints.size();
  for (int i = 0; i < history.size(); ++i) {
    const Frame& fr = history.at(i);
    std::vector<double>& x = rows[static_cast<size_t>(i)].extra;
    x.clear();
    double ke = fr.kinetic, pe = fr.potential;
    if (!fr.dynamic) {
      d.q = fr.q;
      d.qd = fr.qd.size() == m.nq ? fr.qd : VecX::Zero(m.nq);
      const EnergyReport e = mechanicalEnergy(m, d);
      ke = e.kinetic, pe = e.potential;
    }
    x.push_back(fr.dynamic ? 1.0 : 0.0);
    x.push_back(ke);
    x.push_back(pe);
    x.push_back(ke + pe);
    for (size_t j = 0; j < nj; ++j) {
      const bool has = fr.dynamic && j < fr.reactionForce.size() && j < fr.reactionTorque.size();
      for (int a = 0; a < 3; ++a) x.push_back(has ? fr.reactionForce[j][a] : 0.0);
      for (int a = 0; a < 3; ++a) x.push_back(has ? fr.reactionTorque[j][a] : 0.0);
    }
  }
  return cols;
}

void writeTrajectoryWithColumns(const std::string& path, const Model& m, const std::vector<io::TrajectoryFrame>& rows,
                                const std::vector<std::string>& extraColumns) {
  if (extraColumns.empty() || isJsonPath(path)) {
    writeTrajectory(path, m, rows);
    return;
  }
  io::writeFileAtomically(path, io::trajectoryCsv(m, rows, true, extraColumns));
}

}  // namespace mechsim::ui
