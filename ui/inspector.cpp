// ui/inspector.cpp — the fields of the selected item as editors on spec paths (ui/inspector.h).
#include "ui/inspector.h"

#include <cmath>
#include <stdexcept>

#include <QCheckBox>
#include <QComboBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QRegularExpression>
#include <QSignalBlocker>
#include <QVBoxLayout>

namespace mechsim::ui {
namespace {
QString qs(const std::string& s) { return QString::fromStdString(s); }

QString formatNumber(double v) { return QString::number(v, 'g', 10); }

const char* kindWord(SpecKind k) {
  switch (k) {
    case SpecKind::Body: return "Body";
    case SpecKind::Joint: return "Joint";
    case SpecKind::Driver: return "Driver";
    case SpecKind::Handle: return "Handle";
    case SpecKind::Deformable: return "Deformable part";
    case SpecKind::Spring: return "Spring";
    case SpecKind::JointSpring: return "Joint spring";
    case SpecKind::Motor: return "Motor";
  }
  return "";
}

const char* section(SpecKind k) {
  switch (k) {
    case SpecKind::Body: return "bodies";
    case SpecKind::Joint: return "joints";
    case SpecKind::Driver: return "drivers";
    case SpecKind::Handle: return "handles";
    case SpecKind::Deformable: return "deformables";
    case SpecKind::Spring: return "dynamics.springs";
    case SpecKind::JointSpring: return "dynamics.jointSprings";
    case SpecKind::Motor: return "dynamics.motors";
  }
  return "";
}

template <class T>
QStringList namesOf(const std::vector<T>& items) {
  QStringList l;
  for (const T& x : items) l << qs(x.name);
  return l;
}

template <class T>
const T* byName(const std::vector<T>& items, const std::string& name) {
  for (const T& x : items)
    if (x.name == name) return &x;
  return nullptr;
}

const QString kErrorStyle = QStringLiteral("QLineEdit { border: 1px solid #d02020; }");
}  // namespace

Inspector::Inspector(QWidget* parent) : QWidget(parent) {
  auto* layout = new QVBoxLayout(this);
  title_ = new QLabel;
  title_->setObjectName("inspectorTitle");
  QFont f = title_->font();
  f.setBold(true);
  title_->setFont(f);
  title_->setWordWrap(true);
  layout->addWidget(title_);
  body_ = new QWidget;
  form_ = new QFormLayout(body_);
  form_->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
  // A narrow dock puts a field under its label rather than squeezing it.
  form_->setRowWrapPolicy(QFormLayout::WrapLongRows);
  form_->setContentsMargins(0, 0, 0, 0);
  layout->addWidget(body_);
  layout->addStretch(1);
  showItem(nullptr, std::nullopt);
}

double Inspector::scaleOf(Unit u, int entry) const {
  const double ls = spec_ ? spec_->units.lengthScale() : 1.0, as = spec_ ? spec_->units.angleScale() : 1.0;
  switch (u) {
    case Unit::Length: return ls;
    case Unit::Angle: return as;
    case Unit::Inertia: return ls * ls;
    case Unit::AxisAngle: return entry == 3 ? as : 1.0;
    case Unit::None: return 1.0;
  }
  return 1.0;
}

void Inspector::showItem(const MechanismSpec* spec, const std::optional<SpecItem>& item) {
  spec_ = spec;
  item_ = spec ? item : std::nullopt;
  build();
}

void Inspector::refresh(const MechanismSpec* spec) {
  spec_ = spec;
  for (Field& f : fields_) readValue(f);
}

void Inspector::addHeading(const QString& text) {
  auto* l = new QLabel(QStringLiteral("<b>%1</b>").arg(text.toHtmlEscaped()));
  form_->addRow(l);
}

void Inspector::addField(Field f) {
  const QString unitText = [&]() -> QString {
    if (!spec_) return {};
    switch (f.unit) {
      case Unit::Length: return qs(spec_->units.length);
      case Unit::Angle: return qs(spec_->units.angle);
      case Unit::Inertia: return QStringLiteral("kg·") + qs(spec_->units.length) + QStringLiteral("²");
      case Unit::AxisAngle: return QStringLiteral("axis, %1").arg(qs(spec_->units.angle));
      case Unit::None: return {};
    }
    return {};
  }();
  const QString label = unitText.isEmpty() ? f.label : QStringLiteral("%1 (%2)").arg(f.label, unitText);
  auto* cell = new QWidget;
  auto* v = new QVBoxLayout(cell);
  v->setContentsMargins(0, 0, 0, 0);
  v->setSpacing(1);
  switch (f.type) {
    case Type::Bool: f.editor = new QCheckBox; break;
    case Type::Choice: {
      auto* c = new QComboBox;
      c->addItems(f.choices);
      f.editor = c;
      break;
    }
    default: {
      auto* e = new QLineEdit;
      if (!f.unsetText.isEmpty()) e->setPlaceholderText(f.unsetText);
      f.editor = e;
    }
  }
  f.editor->setObjectName("field:" + f.path);
  f.editor->setToolTip(f.path);
  f.error = new QLabel;
  f.error->setObjectName("error:" + f.path);
  f.error->setStyleSheet(QStringLiteral("color: #d02020"));
  f.error->setWordWrap(true);
  f.error->hide();
  v->addWidget(f.editor);
  v->addWidget(f.error);
  form_->addRow(label, cell);
  fields_.push_back(f);
  const int k = static_cast<int>(fields_.size()) - 1;
  readValue(fields_[k]);
  // Text fields commit on Return or when the focus leaves them changed; the others at once.
  if (auto* e = qobject_cast<QLineEdit*>(f.editor)) {
    connect(e, &QLineEdit::editingFinished, this, [this, k] {
      auto* ed = qobject_cast<QLineEdit*>(fields_[k].editor);
      if (ed && ed->isModified()) commit(fields_[k]);
    });
  } else if (auto* c = qobject_cast<QComboBox*>(f.editor)) {
    connect(c, &QComboBox::activated, this, [this, k](int) { commit(fields_[k]); });
  } else if (auto* b = qobject_cast<QCheckBox*>(f.editor)) {
    connect(b, &QCheckBox::toggled, this, [this, k](bool) { commit(fields_[k]); });
  }
}

void Inspector::readValue(Field& f) {
  if (!spec_ || !f.editor) return;
  SpecValue v;
  try {
    v = getSpecValue(*spec_, f.path.toStdString());
  } catch (const std::exception&) {
    return;  // the item went away (a rename or removal on its way): the next showItem rebuilds
  }
  const QSignalBlocker block(f.editor);
  if (auto* b = qobject_cast<QCheckBox*>(f.editor)) {
    b->setChecked(!v.numbers.empty() && v.numbers[0] != 0);
  } else if (auto* c = qobject_cast<QComboBox*>(f.editor)) {
    c->setCurrentIndex(c->findText(v.text ? qs(*v.text) : QString()));
  } else if (auto* e = qobject_cast<QLineEdit*>(f.editor)) {
    if (v.text) {
      e->setText(qs(*v.text));
    } else {
      QStringList parts;
      for (std::size_t i = 0; i < v.numbers.size(); ++i) parts << formatNumber(v.numbers[i] / scaleOf(f.unit, int(i)));
      e->setText(parts.join(", "));
    }
    e->setModified(false);
    e->setCursorPosition(0);
  }
}

void Inspector::commit(Field& f) {
  setFieldError(f.path, QString());
  SpecValue v;
  if (auto* b = qobject_cast<QCheckBox*>(f.editor)) {
    v.numbers = {b->isChecked() ? 1.0 : 0.0};
    v.count = 1;
  } else if (auto* c = qobject_cast<QComboBox*>(f.editor)) {
    v.text = c->currentText().toStdString();
  } else if (auto* e = qobject_cast<QLineEdit*>(f.editor)) {
    e->setModified(false);
    const QString text = e->text().trimmed();
    if (f.type == Type::Text) {
      v.text = text.toStdString();
    } else if (text.isEmpty() && f.optional) {
      v.count = 0;  // unset: back to what the file's default is (from the shapes, the file's distance)
    } else {
      const QStringList parts = text.split(QRegularExpression(QStringLiteral("[,;\\s]+")), Qt::SkipEmptyParts);
      const int want = f.type == Type::Number ? 1 : f.count;
      for (int i = 0; i < parts.size(); ++i) {
        bool ok = false;
        const double x = parts[i].toDouble(&ok);
        if (!ok || !std::isfinite(x)) {
          setFieldError(f.path, tr("\"%1\" is not a number").arg(parts[i]));
          return;
        }
        v.numbers.push_back(x * scaleOf(f.unit, i));
      }
      if (parts.size() != want) {
        setFieldError(f.path, want == 1 ? tr("expected a number") : tr("expected %1 numbers separated by commas").arg(want));
        return;
      }
      v.count = want;
    }
  }
  emit editRequested(f.path, v, f.label);
}

void Inspector::setFieldError(const QString& path, const QString& message) {
  for (Field& f : fields_) {
    if (f.path != path) continue;
    f.error->setText(message);
    f.error->setVisible(!message.isEmpty());
    if (qobject_cast<QLineEdit*>(f.editor)) f.editor->setStyleSheet(message.isEmpty() ? QString() : kErrorStyle);
  }
}

QString Inspector::fieldError(const QString& path) const {
  for (const Field& f : fields_)
    if (f.path == path && f.error->isVisible()) return f.error->text();
  return {};
}

QWidget* Inspector::field(const QString& path) const {
  for (const Field& f : fields_)
    if (f.path == path) return f.editor;
  return nullptr;
}

void Inspector::build() {
  fields_.clear();
  while (form_->rowCount() > 0) form_->removeRow(0);
  if (!spec_ || !item_) {
    title_->setText(tr("Select a body, joint, driver or handle in the model tree or the view to edit it."));
    return;
  }
  const SpecItem& it = *item_;
  title_->setText(QStringLiteral("%1 \u201c%2\u201d").arg(tr(kindWord(it.kind)), qs(it.name)));
  const QString p = QStringLiteral("%1.%2.").arg(QString::fromLatin1(section(it.kind)), qs(it.name));
  auto add = [&](const char* suffix, const QString& label, Type type, Unit unit = Unit::None, int count = 1) {
    Field f;
    f.path = p + QString::fromLatin1(suffix);
    f.label = label;
    f.type = type;
    f.unit = unit;
    f.count = count;
    return f;
  };
  auto optional = [](Field f, const QString& unset) {
    f.optional = true;
    f.unsetText = unset;
    return f;
  };
  auto choice = [](Field f, const QStringList& choices) {
    f.choices = choices;
    return f;
  };
  const QStringList bodies = namesOf(spec_->bodies);
  switch (it.kind) {
    case SpecKind::Body: {
      const BodySpec* b = byName(spec_->bodies, it.name);
      if (!b) break;
      addField(add("name", tr("Name"), Type::Text));
      addField(add("fixed", tr("Fixed"), Type::Bool));
      addField(add("position", tr("Position"), Type::Numbers, Unit::Length, 3));
      addField(add("orientation", tr("Orientation"), Type::Numbers, Unit::AxisAngle, 4));
      addField(optional(add("mass", tr("Mass (kg)"), Type::Number), tr("from the shapes")));
      addField(optional(add("density", tr("Density (kg/m³)"), Type::Number), tr("1000 (default)")));
      addField(add("com", tr("Centre of mass"), Type::Numbers, Unit::Length, 3));
      addField(optional(add("inertia", tr("Inertia"), Type::Numbers, Unit::Inertia, 6), tr("Ixx, Iyy, Izz, Ixy, Ixz, Iyz: from the shapes")));
      addField(add("color", tr("Colour"), Type::Text));
      const QStringList types{"box", "cylinder", "sphere", "capsule", "mesh", "plane"};
      for (std::size_t k = 0; k < b->shapes.size(); ++k) {
        const ShapeSpec& s = b->shapes[k];
        addHeading(tr("Shape %1 (%2)").arg(k).arg(QString::fromLatin1(toString(s.type))));
        const std::string sp = "shapes." + std::to_string(k) + ".";
        auto shape = [&](const char* f, const QString& label, Type type, Unit unit = Unit::None, int count = 1) {
          const std::string suffix = sp + f;
          return add(suffix.c_str(), label, type, unit, count);
        };
        addField(choice(shape("type", tr("Type"), Type::Choice), types));
        switch (s.type) {
          case ShapeType::Box: addField(shape("size", tr("Size"), Type::Numbers, Unit::Length, 3)); break;
          case ShapeType::Sphere: addField(shape("radius", tr("Radius"), Type::Number, Unit::Length)); break;
          case ShapeType::Cylinder:
          case ShapeType::Capsule:
            addField(shape("radius", tr("Radius"), Type::Number, Unit::Length));
            addField(shape("length", tr("Length"), Type::Number, Unit::Length));
            addField(shape("axis", tr("Axis"), Type::Numbers, Unit::None, 3));
            break;
          case ShapeType::Mesh:
            addField(shape("file", tr("Mesh file"), Type::Text));
            addField(shape("scale", tr("Scale"), Type::Number));
            break;
          case ShapeType::Plane: addField(shape("axis", tr("Normal"), Type::Numbers, Unit::None, 3)); break;
        }
        addField(shape("position", tr("Position in the body"), Type::Numbers, Unit::Length, 3));
        addField(shape("color", tr("Colour"), Type::Text));
      }
      break;
    }
    case SpecKind::Joint: {
      const JointSpec* j = byName(spec_->joints, it.name);
      if (!j) break;
      addField(add("name", tr("Name"), Type::Text));
      addField(choice(add("type", tr("Type"), Type::Choice),
                      {"revolute", "prismatic", "cylindrical", "spherical", "universal", "planar", "fixed", "distance"}));
      addField(choice(add("body1", tr("Body 1"), Type::Choice), bodies));
      addField(choice(add("body2", tr("Body 2"), Type::Choice), bodies));
      if (j->type == JointType::Distance) {
        addField(add("point1", tr("Point on body 1"), Type::Numbers, Unit::Length, 3));
        addField(add("point2", tr("Point on body 2"), Type::Numbers, Unit::Length, 3));
        addField(optional(add("length", tr("Length"), Type::Number, Unit::Length), tr("the distance in the file")));
      } else {
        addField(add("point", tr("Point"), Type::Numbers, Unit::Length, 3));
      }
      if (j->type == JointType::Revolute || j->type == JointType::Prismatic || j->type == JointType::Cylindrical)
        addField(add("axis", tr("Axis"), Type::Numbers, Unit::None, 3));
      if (j->type == JointType::Universal) {
        addField(add("axis1", tr("Axis in body 1"), Type::Numbers, Unit::None, 3));
        addField(add("axis2", tr("Axis in body 2"), Type::Numbers, Unit::None, 3));
      }
      if (j->type == JointType::Planar) addField(add("normal", tr("Normal"), Type::Numbers, Unit::None, 3));
      if (j->type == JointType::Revolute || j->type == JointType::Cylindrical)
        addField(optional(add("limits", tr("Limits"), Type::Numbers, Unit::Angle, 2), tr("none")));
      if (j->type == JointType::Prismatic)
        addField(optional(add("limits", tr("Limits"), Type::Numbers, Unit::Length, 2), tr("none")));
      break;
    }
    case SpecKind::Driver:
      addField(add("name", tr("Name"), Type::Text));
      addField(choice(add("joint", tr("Joint"), Type::Choice), namesOf(spec_->joints)));
      addField(add("coordinate", tr("Coordinate"), Type::Number));
      addField(add("expression", tr("Value of t (%1, %2)").arg(qs(spec_->units.angle), qs(spec_->units.length)), Type::Text));
      break;
    case SpecKind::Handle:
      addField(add("name", tr("Name"), Type::Text));
      addField(choice(add("body", tr("Body"), Type::Choice), bodies));
      addField(add("point", tr("Point"), Type::Numbers, Unit::Length, 3));
      break;
    case SpecKind::Spring:  // F = k (L − L0) + c L̇ between a point of each body (SI gains)
      addField(add("name", tr("Name"), Type::Text));
      addField(add("stiffness", tr("Stiffness (N/m)"), Type::Number));
      addField(add("damping", tr("Damping (N·s/m)"), Type::Number));
      addField(optional(add("length", tr("Rest length"), Type::Number, Unit::Length), tr("the distance in the file")));
      addField(add("point1", tr("Point on body 1"), Type::Numbers, Unit::Length, 3));
      addField(add("point2", tr("Point on body 2"), Type::Numbers, Unit::Length, 3));
      break;
    case SpecKind::JointSpring: {  // effort = −k (θ − θ0) − c θ̇ on one coordinate
      addField(add("name", tr("Name"), Type::Text));
      addField(add("stiffness", tr("Stiffness (N·m/rad or N/m)"), Type::Number));
      addField(add("damping", tr("Damping (N·m·s/rad or N·s/m)"), Type::Number));
      addField(add("rest", tr("Rest (SI: rad or m)"), Type::Number));
      break;
    }
    case SpecKind::Motor:  // an effort of t, or a PD servo on a driver
      addField(add("name", tr("Name"), Type::Text));
      addField(add("effort", tr("Effort of t (N·m or N; empty: a servo)"), Type::Text));
      addField(add("kp", tr("Servo kp (SI)"), Type::Number));
      addField(add("kd", tr("Servo kd (SI)"), Type::Number));
      addField(optional(add("maxEffort", tr("Servo's largest effort (SI)"), Type::Number), tr("unlimited")));
      break;
    case SpecKind::Deformable:
      addField(choice(add("material", tr("Material"), Type::Choice), {"stable-neo-hookean", "arap"}));
      addField(add("youngs", tr("Young's modulus (Pa)"), Type::Number));
      addField(add("poisson", tr("Poisson's ratio"), Type::Number));
      addField(add("density", tr("Density (kg/m³)"), Type::Number));
      break;
  }
}

}  // namespace mechsim::ui
