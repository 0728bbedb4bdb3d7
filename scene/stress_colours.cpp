// scene/stress_colours.cpp — the stress colour ramp and its range (see the header).
#include "scene/stress_colours.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

namespace mechsim::ui {

Eigen::Vector4f stressRampColour(double s) {
  static const Eigen::Vector3f stops[4] = {{0.10f, 0.25f, 0.95f}, {0.10f, 0.80f, 0.20f}, {0.98f, 0.90f, 0.10f}, {0.95f, 0.12f, 0.08f}};
  if (!std::isfinite(s)) s = 0;
  s = std::clamp(s, 0.0, 1.0) * 3.0;
  const int k = std::min(2, static_cast<int>(s));
  const float f = static_cast<float>(s - k);
  const Eigen::Vector3f c = (1 - f) * stops[k] + f * stops[k + 1];
  return {c.x(), c.y(), c.z(), 1.0f};
}

StressColours colourByStress(const std::vector<std::shared_ptr<const std::vector<float>>>& stress,
                             StressRange* hold) {
  StressColours out;
  double lo = std::numeric_limits<double>::infinity(), hi = -lo;
  for (const auto& part : stress)
    if (part)
      for (float v : *part)
        if (std::isfinite(v)) lo = std::min(lo, double(v)), hi = std::max(hi, double(v));
  if (hold) {
    if (hold->valid) lo = std::min(lo, hold->min), hi = std::max(hi, hold->max);
    if (lo <= hi) hold->min = lo, hold->max = hi, hold->valid = true;
  }
  out.valid = lo <= hi;
  if (out.valid) out.min = lo, out.max = hi;
  const double span = out.max - out.min;
  for (const auto& part : stress) {
    auto c = std::make_shared<std::vector<Eigen::Vector4f>>();
    if (part) {
      c->reserve(part->size());
      for (float v : *part)
        c->push_back(stressRampColour(std::isfinite(v) && span > 0 ? (v - out.min) / span : 0.0));
    }
    out.colours.push_back(std::move(c));
  }
  return out;
}

std::string formatPascal(double value) {
  if (!std::isfinite(value)) return "– Pa";
  static const char* prefix[] = {"", "k", "M", "G", "T"};
  int p = 0;
  double v = value;
  while (std::abs(v) >= 999.5 && p < 4) v /= 1000, ++p;
  char buf[32];
  if (v == 0) std::snprintf(buf, sizeof buf, "0 Pa");
  else if (std::abs(v) >= 99.95) std::snprintf(buf, sizeof buf, "%.0f %sPa", v, prefix[p]);
  else if (std::abs(v) >= 9.995) std::snprintf(buf, sizeof buf, "%.1f %sPa", v, prefix[p]);
  else std::snprintf(buf, sizeof buf, "%.2f %sPa", v, prefix[p]);
  return buf;
}

}  // namespace mechsim::ui
