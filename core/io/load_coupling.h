#pragma once
// core/io/load_coupling.h — the "couplings" section of the native format (docs/format.md,
// "Couplings"): reading it into MechanismSpec::couplings and writing it back (internal to core/io).
#include <string>

#include <nlohmann/json.hpp>

#include "core/io/json_value.h"
#include "core/spec.h"

namespace mechsim::io {

/// Reads the section `v` (located at "couplings") into spec.couplings, recording every value's
/// location. Joints must already be in spec. The polynomial's coefficients are converted to SI from
/// the file's angle / length units by the kinds of the two coordinates (see load_coupling.cpp).
/// Throws LoadError (FILE:LINE:COL).
void readCouplingsSection(const json::Value& v, MechanismSpec& spec, const std::string& file);

/// The SI coefficients of `c` (spec.couplings entry) in the file's units of `spec`, and back:
/// b = Σ c_k a^k with b in units s_b and a in units s_a (s = angle or length scale of the
/// coordinate's kind) has the SI coefficients c_k s_b / s_a^k.
std::array<double, 5> couplingFileCoefficients(const MechanismSpec& spec, const CouplingSpec& c);

/// The section as JSON in the spec's units (empty array when there are no couplings).
nlohmann::ordered_json couplingsSectionJson(const MechanismSpec& spec);

}  // namespace mechsim::io
