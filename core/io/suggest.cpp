// core/io/suggest.cpp — edit distance and "did you mean" (suggest.h).
#include "core/io/suggest.h"

#include <algorithm>
#include <cctype>

namespace mechsim::io {

std::string lowerCase(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

/// Optimal-string-alignment distance (Levenshtein plus adjacent transpositions), case-insensitive.
int editDistance(const std::string& a0, const std::string& b0) {
  const std::string a = lowerCase(a0), b = lowerCase(b0);
  const std::size_t n = a.size(), m = b.size();
  std::vector<std::vector<int>> d(n + 1, std::vector<int>(m + 1));
  for (std::size_t i = 0; i <= n; ++i) d[i][0] = int(i);
  for (std::size_t j = 0; j <= m; ++j) d[0][j] = int(j);
  for (std::size_t i = 1; i <= n; ++i)
    for (std::size_t j = 1; j <= m; ++j) {
      const int cost = a[i - 1] == b[j - 1] ? 0 : 1;
      d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1])
        d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
    }
  return d[n][m];
}

/// The candidate closest to `word` when it is close enough to be a plausible typo, else "".
std::string closestName(const std::string& word, const std::vector<std::string>& candidates) {
  std::string best;
  int bestD = 1 << 30;
  for (const std::string& c : candidates) {
    const int d = editDistance(word, c);
    if (d < bestD) bestD = d, best = c;
  }
  if (best.empty() || word.size() > 200) return "";
  // A word that extends a candidate ("degree" → "deg", "radians" → "rad") is a likely slip too.
  for (const std::string& c : candidates)
    if (c.size() >= 2 && word.size() > c.size() && lowerCase(word).compare(0, c.size(), lowerCase(c)) == 0) return c;
  const std::size_t len = std::max(best.size(), word.size());
  const int allowed = len <= 4 ? 1 : len <= 8 ? 2 : 3;
  return bestD <= allowed ? best : "";
}

std::string didYouMean(const std::string& word, const std::vector<std::string>& candidates) {
  const std::string c = closestName(word, candidates);
  return c.empty() ? "" : "; did you mean \"" + c + "\"?";
}

}  // namespace mechsim::io
