#pragma once
// core/io/load_contact.h — the "contact" section of the native format (docs/format.md, "Contact"):
// reading it into MechanismSpec::contact and writing it back (internal to core/io).
#include <string>

#include <nlohmann/json.hpp>

#include "core/io/json_value.h"
#include "core/spec.h"

namespace mechsim::io {

/// Reads the section `v` (located at "contact") into spec.contact, recording every value's
/// location. Bodies must already be in spec. lengthScale converts the file's lengths (slop,
/// margin) to metres. Throws LoadError (FILE:LINE:COL).
void readContactSection(const json::Value& v, MechanismSpec& spec, const std::string& file, double lengthScale);

/// The section as JSON in the spec's units (only the keys that were given).
nlohmann::ordered_json contactSectionJson(const MechanismSpec& spec);

}  // namespace mechsim::io
