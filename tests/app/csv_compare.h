#pragma once
// tests/app/csv_compare.h — two CSV tables compared cell by cell (test_golden, test_engine_clients):
// the same shape and header, text cells equal, numbers finite and within tol(column) · (1 + |b|).
#include <QtTest>

#include <cmath>
#include <functional>

namespace mechsim::test {

using CsvTable = QList<QList<QByteArray>>;

inline CsvTable parseCsv(const QByteArray& text) {
  CsvTable rows;
  for (const QByteArray& line : text.trimmed().split('\n')) rows.push_back(line.split(','));
  return rows;
}

/// QVERIFY / QCOMPARE failures return early (the caller follows with QTest::currentTestFailed()).
/// `what` names `got` in the messages; `worst` / `worstAt` (optional) receive the largest relative
/// difference and where it is.
inline void compareCsv(const CsvTable& got, const CsvTable& want, const std::function<double(const QByteArray&)>& tol,
                       const QString& what, double* worst = nullptr, QString* worstAt = nullptr) {
  QVERIFY2(!want.isEmpty(), "no reference table");
  QCOMPARE(got.size(), want.size());
  QCOMPARE(got[0], want[0]);  // the header
  for (int r = 1; r < want.size(); ++r) {
    QCOMPARE(got[r].size(), want[r].size());
    for (int c = 0; c < want[r].size(); ++c) {
      bool okA = false, okB = false;
      const double a = got[r][c].toDouble(&okA), b = want[r][c].toDouble(&okB);
      if (!okA || !okB) {
        QCOMPARE(got[r][c], want[r][c]);
        continue;
      }
      const QString column = QString::fromUtf8(want[0][c]);
      QVERIFY2(std::isfinite(a), qPrintable(QString("row %1, %2: not finite").arg(r).arg(column)));
      const double err = std::abs(a - b) / (1 + std::abs(b)), limit = tol(want[0][c]);
      if (worst && err > *worst) {
        *worst = err;
        if (worstAt) *worstAt = QString("row %1, %2").arg(r).arg(column);
      }
      QVERIFY2(err <= limit, qPrintable(QString("row %1, %2: %3 %4 against %5 (|a − b|/(1 + |b|) = %6, tolerance %7)")
                                            .arg(r)
                                            .arg(column)
                                            .arg(what)
                                            .arg(a, 0, 'g', 17)
                                            .arg(b, 0, 'g', 17)
                                            .arg(err, 0, 'g', 3)
                                            .arg(limit)));
    }
  }
}

}  // namespace mechsim::test
