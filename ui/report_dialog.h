#pragma once
// ui/report_dialog.h — Mechanism → Report: mobility (Grübler estimate, rank, DOF with and
// without drivers), the redundant equations by name, the residual, and the singular positions met
// during the session (time and DOF values where the position analysis reported a rank drop).
#include <QDialog>
#include <QString>
#include <vector>

#include "ui/simulation_controller.h"

class QTextBrowser;

namespace mechsim::ui {

/// A singular position met: when, and where the DOFs were.
struct SingularEvent {
  double t = 0;
  std::vector<double> dofValues;
  int rank = 0;
};

/// The report as HTML (also what the dialog shows).
QString mechanismReportHtml(const ModelInfo& info, const std::vector<SingularEvent>& singular);

class ReportDialog : public QDialog {
  Q_OBJECT
 public:
  ReportDialog(const ModelInfo& info, const std::vector<SingularEvent>& singular, QWidget* parent = nullptr);
  QTextBrowser* browser() const { return text_; }

 private:
  QTextBrowser* text_ = nullptr;
};

}  // namespace mechsim::ui
