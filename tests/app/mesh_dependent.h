#pragma once
// tests/app/mesh_dependent.h — the golden runs whose numbers depend on a tet mesh made at open
// time (tests/data/golden/mesh-dependent.txt, which says why), and the tolerance they get.
#include <QFile>
#include <QSet>
#include <QString>

#include <cmath>

namespace mechsim::test {

/// The names listed in tests/data/golden/mesh-dependent.txt.
inline QSet<QString> meshDependentCases() {
  QSet<QString> names;
  QFile f(QStringLiteral(MECHSIM_SOURCE_DIR "/tests/data/golden/mesh-dependent.txt"));
  if (!f.open(QIODevice::ReadOnly)) return names;
  for (const QByteArray& raw : f.readAll().split('\n')) {
    const QString line = QString::fromUtf8(raw).trimmed();
    if (!line.isEmpty() && !line.startsWith('#')) names.insert(line);
  }
  return names;
}

/// The tolerance of a column of a mesh-dependent run: relative 1e-2 (of 1 + |b|), iteration
/// counts unchecked.
inline double meshDependentTolerance(const QByteArray& column) { return column == "iterations" ? HUGE_VAL : 1e-2; }

}  // namespace mechsim::test
