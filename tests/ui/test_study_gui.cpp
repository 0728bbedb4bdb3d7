// tests/ui/test_study_gui.cpp — File → Run Study… as a person uses it (ui/study_dialog.h): the grid
// study of the parametric four-bar started with a click runs to the end with its progress bar
// full, the scatter plot shows every run that succeeded, the table lists all 24 with the failed
// ones marked; selecting a run and clicking "Open Run's Mechanism" opens that run's four-bar in
// the main window; Cancel on a longer study keeps the finished runs, and Start continues the same
// table to the end (every run once). The dialog's screenshot goes to <build>/screenshots/.
#include <QFile>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QSet>
#include <QSignalSpy>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTextStream>
#include <QtTest>

#include "ui/main_window.h"
#include "ui/study_dialog.h"
#include "window_test_util.h"

using namespace mechsim;
using namespace mechsim::test;

namespace {
QStringList lines(const QString& path) {
  QFile f(path);
  if (!f.open(QIODevice::ReadOnly | QIODevice::Text)) return {};
  return QTextStream(&f).readAll().split('\n', Qt::SkipEmptyParts);
}
}  // namespace

class TestStudyGui : public QObject {
  Q_OBJECT
 private slots:
  void initTestCase() { useFreshSettings("test_study_gui"); }
  void gridStudyRunsPlotsAndOpensARun();
  void cancelKeepsTheRunsAndStartContinues();
  void badStudyFileIsReported();
};

void TestStudyGui::gridStudyRunsPlotsAndOpensARun() {
  QTemporaryDir dir;
  ui::MainWindow w;
  QStringList errors;
  w.setErrorHandler([&](const QString& m) { errors << m; });
  w.resize(1200, 800);
  w.show();
  QVERIFY(QTest::qWaitForWindowExposed(&w));
  QVERIFY(openAndWait(w, mechanism("fourbar.json")));
  QAction* action = findAction(&w, "Run Study");
  QVERIFY(action);
  ui::StudyDialog* d = w.openStudy(mechanism("studies/fourbar-grid.json"));
  QVERIFY(d);
  d->setResultsPath(dir.filePath("grid.csv"));
  QVERIFY(QTest::qWaitForWindowExposed(d));
  QSignalSpy finished(d, &ui::StudyDialog::finished);
  QTest::mouseClick(d->findChild<QPushButton*>("studyStart"), Qt::LeftButton);
  QVERIFY(finished.wait(60000));
  QCOMPARE(finished.front().front().toBool(), true);
  QCOMPARE(d->doneRuns(), 24L);
  QCOMPARE(d->findChild<QProgressBar*>("studyProgress")->value(), 24);
  QVERIFY(d->findChild<QLabel*>("studyStatus")->text().contains("Complete"));
  const QStringList table = lines(dir.filePath("grid.csv"));
  QCOMPARE(table.size(), 25);
  const int failed = static_cast<int>(table.filter(",failed,").size());
  QVERIFY(failed > 0 && failed < 24);
  QCOMPARE(d->plottedPoints(), 24 - failed);
  auto* runs = d->findChild<QTableWidget*>("studyRuns");
  QCOMPARE(runs->rowCount(), 24);
  d->resize(900, 800);
  QTest::qWait(200);
  QVERIFY(d->grab().save(QStringLiteral(MECHSIM_SCREENSHOT_DIR "/study_dialog.png"), "PNG"));

  // Open run 9's mechanism: the main window shows a four-bar with that run's crank (L2 = 0.16).
  QSignalSpy open(d, &ui::StudyDialog::openMechanism);
  runs->selectRow(9);
  auto* openButton = d->findChild<QPushButton*>("studyOpenRun");
  QVERIFY(openButton->isEnabled());
  QTest::mouseClick(openButton, Qt::LeftButton);
  QCOMPARE(open.size(), 1);
  const QString path = open.front().front().toString();
  QVERIFY(path.endsWith("fourbar-grid-run-9.json"));
  QVERIFY(QTest::qWaitFor([&] { return w.currentFile() == path && w.currentFrame().serial > 0; }, 20000));
  waitIdle(w);
  QVERIFY2(errors.isEmpty(), qPrintable(errors.join("\n")));
  QCOMPARE(w.model()->bodies.size(), size_t(4));
  const int crank = w.model()->findBody("crank"), coupler = w.model()->findBody("coupler");
  QVERIFY(crank >= 0 && coupler >= 0);
  // Joint B (the coupler's origin) is L2 from A (the origin) in the run's file.
  QVERIFY(std::abs(w.model()->bodies[coupler].pose0.position.norm() - 0.16) < 1e-9);
  d->close();
}

void TestStudyGui::cancelKeepsTheRunsAndStartContinues() {
  QTemporaryDir dir;
  ui::MainWindow w;
  w.setErrorHandler([](const QString&) {});
  w.show();
  ui::StudyDialog* d = w.openStudy(QStringLiteral(MECHSIM_SOURCE_DIR "/tests/data/studies/fourbar-slow.json"));
  QVERIFY(d);
  const QString out = dir.filePath("slow.csv");
  d->setResultsPath(out);
  QSignalSpy finished(d, &ui::StudyDialog::finished);
  QTest::mouseClick(d->findChild<QPushButton*>("studyStart"), Qt::LeftButton);
  QVERIFY(QTest::qWaitFor([&] { return d->doneRuns() >= 20; }, 60000));
  QTest::mouseClick(d->findChild<QPushButton*>("studyCancel"), Qt::LeftButton);
  QVERIFY(finished.wait(60000));
  QCOMPARE(finished.front().front().toBool(), false);
  const long kept = static_cast<long>(lines(out).size()) - 1;
  QVERIFY2(kept >= 20 && kept < 200, qPrintable(QString::number(kept)));
  QVERIFY(d->findChild<QLabel*>("studyStatus")->text().contains("Cancelled"));
  QVERIFY(d->findChild<QPushButton*>("studyStart")->isEnabled());
  // Start again: the same table, to the end.
  finished.clear();
  QTest::mouseClick(d->findChild<QPushButton*>("studyStart"), Qt::LeftButton);
  QVERIFY(finished.wait(120000));
  QCOMPARE(finished.front().front().toBool(), true);
  const QStringList table = lines(out);
  QCOMPARE(table.size(), 201);
  QSet<long> ids;
  for (int i = 1; i < table.size(); ++i) ids.insert(table[i].section(',', 0, 0).toLong());
  QCOMPARE(ids.size(), 200);
  for (int i = 1; i < table.size(); ++i) QCOMPARE(table[i].section(',', 0, 0).toLong(), long(i - 1));  // sorted
  d->close();
}

void TestStudyGui::badStudyFileIsReported() {
  QTemporaryDir dir;
  QFile f(dir.filePath("bad.json"));
  QVERIFY(f.open(QIODevice::WriteOnly));
  f.write("{\"mechsim-study\": 1, \"mechanism\": \"nowhere.json\"}\n");
  f.close();
  ui::MainWindow w;
  QStringList errors;
  w.setErrorHandler([&](const QString& m) { errors << m; });
  QVERIFY(!w.openStudy(dir.filePath("bad.json")));
  QCOMPARE(errors.size(), 1);
  QVERIFY2(errors.front().contains("bad.json:1:1: error:"), qPrintable(errors.front()));
}

QTEST_MAIN(TestStudyGui)
#include "test_study_gui.moc"
