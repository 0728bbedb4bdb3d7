// core/io/import/import.cpp — which importer reads a file, and the file reading they share.
//
// The extension decides (.urdf → URDF, .mjcf → MJCF, .sdf / .world → SDFormat); a .xml file is
// recognised by its root element, since MuJoCo models, URDF robots and SDF worlds are all
// published as .xml. The file is read here once (size limit, I/O errors at line 0 as the native
// reader reports them) and handed to the importer as text with its folder.
#include "core/io/import/import.h"

#include <cctype>
#include <filesystem>
#include <fstream>

#include "core/io/import/xml_file.h"
#include "core/io/read_file.h"

namespace mechsim::io {

namespace {

namespace fs = std::filesystem;

std::string lowerExt(const std::string& path) {
  std::string e = fs::path(path).extension().string();
  for (char& c : e) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return e;
}

/// The name of the first element of an XML file (skipping the declaration, comments and
/// processing instructions), read from its first 64 KiB; "" when none is found.
std::string rootElementName(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::string head(64 * 1024, '\0');
  in.read(head.data(), std::streamsize(head.size()));
  head.resize(std::size_t(in.gcount()));
  std::size_t p = 0;
  while ((p = head.find('<', p)) != std::string::npos) {
    if (head.compare(p, 4, "<!--") == 0) {
      p = head.find("-->", p);
      if (p == std::string::npos) return "";
      continue;
    }
    if (p + 1 < head.size() && (head[p + 1] == '?' || head[p + 1] == '!')) {
      ++p;
      continue;
    }
    std::size_t e = p + 1;
    while (e < head.size() && (std::isalnum(static_cast<unsigned char>(head[e])) || head[e] == '_' || head[e] == ':' || head[e] == '-')) ++e;
    return head.substr(p + 1, e - p - 1);
  }
  return "";
}

/// The first byte of `text` that is not white space (after a UTF-8 byte-order mark), or 0.
char firstByte(std::string_view text) {
  std::size_t p = text.substr(0, 3) == "\xEF\xBB\xBF" ? 3 : 0;
  while (p < text.size() && std::isspace(static_cast<unsigned char>(text[p]))) ++p;
  return p < text.size() ? text[p] : 0;
}

}  // namespace

const char* const kFormatsRead =
    "mechsim reads its native format (.json), URDF (.urdf, or .xml with a <robot> root), MJCF (.xml or .mjcf) and "
    "SDFormat (.sdf, .world, or .xml with an <sdf> root)";

void refuseUnreadable(const std::string& path, std::string_view text) {
  const std::string ext = lowerExt(path);
  // A xacro is the template ROS expands into a URDF: its <xacro:...> macros and ${...} expressions
  // are no URDF, and the native reader would only say "unexpected '<'".
  if (ext == ".xacro")
    throw LoadError(Diagnostic{path, 1, 1,
                               "a .xacro file is a template that ROS's xacro expands into a URDF; expand it first "
                               "(`xacro model.urdf.xacro > model.urdf`, with the arguments the robot's launch files pass "
                               "as name:=value) and open the .urdf; " + std::string(kFormatsRead)});
  // XML under any other extension (a .dae or .launch chosen by mistake, a URDF renamed .txt).
  if (ext != ".json" && firstByte(text) == '<')
    throw LoadError(Diagnostic{path, 1, 1,
                               (ext.empty() ? std::string("an XML file without an extension")
                                            : "an XML file with the extension \"" + ext + "\"") +
                                   ", which names no format mechsim reads; " +
                                   std::string(kFormatsRead) + " (rename a URDF, MJCF or SDFormat file to its extension)"});
}

std::optional<ImportFormat> importFormatOf(const std::string& path) {
  const std::string ext = lowerExt(path);
  if (ext == ".urdf") return ImportFormat::Urdf;
  if (ext == ".mjcf") return ImportFormat::Mjcf;
  if (ext == ".sdf" || ext == ".world") return ImportFormat::Sdf;
  if (ext != ".xml") return std::nullopt;
  const std::string root = rootElementName(path);
  if (root == "robot") return ImportFormat::Urdf;
  if (root == "sdf") return ImportFormat::Sdf;
  return ImportFormat::Mjcf;  // <mujoco>, or a file the MJCF importer will explain
}

MechanismSpec importMechanismFile(const std::string& path, const ImportOptions& options) {
  const auto format = importFormatOf(path);
  if (!format)
    throw LoadError(Diagnostic{path, 0, 0, "not a URDF, MJCF or SDF file (expected .urdf, .xml, .mjcf, .sdf or .world)"});
  const FileText file = readMechanismText(path, imp::kMaxXmlBytes);
  const std::string& text = file.text;
  const std::string& dir = file.dir;
  if (*format == ImportFormat::Urdf) return parseUrdf(text, path, dir, options);
  MechanismSpec spec = *format == ImportFormat::Mjcf ? parseMjcf(text, path, dir) : parseSdf(text, path, dir);
  // MJCF and SDFormat say what floats themselves: the option changes nothing, which is said.
  if (options.floatingBase)
    spec.warnings.push_back(path + ":1:1: warning: the floating-base option is for URDF files and changes nothing here: " +
                            (*format == ImportFormat::Mjcf ? "an MJCF body floats with a <freejoint/> (or <joint type=\"free\"/>)"
                                                           : "an SDFormat model floats unless a joint joins it to the world"));
  return spec;
}

}  // namespace mechsim::io
