#pragma once
// tests/ui/interaction_util.h — what the tests that use the main window as a person would
// (test_interaction.cpp, test_dynamic_mode.cpp) share: showing the window with a mechanism open,
// the pixel where a world point is drawn, mouse drags in steps, and reading back written files.
#include <QFile>
#include <QPoint>
#include <QSize>
#include <QString>
#include <QStringList>
#include <QTest>
#include <QWidget>

#include "tests/ui/window_test_util.h"
#include "ui/main_window.h"
#include "scene/picking.h"
#include "ui/viewport.h"

namespace mechsim::test {

/// Shows w at `size`, waits until it is the active window, then opens `path` and waits for its
/// first frame and an idle worker (openAndWait). False when either wait fails.
inline bool showAndOpen(ui::MainWindow& w, const QString& path, const QSize& size = QSize(1200, 800)) {
  w.resize(size);
  w.show();
  w.activateWindow();
  if (!QTest::qWaitForWindowActive(&w) || !openAndWait(w, path)) return false;
  // A load slow enough to show its progress dialog leaves no window active once the dialog has
  // closed: Xvfb has no window manager to hand the activation back, as a desktop's would.
  w.activateWindow();
  return QTest::qWaitForWindowActive(&w);
}

/// The viewport pixel where world point p is drawn ((-1, -1) when it is behind the camera).
inline QPoint pixelOf(ui::MainWindow& w, const Vec3& p) {
  const auto px = ui::projectToPixel(w.viewport()->camera(), p, w.viewport()->width(), w.viewport()->height());
  return px ? QPoint(qRound(px->x()), qRound(px->y())) : QPoint(-1, -1);
}

/// Moves the mouse over `target` from `from` to `to` in `steps` equal moves (the k-th at
/// from + (to − from)·k / steps, the last at `to`) with `modifiers` held, waiting `waitMs` after
/// each move when it is positive. No button is sent with the moves, as QTest::mouseMove does.
inline void moveInSteps(QWidget* target, const QPoint& from, const QPoint& to, int steps,
                        Qt::KeyboardModifiers modifiers = Qt::NoModifier, int waitMs = 0) {
  for (int k = 1; k <= steps; ++k) {
    QTest::mouseEvent(QTest::MouseMove, target, Qt::NoButton, modifiers, from + (to - from) * k / steps);
    if (waitMs > 0) QTest::qWait(waitMs);
  }
}

/// A left-button drag on `target`: press at `from`, moveInSteps to `to`, release at `to`.
inline void mouseDrag(QWidget* target, const QPoint& from, const QPoint& to, int steps) {
  QTest::mousePress(target, Qt::LeftButton, Qt::NoModifier, from);
  moveInSteps(target, from, to, steps);
  QTest::mouseRelease(target, Qt::LeftButton, Qt::NoModifier, to);
}

/// The lines of a text file without the trailing empty ones (empty when it cannot be read).
inline QStringList readLines(const QString& path) {
  QFile f(path);
  if (!f.open(QIODevice::ReadOnly)) return {};
  QStringList lines = QString::fromUtf8(f.readAll()).split('\n');
  while (!lines.isEmpty() && lines.last().isEmpty()) lines.removeLast();
  return lines;
}

}  // namespace mechsim::test
