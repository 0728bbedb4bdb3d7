#pragma once
// core/io/suggest.h — "did you mean" for the readers' error messages (FORMAT.md: an unknown name
// or key is reported with the closest valid one when it is a plausible typo).
#include <string>
#include <vector>

namespace mechsim::io {

/// Lower-case copy (ASCII).
std::string lowerCase(std::string s);

/// Optimal-string-alignment distance (Levenshtein plus adjacent transpositions), case-insensitive.
int editDistance(const std::string& a, const std::string& b);

/// The candidate closest to `word` when it is close enough to be a plausible typo (1 edit up to 4
/// letters, 2 up to 8, else 3), else the longest candidate `word` extends ("degree" → "deg"),
/// else "". Words over 200 characters get "".
std::string closestName(const std::string& word, const std::vector<std::string>& candidates);

/// "; did you mean \"NAME\"?" for closestName, or "" when there is none.
std::string didYouMean(const std::string& word, const std::vector<std::string>& candidates);

}  // namespace mechsim::io
