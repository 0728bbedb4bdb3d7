// ui/report_dialog.cpp — the mechanism report.
#include "ui/report_dialog.h"

#include <QDialogButtonBox>
#include <QTextBrowser>
#include <QVBoxLayout>

#include "ui/dof_panel.h"

namespace mechsim::ui {

QString mechanismReportHtml(const ModelInfo& info, const std::vector<SingularEvent>& singular) {
  const MobilityReport& r = info.mobility;
  QString h;
  const QString name = info.model ? QString::fromStdString(info.model->name).toHtmlEscaped() : QString();
  h += QStringLiteral("<h3>%1</h3>").arg(name.isEmpty() ? QObject::tr("Mechanism") : name);
  h += QStringLiteral("<table cellspacing=4>");
  auto row = [&](const QString& k, const QString& v) { h += QStringLiteral("<tr><td>%1</td><td><b>%2</b></td></tr>").arg(k, v); };
  row(QObject::tr("Coordinates"), QString::number(r.coordinates));
  row(QObject::tr("Equations (without drivers)"), QString::number(r.equations));
  row(QObject::tr("Grübler estimate"), QString::number(r.grubler));
  row(QObject::tr("Rank of Φ_q"), QString::number(r.rank));
  row(QObject::tr("Mobility (DOF)"), QString::number(r.dof));
  row(QObject::tr("DOF left by the drivers"), QString::number(r.dofDriven));
  row(QObject::tr("Redundant equations"), QString::number(r.redundant.size()));
  row(QObject::tr("Residual max |Φ|"), QString::number(r.residual, 'g', 3));
  row(QObject::tr("Singular at the file's configuration"), r.singular ? QObject::tr("yes") : QObject::tr("no"));
  h += QStringLiteral("</table>");
  if (!r.redundant.empty()) {
    h += QStringLiteral("<p>%1</p><ul>").arg(QObject::tr("Redundant equations:"));
    for (const std::string& e : r.redundant) h += QStringLiteral("<li><tt>%1</tt></li>").arg(QString::fromStdString(e).toHtmlEscaped());
    h += QStringLiteral("</ul>");
  }
  if (!info.dofs.empty()) {
    h += QStringLiteral("<p>%1</p><ul>").arg(QObject::tr("Driven DOFs:"));
    for (const DofInfo& d : info.dofs)
      h += QStringLiteral("<li>%1 <tt>%2</tt>, %3 … %4 %5 (%6)</li>")
               .arg(d.kind == DofKind::Driver ? QObject::tr("driver") : QObject::tr("coordinate"),
                    QString::fromStdString(d.name).toHtmlEscaped())
               .arg(DofPanel::toDisplay(d, d.lower), 0, 'g', 5)
               .arg(DofPanel::toDisplay(d, d.upper), 0, 'g', 5)
               .arg(d.angular ? QStringLiteral("°") : QStringLiteral("m"),
                    d.limitsFromFile ? QObject::tr("limits from the file") : QObject::tr("reachable range"));
    h += QStringLiteral("</ul>");
  }
  h += QStringLiteral("<p>%1</p>").arg(QObject::tr("Singular positions met: %1").arg(singular.size()));
  if (!singular.empty()) {
    h += QStringLiteral("<ul>");
    for (const SingularEvent& s : singular) {
      QStringList vals;
      for (size_t k = 0; k < s.dofValues.size() && k < info.dofs.size(); ++k)
        vals << QStringLiteral("%1 = %2").arg(QString::fromStdString(info.dofs[k].name).toHtmlEscaped())
                    .arg(DofPanel::toDisplay(info.dofs[k], s.dofValues[k]), 0, 'g', 5);
      h += QStringLiteral("<li>t = %1 s, rank %2: %3</li>").arg(s.t, 0, 'f', 4).arg(s.rank).arg(vals.join(", "));
    }
    h += QStringLiteral("</ul>");
  }
  if (!info.message.empty())
    h += QStringLiteral("<p><i>%1</i></p>").arg(QString::fromStdString(info.message).toHtmlEscaped());
  return h;
}

ReportDialog::ReportDialog(const ModelInfo& info, const std::vector<SingularEvent>& singular, QWidget* parent)
    : QDialog(parent) {
  setWindowTitle(tr("Mechanism Report"));
  setObjectName("mechanismReport");
  auto* lay = new QVBoxLayout(this);
  text_ = new QTextBrowser;
  text_->setHtml(mechanismReportHtml(info, singular));
  lay->addWidget(text_);
  auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close);
  connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
  lay->addWidget(buttons);
  resize(520, 480);
}

}  // namespace mechsim::ui
