// ui/dynamic_mode.cpp — the GUI's side of the dynamic mode (ui/dynamic_mode.h): status messages,
// plot sources and export columns.
#include "ui/dynamic_mode.h"

#include <algorithm>
#include <cmath>

#include <QAction>
#include <QMainWindow>
#include <QSignalBlocker>
#include <QStatusBar>

#include "core/io/trajectory.h"
#include "core/io/write.h"
#include "core/dynamics/dynamics.h"
#include "core/kinematics/kinematics.h"
#include "ui/history.h"
#include "ui/plot_dock.h"
#include "ui/simulation_controller.h"
#include "ui/trajectory_export.h"

namespace mechsim::ui {

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
