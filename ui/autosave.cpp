// ui/autosave.cpp — the session's copy of a modified mechanism, and the copies of sessions that
// ended without removing theirs (ui/autosave.h).
#include "ui/autosave.h"

#include <algorithm>
#include <cerrno>
#include <csignal>

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSettings>
#include <QStatusBar>

#include "core/io/write.h"
#include "ui/main_window.h"
#include "ui/pose_spec.h"

namespace mechsim::ui {
namespace {
QString sessionBase(qint64 pid) { return Autosave::autosaveDir() + QStringLiteral("/session-%1").arg(pid); }

/// A process with this id is running (another window's copy is left alone).
bool running(qint64 pid) { return pid > 0 && (::kill(static_cast<pid_t>(pid), 0) == 0 || errno == EPERM); }
}  // namespace

Autosave::Autosave(MainWindow* window) : QObject(window), window_(window) {
  bool ok = false;
  const int seconds = qEnvironmentVariableIntValue("MECHSIM_AUTOSAVE_SECONDS", &ok);
  timer_.setInterval(ok && seconds > 0 ? 1000 * seconds : 30000);
  connect(&timer_, &QTimer::timeout, this, &Autosave::saveNow);
  timer_.start();
}

Autosave::~Autosave() = default;

QString Autosave::autosaveDir() { return QFileInfo(QSettings().fileName()).absolutePath() + QStringLiteral("/autosave"); }

QString Autosave::file() const { return sessionBase(QCoreApplication::applicationPid()) + ".json"; }

bool Autosave::saveNow() {
  if (!window_->isWindowModified() || !window_->spec()) {
    clear();
    return true;
  }
  const QString base = sessionBase(QCoreApplication::applicationPid());
  try {
    QDir().mkpath(autosaveDir());
    const auto& spec = *window_->spec();
    const auto& model = window_->model();
    const Frame& f = window_->currentFrame();
    const bool posed = model && f.poses.size() == model->bodies.size() && f.coords.size() == model->nCoords;
    // The mechanism first, then the line that says what it is: a copy is complete once both exist.
    io::writeMechanismFile(posed ? specAtPose(spec, *model, f.poses, f.coords) : spec, (base + ".json").toStdString(),
                           window_->fileComments());
    QJsonObject info{{"original", window_->currentFile()},
                     {"saved", QDateTime::currentDateTime().toString(Qt::ISODateWithMs)},
                     {"pid", QCoreApplication::applicationPid()}};
    io::writeFileAtomically((base + ".info").toStdString(), QJsonDocument(info).toJson(QJsonDocument::Compact).toStdString());
  } catch (const std::exception& e) {
    window_->statusBar()->showMessage(tr("Autosave failed: %1").arg(QString::fromStdString(e.what())), 10000);
    return false;
  }
  ++writes_;
  return true;
}

void Autosave::clear() {
  const QString base = sessionBase(QCoreApplication::applicationPid());
  QFile::remove(base + ".info");
  QFile::remove(base + ".json");
}

std::vector<AutosavedCopy> Autosave::orphans() {
  std::vector<AutosavedCopy> out;
  const QDir dir(autosaveDir());
  for (const QFileInfo& fi : dir.entryInfoList({QStringLiteral("session-*.info")}, QDir::Files)) {
    QFile f(fi.absoluteFilePath());
    if (!f.open(QIODevice::ReadOnly)) continue;
    const QJsonObject o = QJsonDocument::fromJson(f.readAll()).object();
    AutosavedCopy c;
    c.info = fi.absoluteFilePath();
    c.file = fi.absolutePath() + "/" + fi.completeBaseName() + ".json";
    c.original = o.value("original").toString();
    c.saved = QDateTime::fromString(o.value("saved").toString(), Qt::ISODateWithMs);
    c.pid = static_cast<qint64>(o.value("pid").toDouble());
    if (c.pid == QCoreApplication::applicationPid() || running(c.pid) || !QFileInfo::exists(c.file)) continue;
    out.push_back(c);
  }
  std::sort(out.begin(), out.end(), [](const AutosavedCopy& a, const AutosavedCopy& b) { return a.saved > b.saved; });
  return out;
}

void Autosave::discard(const AutosavedCopy& copy) {
  QFile::remove(copy.info);
  QFile::remove(copy.file);
}

}  // namespace mechsim::ui
