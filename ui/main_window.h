#pragma once
// ui/main_window.h — the application window: the 3-D viewport, a model tree dock, menus (File:
// Open, Open Recent, Reload, Quit; View: Fit and what to show; Help: About), drag-and-drop of
// mechanism files, and a status bar with the model's counts.
//
// Files are loaded with io::loadModel on the GUI thread (parsing only, no solver); the model then
// goes to the SimulationController on its worker thread, whose frames come back to onFrame().
// A file that fails to load leaves the open mechanism shown and usable; the loader's
// `FILE:LINE:COL: error: ...` text goes to the error handler (a critical message box unless a
// test or the --screenshot mode installs its own).
#include <functional>
#include <memory>

#include <QMainWindow>
#include <QStringList>

#include "core/model.h"
#include "ui/scene.h"
#include "ui/simulation_controller.h"

class QAction;
class QLabel;
class QMenu;
class QTreeWidget;

namespace mechsim::ui {

class Viewport;

class MainWindow : public QMainWindow {
  Q_OBJECT
 public:
  explicit MainWindow(QWidget* parent = nullptr);
  ~MainWindow() override;

  /// Loads `path` and shows it. On failure: the error handler gets the loader's message, the
  /// current mechanism stays, returns false.
  bool openFile(const QString& path);

  /// Replaces the message box shown on a load error (tests, --screenshot mode).
  using ErrorHandler = std::function<void(const QString& message)>;
  void setErrorHandler(ErrorHandler handler) { errorHandler_ = std::move(handler); }

  const std::shared_ptr<const Model>& model() const { return model_; }
  const QString& currentFile() const { return currentFile_; }
  /// The text of the last load error (empty after a successful load).
  const QString& lastError() const { return lastError_; }
  /// The frame currently shown (its serial is 0 until the controller's first frame arrived).
  const Frame& currentFrame() const { return frame_; }
  Viewport* viewport() const { return viewport_; }
  QTreeWidget* modelTree() const { return tree_; }
  const SceneOptions& sceneOptions() const { return options_; }
  SimulationThread* simulation() const { return simulation_.get(); }

  /// The recent-files list as stored in QSettings (most recent first, at most kMaxRecent).
  QStringList recentFiles() const;
  static constexpr int kMaxRecent = 8;

 public slots:
  void openDialog();
  void reload();
  void about();

 signals:
  /// A file was loaded and shown (its initial frame).
  void modelLoaded(const QString& path);
  /// A frame from the controller was shown.
  void frameShown(quint64 serial);

 protected:
  void dragEnterEvent(QDragEnterEvent* e) override;
  void dropEvent(QDropEvent* e) override;

 private:
  void buildMenus();
  void onFrame(const Frame& frame);
  void showFrame(const Frame& frame, bool fit);
  void rebuildScene(bool fit);
  void fillTree();
  void updateTitleAndStatus();
  void addRecent(const QString& path);
  void refreshRecentMenu();
  void reportError(const QString& message);

  Viewport* viewport_ = nullptr;
  QTreeWidget* tree_ = nullptr;
  QLabel* countsLabel_ = nullptr;
  QMenu* recentMenu_ = nullptr;
  QAction* reloadAction_ = nullptr;

  std::unique_ptr<SimulationThread> simulation_;
  std::shared_ptr<const Model> model_;
  Frame frame_;
  SceneOptions options_;
  QString currentFile_;
  QString lastError_;
  ErrorHandler errorHandler_;
};

/// The file filter of the Open dialog.
QString mechanismFileFilter();
/// True when `path` names a file the Open dialog would offer (by extension).
bool isMechanismFile(const QString& path);

}  // namespace mechsim::ui
