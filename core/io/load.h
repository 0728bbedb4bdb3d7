#pragma once
// core/io/load.h — mechanism files in: native JSON (FORMAT.md §1), later URDF / MJCF / SDF.
// Every error is a Diagnostic printed as `FILE:LINE:COL: error: MESSAGE` (with the value path in
// the message, e.g. "joints[3].axis: expected a non-zero 3-vector").
#include <functional>
#include <map>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "core/model.h"
#include "core/spec.h"

namespace mechsim::io {

struct Diagnostic {
  std::string file;
  int line = 0;
  int col = 0;
  std::string message;
  /// "FILE:LINE:COL: error: MESSAGE"
  std::string format() const;
};

/// `message` with every double-quoted part longer than `maxPart` bytes, and every other run without
/// spaces longer than maxPart + 40, cut to its start and "..." (at a UTF-8 character boundary): a
/// diagnostic that quotes a 100 kB name or key from a hostile file stays one readable line.
std::string shortenLongParts(const std::string& message, std::size_t maxPart = 80);

class LoadError : public std::runtime_error {
 public:
  explicit LoadError(Diagnostic d) : LoadError(shortened(std::move(d)), 0) {}
  const Diagnostic& diagnostic() const { return diag_; }

 private:
  static Diagnostic shortened(Diagnostic d) {
    d.message = shortenLongParts(d.message);
    return d;
  }
  LoadError(Diagnostic d, int) : std::runtime_error(d.format()), diag_(std::move(d)) {}
  Diagnostic diag_;
};

/// Reads a mechanism file (chosen by extension; .json is the native format), mesh files included.
/// Throws LoadError.
MechanismSpec readMechanismFile(const std::string& path);

/// What the user chooses when opening a robot description (URDF, MJCF, SDFormat; mechsim-cli
/// --floating-base). The defaults are how the file reads on its own.
struct ImportOptions {
  /// URDF: the root link is free (6 DOF, no body fixed) instead of bolted to the world. MJCF
  /// and SDFormat say in the file what floats (a free joint; a model not joined to the world).
  bool floatingBase = false;
  bool operator==(const ImportOptions&) const = default;
};

/// readMechanismFile of a robot description with `options`; with options other than the
/// defaults, a native file is a LoadError (it says itself which bodies are fixed).
MechanismSpec readMechanismFile(const std::string& path, const ImportOptions& options);

/// Parses native-format text. `fileName` names it in diagnostics; relative mesh paths are
/// resolved against `baseDir`. Throws LoadError.
MechanismSpec parseMechanism(std::string_view text, const std::string& fileName, const std::string& baseDir,
                             const std::map<std::string, double>* parameterOverrides = nullptr);

/// readMechanismFile with the "parameters" of a native file set to these values (the file's units;
/// core/io/parameters.h): every field and expression that uses them follows. A name the file
/// does not have is a LoadError.
MechanismSpec readMechanismFile(const std::string& path, const std::map<std::string, double>& parameterOverrides);

/// The drivers' expressions as functions of t returning SI values (muparser). Throws LoadError
/// pointing at the offending expression.
std::vector<std::function<double(double)>> driverFunctions(const MechanismSpec& spec);

/// readMechanismFile + driverFunctions + compile, with compile's SpecError mapped to FILE:LINE:COL.
Model loadModel(const std::string& path);
/// loadModel that hands the reader's warnings (MechanismSpec::warnings: "FILE:LINE:COL: warning:
/// ...") to the caller; the one-argument form prints them on stderr. Imported formats (.urdf,
/// .xml, .sdf, .world; core/io/import/import.h) load through both.
Model loadModel(const std::string& path, std::vector<std::string>* warnings);
/// driverFunctions + compile for a spec already read (errors mapped as in loadModel).
Model compileSpec(const MechanismSpec& spec);

}  // namespace mechsim::io
