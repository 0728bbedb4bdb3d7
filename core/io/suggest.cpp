// core/io/suggest.cpp — edit distance and "did you mean" (suggest.h).
#include "core/io/suggest.h"

#include <algorithm>
#include <cctype>
#include <string>
#include <utility>
#include <vector>

namespace mechsim::io {

std::string lowerCase(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

/// Optimal-string-alignment distance (Levenshtein plus adjacent transpositions), case-insensitive.
/// Three rows of the table at a time (each |b| + 1 long), not the whole |a| × |b| table.
int editDistance(const std::string& a0, const std::string& b0) {
  const std::string a = lowerCase(a0), b = lowerCase(b0);
  const std::size_t n = a.size(), m = b.size();
  std::vector<int> before(m + 1), prev(m + 1), cur(m + 1);  // rows i - 2, i - 1, i
  for (std::size_t j = 0; j <= m; ++j) prev[j] = int(j);
  for (std::size_t i = 1; i <= n; ++i) {
    cur[0] = int(i);
    for (std::size_t j = 1; j <= m; ++j) {
      const int cost = a[i - 1] == b[j - 1] ? 0 : 1;
      cur[j] = std::min({prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1]) cur[j] = std::min(cur[j], before[j - 2] + 1);
    }
    std::swap(before, prev);
    std::swap(prev, cur);
  }
  return prev[m];
}

/// The candidate closest to `word` when it is close enough to be a plausible typo, else the
/// longest candidate it extends, else "" (suggest.h). A typo is at most 3 edits, so a word over 200 characters, and every candidate whose length
/// differs from the word's by more than 3, are not compared at all: a hostile name of a million
/// characters against 10^5 bodies costs nothing.
std::string closestName(const std::string& word, const std::vector<std::string>& candidates) {
  if (word.size() > 200) return "";
  constexpr std::size_t kMaxEdits = 3;  // the most `allowed` below ever is
  std::string best;
  int bestD = 1 << 30;
  for (const std::string& c : candidates) {
    if (c.size() > word.size() + kMaxEdits || word.size() > c.size() + kMaxEdits) continue;
    const int d = editDistance(word, c);
    if (d < bestD) bestD = d, best = c;
  }
  if (!best.empty()) {
    const std::size_t len = std::max(best.size(), word.size());
    const int allowed = len <= 4 ? 1 : len <= 8 ? 2 : 3;
    if (bestD <= allowed) return best;
  }
  // A word that extends a candidate ("degree" → "deg", "radians" → "rad") is a likely slip too:
  // the longest such candidate ("b99999x" among b0 … b99999 is b99999, not b9).
  const std::string lower = lowerCase(word);
  std::string extended;
  for (const std::string& c : candidates)
    if (c.size() >= 2 && word.size() > c.size() && c.size() > extended.size() && lower.compare(0, c.size(), lowerCase(c)) == 0)
      extended = c;
  return extended;
}

std::string didYouMean(const std::string& word, const std::vector<std::string>& candidates) {
  const std::string c = closestName(word, candidates);
  return c.empty() ? "" : "; did you mean \"" + c + "\"?";
}

}  // namespace mechsim::io
