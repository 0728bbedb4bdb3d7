// ui/export_dialog.cpp — the export choices.
#include "ui/export_dialog.h"

#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QRadioButton>
#include <QVBoxLayout>

namespace mechsim::ui {

ExportDialog::ExportDialog(const QString& suggestedPath, int historyFrames, QWidget* parent) : QDialog(parent) {
  setWindowTitle(tr("Export Trajectory"));
  setObjectName("exportDialog");
  auto* lay = new QVBoxLayout(this);
  history_ = new QRadioButton(tr("Recorded history (%1 frames)").arg(historyFrames));
  run_ = new QRadioButton(tr("Kinematic run of the file's drivers:"));
  history_->setChecked(historyFrames > 0);
  run_->setChecked(historyFrames == 0);
  lay->addWidget(history_);
  lay->addWidget(run_);
  auto* form = new QFormLayout;
  auto box = [](double v, double lo, double hi, int dec) {
    auto* b = new QDoubleSpinBox;
    b->setRange(lo, hi);
    b->setDecimals(dec);
    b->setValue(v);
    b->setSuffix(QStringLiteral(" s"));
    return b;
  };
  t0_ = box(0, -1e6, 1e6, 4);
  t1_ = box(2, -1e6, 1e6, 4);
  dt_ = box(0.01, 1e-6, 1e3, 6);
  form->addRow(tr("from t ="), t0_);
  form->addRow(tr("to t ="), t1_);
  form->addRow(tr("step"), dt_);
  lay->addLayout(form);
  auto* fileRow = new QHBoxLayout;
  path_ = new QLineEdit(suggestedPath);
  path_->setObjectName("exportPath");
  auto* browse = new QPushButton(tr("Browse…"));
  fileRow->addWidget(new QLabel(tr("File")));
  fileRow->addWidget(path_, 1);
  fileRow->addWidget(browse);
  lay->addLayout(fileRow);
  lay->addWidget(new QLabel(tr("<small>.csv: columns of FORMAT.md §3 with rates; .json: the same table as JSON. "
                               "SI units and radians.</small>")));
  auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel);
  buttons->button(QDialogButtonBox::Ok)->setText(tr("Export"));
  lay->addWidget(buttons);
  auto enableRange = [this] {
    for (QWidget* w : {static_cast<QWidget*>(t0_), static_cast<QWidget*>(t1_), static_cast<QWidget*>(dt_)})
      w->setEnabled(run_->isChecked());
  };
  connect(run_, &QRadioButton::toggled, this, enableRange);
  enableRange();
  connect(browse, &QPushButton::clicked, this, [this] {
    const QString p = QFileDialog::getSaveFileName(this, tr("Export Trajectory"), path_->text(),
                                                   tr("CSV (*.csv);;JSON (*.json)"));
    if (!p.isEmpty()) path_->setText(p);
  });
  connect(buttons, &QDialogButtonBox::accepted, this, [this] {
    if (!path_->text().trimmed().isEmpty() && request().range.rows() > 0) accept();
  });
  connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
}

ExportRequest ExportDialog::request() const {
  ExportRequest r;
  r.path = path_->text().trimmed();
  r.kinematicRun = run_->isChecked();
  r.range.t0 = t0_->value();
  r.range.t1 = t1_->value();
  r.range.dt = dt_->value();
  return r;
}

}  // namespace mechsim::ui
