#pragma once
// ui/main_window.h — the application window: the 3-D viewport in the middle; docks for the model
// tree, the DOF sliders (ui/dof_panel.h), the plots (ui/plot_dock.h) and the time bar
// (ui/timeline.h); menus File (Open, Open Recent, Reload, Save As, Export Trajectory, Record Video
// (ui/main_window_record.cpp), Quit),
// Edit (Undo, Redo), View (fit, what to show, docks, drag solver), Simulation (Play, Step, Reset,
// Dynamic mode, Deformable Solver), Mechanism (Report), Help; drag-and-drop of mechanism files; a
// status bar with the solver's state (kinematics or dynamics with its step; converged, singular,
// not met; the residual), Newton iterations, solve time per frame, frames per second, DOF and
// redundant equations, the file's units.
//
// Files are read (spec) and compiled on the GUI thread (parsing only, no solver); the model and
// its spec then go to the SimulationController on its worker thread, whose frames come back to
// onFrame(): recorded in the History, shown in the view, the sliders, the plots and the status
// bar. Handle drags (ui/drag_handler.h) and slider moves are requests to the controller, each
// wrapped in an undo command. A file that fails to load leaves the open mechanism shown and
// usable; the loader's `FILE:LINE:COL: error: ...` text goes to the error handler (a critical
// message box unless a test or the --screenshot mode installs its own). Window geometry, dock
// layout and view options are kept in QSettings between runs (View → Default Layout forgets the
// layout); the window opens within the screen's available area, restored or not.
#include <deque>
#include <functional>
#include <memory>
#include <optional>
#include <vector>

#include <QElapsedTimer>
#include <QMainWindow>
#include <QStringList>
#include <QTimer>

#include "core/io/comments.h"
#include "core/model.h"
#include "core/spec.h"
#include "core/spec_edit.h"
#include "core/spec_path.h"
#include "ui/export_dialog.h"
#include "ui/autosave.h"
#include "ui/history.h"
#include "ui/inspector.h"
#include "ui/measures.h"
#include "scene/picking.h"
#include "ui/report_dialog.h"
#include "scene/scene.h"
#include "ui/simulation_controller.h"
#include "scene/stress_colours.h"

class QAction;
class QActionGroup;
class QDockWidget;
class QLabel;
class QMenu;
class QTreeWidget;
class QUndoStack;

namespace mechsim::ui {

class DofPanel;
class DragHandler;
class ParameterPanel;
class PickTool;
class PlotPanel;
struct RecordRequest;
class Timeline;
class Viewport;

class MainWindow : public QMainWindow {
  Q_OBJECT
 public:
  explicit MainWindow(QWidget* parent = nullptr);
  ~MainWindow() override;

  /// Loads `path` and shows it. On failure: the error handler gets the loader's message, the
  /// current mechanism stays, returns false. The file is read on a worker thread; one that takes
  /// over 300 ms shows a modal progress dialog ("openProgress") whose Cancel stops the mesh reads:
  /// then it returns false with lastError() empty and the mechanism unchanged.
  bool openFile(const QString& path);

  /// File → Run Study…: the study dialog for `studyFile` (ui/study_dialog.h), shown, not modal; its
  /// "Open Run's Mechanism" opens the run's file here. Null (and the error handler told) when the
  /// study file does not read.
  class StudyDialog* openStudy(const QString& studyFile);

  /// Simulation → Deformable Solver: steps every deformable part with `method` ("newton", "vbd",
  /// "jacobi", "jgs2-jacobi", "jgs2-gs"), or with each part's own solver from the file when
  /// `method` is empty. The mechanism restarts from the file's configuration at t = 0 (a JGS2
  /// part is precomputed first, on the worker); Save As writes the solver chosen. Returns false,
  /// changing nothing, when the open mechanism has no deformable part or the name is unknown.
  bool setDeformableSolver(const QString& method);
  /// The solver chosen there ("" for the file's own): the menu's checked item.
  QString deformableSolver() const;

  /// Replaces the message box shown on a load error (tests, --screenshot mode).
  using ErrorHandler = std::function<void(const QString& message)>;
  void setErrorHandler(ErrorHandler handler) { errorHandler_ = std::move(handler); }

  const std::shared_ptr<const Model>& model() const { return model_; }
  const std::shared_ptr<const MechanismSpec>& spec() const { return spec_; }
  const QString& currentFile() const { return currentFile_; }
  /// The text of the last load (or save / export) error (empty after a success).
  const QString& lastError() const { return lastError_; }
  /// The frame currently shown (its serial is 0 until the controller's first frame arrived).
  const Frame& currentFrame() const { return frame_; }
  /// The DOFs and mobility of the current model (once the controller has analysed it).
  const ModelInfo& modelInfo() const { return info_; }
  const History& history() const { return history_; }
  const std::vector<SingularEvent>& singularEvents() const { return singular_; }
  Viewport* viewport() const { return viewport_; }
  QTreeWidget* modelTree() const { return tree_; }
  DofPanel* dofPanel() const { return dofPanel_; }
  Timeline* timeline() const { return timeline_; }
  PlotPanel* plotPanel() const { return plots_; }
  DragHandler* dragHandler() const { return dragHandler_; }
  QUndoStack* undoStack() const { return undo_; }
  const SceneOptions& sceneOptions() const { return options_; }
  SimulationThread* simulation() const { return simulation_.get(); }
  /// Frames shown per second, over the last second.
  double framesPerSecond() const { return fps_; }
  /// Simulated seconds per second of wall time over the last second (0 when time did not run).
  double realTimeFactor() const { return realTimeFactor_; }
  /// The selected body (−1: none).
  int selectedBody() const { return selectedBody_; }
  /// Stress colouring of the deformable parts (View → Colour Deformables by Stress): the range of
  /// the frame shown, in Pa (valid() false when off or nothing to colour).
  bool stressColouring() const { return stressColouring_; }
  double stressMin() const { return stressMin_; }
  double stressMax() const { return stressMax_; }
  /// The status bar's legend of the stress colours (its text names the range with units).
  QLabel* stressLegend() const { return stressLabel_; }

  /// The window within `available` (a screen's available geometry): shrunk to it when larger, its
  /// frame moved inside. The constructor and the first show fit it to its screen (fitToScreen).
  void fitInto(const QRect& available);
  void fitToScreen();
  /// Whether the first show fits the window to the screen and, without a saved layout, sizes the
  /// docks to the window (default true; --screenshot and the benchmarks turn it off: their 3-D
  /// view has the size they asked for).
  void setFitsScreen(bool on) { fitsScreen_ = on; }
  /// View → Default Layout: the docks as at the first start, the window at its default size
  /// (1440 × 900 or the screen's room), centred; the saved layout is forgotten.
  void resetLayout();
  /// The status bar's solver state ("Kinematics: converged · residual 2e-13", "Dynamics: step h =
  /// 1 ms · residual …") and the file's units ("Units: mm, deg").
  QLabel* solverStateLabel() const { return residualLabel_; }
  QLabel* unitsLabel() const { return unitsLabel_; }

  /// The recent-files list as stored in QSettings (most recent first, at most kMaxRecent).
  QStringList recentFiles() const;
  static constexpr int kMaxRecent = 8;

  /// Exports a trajectory as the dialog asks (progress dialog with cancel; atomic write).
  /// Returns false on failure or cancel (lastError() says which).
  bool exportTrajectory(const ExportRequest& request);
  /// Writes the deformable parts' recorded surfaces (every frame of the history) as VTK series
  /// into the folder `dir` (ui/deformable_export.h), with a progress dialog that can cancel.
  /// False on failure or cancel (lastError() says which; nothing is left written).
  bool exportDeformables(const QString& dir);
  QAction* exportDeformablesAction() const { return exportDeformAction_; }
  /// Writes the loaded spec in the native format (atomically). False on failure (lastError()).
  bool saveAs(const QString& path);
  /// File → Record Video…: renders and writes the recording `request` asks for (ui/video_recorder.h)
  /// with a progress dialog that can cancel; play pauses first. Playback and dynamic runs start
  /// from the state shown. False on failure or cancel (lastError() says which; nothing is left
  /// written). Implemented in ui/main_window_record.cpp.
  bool recordVideo(const RecordRequest& request);

  // ---- editing (ui/main_window_edit.cpp) ----
  // An edit makes a new spec from the one shown (a field set by path, a parameter moved, an item
  // added or removed), compiles it here (errors: at once, nothing changes) and hands it to the
  // controller, which assembles it from the pose reached; the window takes the new mechanism
  // when the controller accepts it (editDone) and shows the reason where the edit came from when
  // it refuses. Accepted edits are undoable (one command per field entry or slider gesture) and
  // mark the window modified until saved.

  Inspector* inspector() const { return inspector_; }
  ParameterPanel* parameterPanel() const { return parameters_; }
  /// Selects an item in the tree, the view (highlighted) and the inspector (nullopt: nothing).
  void select(const std::optional<SpecItem>& item);
  const std::optional<SpecItem>& selection() const { return selection_; }
  /// Sets the value at `path` of the spec shown (what the inspector asks). False: refused at once
  /// (the path's or the compiler's reason in lastEditMessage(); nothing changed); true: on its way
  /// to the controller (editFinished says how it ended).
  bool editValue(const QString& path, const SpecValue& value, const QString& label = QString());
  /// Moves parameter `name` to `value` (file units): the spec read again with it
  /// (io::specWithParameters). `final`: the end of a gesture (one undo command per gesture).
  bool setParameter(const QString& name, double value, bool final = true);
  /// File → New: an empty mechanism (a fixed ground body) to build on.
  void newMechanism();
  /// Mechanism → Add Body: a body of `type` at the view's centre, selected; returns its name ("" on failure).
  QString addBody(ShapeType type);
  /// Mechanism → Add Body → From Mesh File…: a body with the mesh of `path`.
  QString addMeshBody(const QString& path);
  /// Mechanism → Add Joint: two clicks in the view — the first body (empty space: the ground),
  /// then the second body where the joint goes; the face clicked gives the axis (its normal,
  /// snapped to a world axis within 5°). Esc cancels.
  void beginJointTool(JointType type);
  /// Mechanism → Add Handle: one click on a body.
  void beginHandleTool();
  void cancelTool();
  bool toolActive() const { return tool_.kind != Tool::None; }
  /// Mechanism → Add Driver: drives the selected joint (one turn per second for a turning joint,
  /// held at 0 for a sliding one); the expression is then edited in the inspector.
  bool addDriverToSelection();
  /// Edit → Delete: the selected item, and what hangs on it (a body's joints, handles, …).
  bool deleteSelection();
  /// File → Save: the file shown when it is a native file, else Save As. False on failure or cancel.
  bool save();
  /// Edits sent and not yet answered by the controller (tests wait for 0).
  bool editPending() const { return pendingEdit_.id != 0; }
  /// The last edit's outcome in words ("" when accepted without remark).
  const QString& lastEditMessage() const { return lastEditMessage_; }
  /// The comments of the file shown (Save and the autosave put them back).
  const io::FileComments& fileComments() const { return comments_; }

  // ---- traces and measures (Measure menu, ui/measures.h) ----
  /// Measure → Trace Point (one click on a body), Distance (two clicks), Angle (three clicks, the
  /// vertex second): the tool takes the view's clicks until it has its points. Esc cancels.
  void beginMeasureTool(Measure::Kind kind);
  /// Adds a measure of these body points (named P1, d1, angle1, … in order): traced in the view,
  /// offered in the plots' Measures group, written by Export Traces and the trajectory export.
  /// Returns its name, or empty when the points do not fit the kind.
  QString addMeasure(Measure::Kind kind, const std::vector<BodyPoint>& points);
  const std::vector<Measure>& measures() const { return measures_; }
  /// The path each traced point drew over the history (the scene's traces, oldest first).
  const std::vector<std::vector<Eigen::Vector3d>>& tracePaths();
  void clearMeasures();
  /// Measure → Export Traces…: writeMeasuresCsv of the recorded history. False: lastError() says why.
  bool exportMeasures(const QString& path);

  // ---- no lost work (ui/autosave.h) ----
  Autosave* autosave() const { return autosave_; }
  /// At start: the copies sessions killed before their end left (newest first) are offered one by
  /// one (setRecoveryHandler, else a question box); the first accepted is opened — its original
  /// file the document, marked modified — and each one declined is removed. True when one opened.
  bool offerRecovery();
  using RecoveryHandler = std::function<bool(const AutosavedCopy& copy)>;
  void setRecoveryHandler(RecoveryHandler h) { recoveryHandler_ = std::move(h); }
  /// Closing a modified mechanism asks Save / Discard / Cancel (setCloseHandler, else a question
  /// box); 0 Save, 1 Discard, 2 Cancel.
  using CloseHandler = std::function<int()>;
  void setCloseHandler(CloseHandler h) { closeHandler_ = std::move(h); }

  /// A frame's residual above this shows as a red status and red joint glyphs: far above the
  /// position analysis's tolerance (1e-10), so it means a constraint is really not met.
  static constexpr double kResidualShown = 1e-6;

 public slots:
  void openDialog();
  void reload();
  void about();
  void saveAsDialog();
  void exportDialog();
  void exportDeformablesDialog();
  void recordVideoDialog();
  void studyDialog();
  void showReport();

 signals:
  /// A file was loaded and shown (its initial frame).
  void modelLoaded(const QString& path);
  /// A frame from the controller was shown.
  void frameShown(quint64 serial);
  /// The controller's DOF analysis of the current model arrived.
  void modelInfoShown();
  /// An edit was answered: accepted (the mechanism shown is the edited one) or refused (why).
  void editFinished(bool accepted, const QString& message);

 protected:
  void dragEnterEvent(QDragEnterEvent* e) override;
  void dropEvent(QDropEvent* e) override;
  void closeEvent(QCloseEvent* e) override;
  void showEvent(QShowEvent* e) override;

 private:
  void buildMenus();
  void buildDocks();
  /// A dock of `w` (objectName `name`, for the saved layout), listed in the View menu.
  QDockWidget* addDock(const QString& title, const char* name, QWidget* w, Qt::DockWidgetArea area);
  void onFrame(const Frame& frame);
  void onModelInfo(const ModelInfo& info);
  void showFrame(const Frame& frame, bool fit);
  void rebuildScene(bool fit);
  void fillTree();
  void updateTitleAndStatus();
  void updateSolverStatus();
  /// Shows a loaded mechanism from its start: resets the history, the undo stack, the panels and
  /// the controller (openFile after a successful load; setDeformableSolver). `fit`: frame the view
  /// on it (a new file) or keep the camera (the same mechanism again). True when a JGS2 part is
  /// being precomputed (the status bar says so until the first frame).
  bool showMechanism(std::shared_ptr<const Model> model, std::shared_ptr<const MechanismSpec> spec, bool fit);
  /// Checks the Deformable Solver item of `method` ("": From the File).
  void checkDeformableSolver(const QString& method);
  /// The DOF sliders, the time bar and the status bar from the current frame.
  void showPanels();
  void addRecent(const QString& path);
  void refreshRecentMenu();
  void reportError(const QString& message);
  void onScrub(int index);
  void onGrab(const PickHit& hit, const Eigen::Vector3d& anchor);
  void pushStateCommand(const QString& text, const ControllerState& before, int mergeId);
  void saveSettings();
  void restoreSettings();
  QSize defaultSize() const;
  /// The docks' sizes as shares of the window (the first start, Default Layout).
  void sizeDocks();

  // Editing (ui/main_window_edit.cpp).
  /// Where an edit came from: where a refusal is shown, what the undo command says.
  struct EditOrigin {
    QString text;                       // the undo command's text ("Set B point")
    QString field;                      // an inspector field's path
    std::string parameter;              // a parameter's name
    bool final = true;                  // ends a gesture: the undo command is pushed
    bool undoing = false;               // an undo / redo: no new command
    std::optional<SpecItem> selectAfter;  // selected once accepted (a new item; a renamed one)
  };
  bool requestSpec(std::shared_ptr<const MechanismSpec> spec, EditOrigin origin);
  void onEditDone(const EditResult& result);
  /// Ends the edit gesture when `origin` is its last edit: one undo command for it, if it changed the spec.
  void closeGesture(const EditOrigin& origin);
  void refused(const EditOrigin& origin, const QString& message);
  /// The spec at the pose shown (what a tool that clicks in the view builds on: ui/pose_spec.h).
  MechanismSpec specHere() const;
  /// A building step: `change` edits specHere() and says what it did; a throw is refused in the
  /// status bar ("WHAT: why"), else the edit goes to the controller.
  bool build(const QString& what, const std::function<EditOrigin(MechanismSpec&)>& change);
  /// The origin of an item added: the undo text (TEXT with %1 the name), the item selected after.
  static EditOrigin added(SpecKind kind, const std::string& name, const QString& text);
  void onPicked(const std::optional<PickHit>& hit);
  void buildEditMenus(QMenu* file, QMenu* edit, QMenu* mech);
  void buildEditDocks();
  void onTreeSelection();
  void showSelection();

  Viewport* viewport_ = nullptr;
  QTreeWidget* tree_ = nullptr;
  DofPanel* dofPanel_ = nullptr;
  Timeline* timeline_ = nullptr;
  PlotPanel* plots_ = nullptr;
  DragHandler* dragHandler_ = nullptr;
  QUndoStack* undo_ = nullptr;
  QLabel* countsLabel_ = nullptr;
  QLabel* stressRamp_ = nullptr;   // the colour ramp …
  QLabel* stressLabel_ = nullptr;  // … and its range (stress colouring on)
  QLabel* residualLabel_ = nullptr;
  QLabel* solverLabel_ = nullptr;
  QLabel* fpsLabel_ = nullptr;
  QLabel* dofLabel_ = nullptr;
  QLabel* unitsLabel_ = nullptr;
  QMenu* recentMenu_ = nullptr;
  QMenu* viewMenu_ = nullptr;
  QAction* reloadAction_ = nullptr;
  QAction* floatingBaseAction_ = nullptr;  // File → URDF Root Floats: ImportOptions::floatingBase
  QAction* saveAsAction_ = nullptr;
  QAction* exportDeformAction_ = nullptr;  // File → Export Deformables (VTK): parts present only
  QAction* playAction_ = nullptr;
  QAction* stepAction_ = nullptr;
  QAction* resetAction_ = nullptr;
  QMenu* deformSolverMenu_ = nullptr;    // Simulation → Deformable Solver (enabled with parts)
  QActionGroup* deformSolvers_ = nullptr;
  std::vector<std::string> fileSolvers_; // each part's "solver" as the file gave it
  std::vector<QDockWidget*> docks_;
  QByteArray defaultState_;              // the dock layout as built (View → Default Layout)
  bool fitsScreen_ = true;
  bool stateRestored_ = false;           // the dock layout came from the last session
  bool shown_ = false;

  std::unique_ptr<SimulationThread> simulation_;
  std::shared_ptr<const Model> model_;
  std::shared_ptr<const MechanismSpec> spec_;
  ModelInfo info_;
  Frame frame_;
  History history_;
  int scrubIndex_ = -1;                  // the history frame scrubbed to (−1: live)
  std::vector<SingularEvent> singular_;
  bool lastSingular_ = false;
  SceneOptions options_;
  Scene gridCache_;                      // the grid of the model's first scene (kept while it moves)
  int selectedBody_ = -1;
  std::optional<DragPoint> trailPoint_;  // the point whose trail is drawn
  std::deque<Eigen::Vector3d> trail_;
  bool dragging_ = false;
  bool deformDragging_ = false;          // a soft handle on a deformable part is held
  bool stressColouring_ = false;
  std::vector<std::shared_ptr<const MeshData>> restSurfaces_;  // the file's deformable parts at rest (openFile)
  double stressMin_ = 0, stressMax_ = 0;
  StressRange stressHold_;  // the legend's range: grows from the frame colouring was switched on / the file opened
  ControllerState beforeEdit_;
  bool editing_ = false;
  // showPanels() at most every kPanelIntervalMs while dragging (onFrame); the timer catches up.
  static constexpr qint64 kPanelIntervalMs = 66;
  QElapsedTimer panelClock_;
  QTimer panelTimer_;
  // While dragging, a frame is acknowledged to the worker once the view has painted it (or after
  // kAckTimeoutMs without a paint), so the worker solves one frame per painted frame instead of
  // frames the GUI would build scenes for and never show.
  void acknowledgeFrame();
  static constexpr int kAckTimeoutMs = 100;
  bool ackPending_ = false;
  QTimer ackTimer_;
  QElapsedTimer fpsClock_;
  int fpsFrames_ = 0;
  double fps_ = 0;
  QElapsedTimer rtfClock_;                // the real-time factor's second of play
  double rtfT0_ = -1, rtfTLast_ = 0;      // simulated time at its start (−1: not playing), and of the last frame
  double realTimeFactor_ = 0;
  QString currentFile_;
  io::FileComments comments_;            // the file's comments, put back by Save (core/io/comments.h)
  QString lastError_;
  // Editing.
  Inspector* inspector_ = nullptr;
  ParameterPanel* parameters_ = nullptr;
  PickTool* pickTool_ = nullptr;
  std::optional<SpecItem> selection_;
  int selectedJoint_ = -1, selectedHandle_ = -1;
  struct Tool {
    enum Kind { None, Joint, Handle, Measure } kind = None;
    JointType type = JointType::Revolute;
    int step = 0;
    std::string body1;
    mechsim::ui::Measure::Kind measure = mechsim::ui::Measure::Trace;
    std::vector<BodyPoint> points;  // the measure's points clicked so far
  } tool_;
  void buildMeasureMenu();
  void measurePicked(const std::optional<PickHit>& hit);
  void updateMeasurePlots();
  void exportMeasuresDialog();
  std::vector<Measure> measures_;
  int measureCount_[3] = {0, 0, 0};       // names given per kind
  // The traced points' paths over the history, extended as frames are recorded.
  std::vector<std::vector<Eigen::Vector3d>> tracePaths_;
  int traceFrames_ = 0;                   // history frames they cover …
  long traceDropped_ = 0;                 // … counted from this many dropped
  double traceLastT_ = 0;                 // the last one's time
  struct PendingEdit {
    quint64 id = 0;
    EditOrigin origin;
  } pendingEdit_;
  quint64 nextEditId_ = 1;
  std::shared_ptr<const MechanismSpec> gestureBefore_;  // the spec before the edit gesture in progress
  QString lastEditMessage_;
  QAction* saveAction_ = nullptr;
  Autosave* autosave_ = nullptr;
  RecoveryHandler recoveryHandler_;
  CloseHandler closeHandler_;
  ErrorHandler errorHandler_;
};

/// The file filter of the Open dialog.
QString mechanismFileFilter();
/// True when `path` names a file the Open dialog would offer (by extension).
bool isMechanismFile(const QString& path);

}  // namespace mechsim::ui
