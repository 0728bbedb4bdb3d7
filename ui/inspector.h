#pragma once
// ui/inspector.h — the Inspector dock: the fields of the selected body, joint, driver, handle or
// deformable part, editable (SolveSpace's property browser, Adams' modify dialogs).
//
// Every field is a value of the spec named by its path (core/spec_path.h: "joints.B.point",
// "bodies.crank.shapes.0.length"); the panel reads it with getSpecValue and shows it in the file's
// units (lengths in units.length, angles in units.angle, inertias in kg·length²), and turns what the
// user types back into SI before asking for the edit. The panel changes nothing itself: it emits
// editRequested, and the window applies it (spec → compile → the controller assembles it) or
// shows the reason it was refused next to the field (setFieldError). What cannot be a number is
// refused here, inline, before any request ("expected 3 numbers").
#include <optional>
#include <string>
#include <vector>

#include <QWidget>

#include "core/spec.h"
#include "core/spec_edit.h"
#include "core/spec_path.h"

class QFormLayout;
class QLabel;
class QLineEdit;

namespace mechsim::ui {

/// What is selected: a kind and its name in the spec.
struct SpecItem {
  SpecKind kind = SpecKind::Body;
  std::string name;
  bool operator==(const SpecItem& o) const { return kind == o.kind && name == o.name; }
};

class Inspector : public QWidget {
  Q_OBJECT
 public:
  explicit Inspector(QWidget* parent = nullptr);

  /// Shows `item` of `spec` (null or nullopt: nothing selected). Rebuilds the fields.
  void showItem(const MechanismSpec* spec, const std::optional<SpecItem>& item);
  /// Re-reads every field's value from `spec` (after an accepted edit, an undo); keeps the fields.
  void refresh(const MechanismSpec* spec);
  const std::optional<SpecItem>& item() const { return item_; }

  /// Shows `message` under the field of `path` (red) — or clears it (empty message).
  void setFieldError(const QString& path, const QString& message);
  /// The error shown at `path` ("" when none): tests.
  QString fieldError(const QString& path) const;
  /// The editor of `path` (objectName "field:PATH"), or null.
  QWidget* field(const QString& path) const;

 signals:
  /// The user asks to set `path` to `value` (SI); `label` names the field for the undo text.
  void editRequested(const QString& path, const mechsim::SpecValue& value, const QString& label);

 private:
  enum class Type { Text, Number, Numbers, Bool, Choice };
  enum class Unit { None, Length, Angle, Inertia, AxisAngle };
  struct Field {
    QString path, label;
    Type type = Type::Text;
    Unit unit = Unit::None;
    int count = 1;             // Numbers: how many
    QStringList choices;       // Choice
    bool optional = false;     // Number: may be unset ("from shapes", "default")
    QString unsetText;         // what unset means
    QWidget* editor = nullptr;
    QLabel* error = nullptr;
  };
  void build();
  void addField(Field f);
  void addHeading(const QString& text);
  void commit(Field& f);
  void readValue(Field& f);
  double scaleOf(Unit u, int entry) const;

  const MechanismSpec* spec_ = nullptr;
  std::optional<SpecItem> item_;
  std::vector<Field> fields_;
  QFormLayout* form_ = nullptr;
  QLabel* title_ = nullptr;
  QWidget* body_ = nullptr;
};

}  // namespace mechsim::ui
