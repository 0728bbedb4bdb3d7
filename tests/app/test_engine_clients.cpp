// tests/app/test_engine_clients.cpp — the command line and the GUI run one engine (core/sim): every
// example run the golden files hold (tests/data/golden/, written by `mechsim-cli` and checked
// against it by test_app_golden) is run here in-process the way the GUI's worker runs it
// (ui/simulation_controller.cpp: sim::compile with the default options — the sliders' range search
// included —, then sim::advance by dt per frame; sim::setDynamic for dynamics; the deformable parts
// one sim::stepDeformables per frame), and the trajectories must agree to |a − b| ≤ 1e-12 (1 + |b|).
//
// What differs between the two ways, and is allowed for:
//   - time: the GUI adds dt per frame (t + dt), the command line takes t_k = k·dt; the 1e-16
//     difference stays far inside the tolerance;
//   - the deformable parts' step: the GUI's is one display tick (1/60 s), the command's its --dt;
//     here the GUI's way takes the command's dt (Options::deformStep), all else at its defaults;
//   - dynamics: the command takes one step per --dt, the GUI steps of at most the file's time
//     step; with dt the file's time step (as here) these are the same. Both start from the file's
//     configuration and initial joint rates (sim::setDynamic at the file's start does what
//     sim::startFromFile does);
//   - accelerations: the drivers' second derivatives come from 5-point stencils of step 1e-3 s
//     (core/kinematics/driver.cpp), which turn a change of t in its last bit (the GUI's sum of dt
//     against k·dt) into a few 1e-9 of q̈; the accelerations (`.acc`, `.ax`, `.ay`, `.az`) compare
//     within 1e-8 (1 + |b|).
#include <QtTest>

#include <QFile>
#include <cmath>
#include <memory>

#include "core/io/engine.h"
#include "core/io/load.h"
#include "core/io/trajectory.h"
#include "core/kinematics/kinematics.h"
#include "core/sim/stages.h"
#include "tests/app/csv_compare.h"
#include "tests/app/mesh_dependent.h"

using namespace mechsim;

namespace {

QString goldenDir() { return QStringLiteral(MECHSIM_SOURCE_DIR "/tests/data/golden/"); }

struct Case {
  QString name, command, file;
  double tEnd = 0, dt = 0;
  QString method;  // deform --method
};

std::vector<Case> readCases() {
  std::vector<Case> out;
  QFile f(goldenDir() + "cases.txt");
  if (!f.open(QIODevice::ReadOnly)) return out;
  for (const QByteArray& raw : f.readAll().split('\n')) {
    const QString line = QString::fromUtf8(raw).trimmed();
    if (line.isEmpty() || line.startsWith('#')) continue;
    const QStringList w = line.split(' ', Qt::SkipEmptyParts);
    Case c{w[0], w[1], QStringLiteral(MECHSIM_SOURCE_DIR "/") + w[2]};
    for (int i = 3; i + 1 < w.size(); ++i) {
      if (w[i] == "--t-end") c.tEnd = w[i + 1].toDouble();
      if (w[i] == "--dt") c.dt = w[i + 1].toDouble();
      if (w[i] == "--method") c.method = w[i + 1];
    }
    out.push_back(c);
  }
  return out;
}

/// Compares the GUI's way with the command line's table: numbers within 1e-12 (1 + |b|), the
/// accelerations within 1e-8 (1 + |b|) (the stencils' noise, above), text exactly.
void compareTables(const mechsim::test::CsvTable& got, const mechsim::test::CsvTable& want) {
  mechsim::test::compareCsv(
      got, want,
      [](const QByteArray& column) {
        const bool acceleration = column.endsWith(".acc") || column.endsWith(".ax") || column.endsWith(".ay") ||
                                  column.endsWith(".az");
        return acceleration ? 1e-8 : 1e-12;
      },
      "the GUI's way");
}

QByteArray readFile(const QString& path) {
  QFile f(path);
  return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

sim::Model compileTheGuisWay(const QString& file, double deformStep, bool sliders = true) {
  sim::Options o;  // the GUI's: every default (sliders' ranges searched, one set of caps)
  o.deformStep = deformStep;
  o.sliders = sliders;
  o.jgs2 = sim::computeJgs2();  // never the user's cache
  auto spec = std::make_shared<const MechanismSpec>(io::readMechanismFile(file.toStdString()));
  return io::compileEngine(std::move(spec), o);
}

/// Rows of the trajectory CSV: the rigid state of d.
io::TrajectoryFrame row(const mechsim::Data& r) { return {r.t, r.q, r.qd, r.qdd, r.coords, r.coordVel, r.coordAcc, {}}; }

}  // namespace

class TestEngineClients : public QObject {
  Q_OBJECT
 private slots:
  void commandLineAndGuiAgree_data() {
    QTest::addColumn<int>("index");
    const std::vector<Case> cases = readCases();
    for (int i = 0; i < static_cast<int>(cases.size()); ++i) QTest::newRow(qPrintable(cases[i].name)) << i;
  }

  void commandLineAndGuiAgree() {
    QFETCH(int, index);
    const Case c = readCases()[index];
    const QByteArray golden = readFile(goldenDir() + c.name + ".csv");
    QVERIFY(!golden.isEmpty());
    if (c.command == "kinematics") {
      const sim::Model m = compileTheGuisWay(c.file, 1.0 / 60);
      sim::Data d = sim::makeData(m);
      std::vector<io::TrajectoryFrame> frames{row(d.rigid)};
      const long n = std::lround(std::floor(c.tEnd / c.dt + 1e-9));
      for (long k = 1; k <= n; ++k) {
        QVERIFY2(sim::advance(m, d, c.dt), d.message.c_str());
        frames.push_back(row(d.rigid));
      }
      compareTables(mechsim::test::parseCsv(QByteArray::fromStdString(io::trajectoryCsv(*m.file, frames, true))), mechsim::test::parseCsv(golden));
    } else if (c.command == "simulate") {
      // The sliders' analysis only sets up the sliders, which dynamics does not move; it is left
      // out (on the 221-body pools it takes minutes: a mobility analysis per free coordinate).
      const sim::Model m = compileTheGuisWay(c.file, 1.0 / 60, false);
      sim::Data d = sim::makeData(m);
      const double h = m.file->dynamics.timestep;
      QVERIFY2(sim::setDynamic(m, d, true), d.message.c_str());
      std::vector<std::string> extra;
      for (const Joint& j : m.file->joints)
        for (const char* s : {".Fx", ".Fy", ".Fz", ".Tx", ".Ty", ".Tz"}) extra.push_back(j.name + s);
      for (const char* s : {"energy.kinetic", "energy.potential", "energy.total"}) extra.push_back(s);
      auto dynamicRow = [&] {
        io::TrajectoryFrame f = row(d.dynamics->data());
        for (const JointReaction& r : d.dynamics->reactions())
          for (const Vec3* v : {&r.force, &r.torque}) f.extra.insert(f.extra.end(), {(*v)(0), (*v)(1), (*v)(2)});
        const EnergyReport e = d.dynamics->energy();
        f.extra.insert(f.extra.end(), {e.kinetic, e.potential, e.total()});
        return f;
      };
      std::vector<io::TrajectoryFrame> frames{dynamicRow()};
      const long n = std::lround(std::floor(c.tEnd / h + 1e-9));
      for (long k = 1; k <= n; ++k) {
        QVERIFY2(sim::advance(m, d, h), d.message.c_str());
        frames.push_back(dynamicRow());
      }
      compareTables(mechsim::test::parseCsv(QByteArray::fromStdString(io::trajectoryCsv(*m.file, frames, true, extra))),
                    mechsim::test::parseCsv(golden));
    } else if (c.command == "deform") {
      sim::Model m = compileTheGuisWay(c.file, c.dt);
      if (!c.method.isEmpty()) {  // --method: every part's solver
        sim::Options o = m.options;
        o.deformMethod = deform::methodFromString(c.method.toStdString());
        m = sim::compile(m.spec, m.file, o);
      }
      QVERIFY2(m.message.empty(), m.message.c_str());
      sim::Data d = sim::makeData(m);
      // The command's table: per part and frame its iterations, convergence, centroid, largest
      // vertex speed and attachment error.
      QByteArray csv = "t,part,iterations,converged,centroid_x,centroid_y,centroid_z,max_speed,attach_error\n";
      const long n = std::lround(std::floor(c.tEnd / c.dt + 1e-9));
      for (long k = 0; k <= n; ++k) {
        if (k > 0) {
          QVERIFY2(sim::advance(m, d, c.dt), d.message.c_str());
          QVERIFY2(sim::stepDeformables(m, d), d.message.c_str());
        }
        for (std::size_t p = 0; p < m.parts.size(); ++p) {
          const sim::PartState& s = d.parts[p];
          const deform::DeformableModel& pm = *m.parts[p].model;
          Vec3 centroid = Vec3::Zero();
          double speed = 0, attach = 0;
          for (int v = 0; v < pm.vertexCount(); ++v) {
            centroid += s.x.segment<3>(3 * v) / pm.vertexCount();
            speed = std::max(speed, s.v.segment<3>(3 * v).norm());
          }
          for (const deform::Attachment& a : pm.attachments)
            attach = std::max(attach, (s.x.segment<3>(3 * a.vertex) -
                                       bodyPose(*m.file, d.rigid.q, m.partBodies[a.body]).apply(a.local)).norm());
          const bool converged = k == 0 || s.last.converged;
          csv += QString("%1,%2,%3,%4,%5,%6,%7,%8,%9\n")
                     .arg(d.t(), 0, 'g', 9)
                     .arg(QString::fromStdString(m.parts[p].name))
                     .arg(k == 0 ? 0 : s.last.iterations)
                     .arg(int(converged))
                     .arg(centroid.x(), 0, 'g', 17)
                     .arg(centroid.y(), 0, 'g', 17)
                     .arg(centroid.z(), 0, 'g', 17)
                     .arg(speed, 0, 'g', 17)
                     .arg(attach, 0, 'g', 17)
                     .toUtf8();
        }
      }
      // The command writes 9 significant digits: compare at that precision. A run on a tet mesh
      // made at open time is compared as test_app_golden compares it (mesh_dependent.h).
      const mechsim::test::CsvTable got = mechsim::test::parseCsv(csv), want = mechsim::test::parseCsv(golden);
      if (mechsim::test::meshDependentCases().contains(c.name)) {
        mechsim::test::compareCsv(got, want, mechsim::test::meshDependentTolerance, "the engine's");
        return;
      }
      QCOMPARE(got.size(), want.size());
      for (int r = 1; r < want.size(); ++r)
        for (int col = 0; col < want[r].size(); ++col) {
          bool ok = false;
          const double b = want[r][col].toDouble(&ok);
          if (!ok) {
            QCOMPARE(got[r][col], want[r][col]);
            continue;
          }
          const double a = got[r][col].toDouble();
          QVERIFY2(std::abs(a - b) <= 5e-9 * std::abs(b) + 1e-15,
                   qPrintable(QString("row %1 col %2: %3 against %4").arg(r).arg(col).arg(a, 0, 'g', 17).arg(b, 0, 'g', 17)));
        }
    } else {
      QFAIL(qPrintable("unknown command " + c.command));
    }
  }
};

QTEST_APPLESS_MAIN(TestEngineClients)
#include "test_engine_clients.moc"
