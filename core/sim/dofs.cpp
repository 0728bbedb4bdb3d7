// core/sim/dofs.cpp — DOF sliders: the mobility analysis's independent coordinates, the working
// model with slider-held drivers, the drag model without drivers, reachable ranges.
#include "core/sim/dofs.h"

#include <algorithm>
#include <chrono>
#include <cmath>

#include "core/compile.h"

namespace mechsim::sim {
namespace {
constexpr double kPi = 3.14159265358979323846;

/// A driver of coordinate k of joint j, named after the coordinate (never clashes with a file
/// driver: file names cannot contain '@').
DriverSpec coordinateDriver(const mechsim::Model& model, int j, int k) {
  DriverSpec d;
  const Joint& jt = model.joints[j];
  d.name = "@" + model.coordNames[jt.firstCoord + k];
  d.joint = jt.name;
  d.coordinate = k;
  d.expression = "0";
  return d;
}

/// Constant functions for the added drivers (only the gradients matter to the mobility analysis).
std::vector<std::function<double(double)>> constantFunctions(size_t n) {
  return std::vector<std::function<double(double)>>(n, [](double) { return 0.0; });
}
}  // namespace

bool isAngularCoordinate(const Joint& j, int k) {
  switch (j.type) {
    case JointType::Revolute:
    case JointType::Universal:
    case JointType::Spherical: return true;
    case JointType::Cylindrical: return k == 0;
    case JointType::Planar: return k == 2;
    case JointType::Prismatic:
    case JointType::Distance:
    case JointType::Fixed: return false;
  }
  return false;
}

std::vector<std::pair<int, int>> independentCoordinates(const MechanismSpec& spec, const mechsim::Model& model, const VecX& q,
                                                        int dofDriven) {
  std::vector<std::pair<int, int>> chosen;
  if (dofDriven <= 0) return chosen;
  MechanismSpec variant = spec;
  // Coordinates the file already drives are not candidates.
  auto driven = [&](int j, int k) {
    for (const Driver& d : model.drivers)
      if (d.joint == j && d.coordinate == k) return true;
    return false;
  };
  int remaining = dofDriven;
  for (int j = 0; j < static_cast<int>(model.joints.size()) && remaining > 0; ++j) {
    for (int k = 0; k < model.joints[j].nCoords && remaining > 0; ++k) {
      if (driven(j, k)) continue;
      // Take the coordinate when its row raises the rank, i.e. dofDriven falls.
      variant.drivers.push_back(coordinateDriver(model, j, k));
      int after = remaining;
      try {
        const mechsim::Model m = compile(variant, constantFunctions(variant.drivers.size()));
        mechsim::Data d = makeData(m);
        d.q = q;
        after = analyseMobility(m, d).dofDriven;
      } catch (const std::exception&) {
        after = remaining;  // the compiler does not take a driver there
      }
      if (after < remaining) {
        chosen.emplace_back(j, k);
        remaining = after;
      } else {
        variant.drivers.pop_back();
      }
    }
  }
  return chosen;
}

std::vector<std::function<double(double)>> bindDriverInputs(const mechsim::Model& fileModel, std::size_t n,
                                                             const std::vector<std::function<double(double)>>& expressions,
                                                             const std::shared_ptr<DriverInputs>& inputs) {
  const std::size_t nFile = std::min(fileModel.drivers.size(), n);
  inputs->value.assign(n, 0.0);
  inputs->follow.assign(n, 0);
  inputs->expression.assign(n, nullptr);
  for (std::size_t i = 0; i < nFile; ++i) {
    inputs->expression[i] = i < expressions.size() ? expressions[i] : fileModel.drivers[i].value;
    inputs->follow[i] = 1;
  }
  // Every driver reads its input; the inputs outlive the model's functions through the shared_ptr.
  std::vector<std::function<double(double)>> fns;
  for (std::size_t i = 0; i < n; ++i) fns.push_back([in = inputs, i](double t) { return in->at(static_cast<int>(i), t); });
  return fns;
}

mechsim::Model buildWorkModel(const MechanismSpec* spec, const mechsim::Model& fileModel, const std::vector<std::pair<int, int>>& extra,
                     const std::vector<std::function<double(double)>>& expressions,
                     const std::shared_ptr<DriverInputs>& inputs) {
  const size_t nFile = fileModel.drivers.size(), n = nFile + (spec ? extra.size() : 0);
  const std::vector<std::function<double(double)>> fns = bindDriverInputs(fileModel, n, expressions, inputs);
  if (!spec) {
    mechsim::Model m = fileModel;
    for (size_t i = 0; i < nFile; ++i) m.drivers[i].value = fns[i];
    return m;
  }
  MechanismSpec variant = *spec;
  for (const auto& [j, k] : extra) variant.drivers.push_back(coordinateDriver(fileModel, j, k));
  mechsim::Model m = compile(variant, fns);
  m.sourceFile = fileModel.sourceFile;
  return m;
}

std::unique_ptr<mechsim::Model> buildFreeModel(const MechanismSpec* spec) {
  if (!spec) return nullptr;
  MechanismSpec variant = *spec;
  variant.drivers.clear();
  return std::make_unique<mechsim::Model>(compile(variant));
}

std::pair<double, double> reachableRange(const mechsim::Model& work, const mechsim::Data& start, DriverInputs& inputs, const DofInfo& dof,
                                         double budgetSeconds) {
  const int i = dof.driver;
  const double v0 = inputs.at(i, start.t);
  const double step = dof.angular ? 10.0 * kPi / 180.0 : 0.05 * work.lengthScale;
  const double reach = dof.angular ? kPi : 2.0 * work.lengthScale;
  const auto t0 = std::chrono::steady_clock::now();
  auto outOfTime = [&] {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() > budgetSeconds;
  };
  const double savedValue = inputs.value[i];
  const char savedFollow = inputs.follow[i];
  inputs.follow[i] = 0;
  double bounds[2];
  for (int side = 0; side < 2; ++side) {
    const double dir = side == 0 ? -1.0 : 1.0;
    mechsim::Data d = start;
    VecX qPrev;             // the configuration before the last good one (continuity test)
    double vPrev = v0;
    double good = v0;
    bool failed = false;
    // The position analysis at value v, continued from d; d advances only on success (on
    // failure solvePositions puts d.q back).
    VecX qBefore;
    auto solveAt = [&](double v) {
      inputs.value[i] = v;
      qBefore = d.q;
      if (!solvePositions(work, d, d.t)) return false;
      qPrev = std::move(qBefore);
      vPrev = good;
      good = v;
      return true;
    };
    // March outwards, the position analysis following each step.
    while (std::abs(good - v0) < reach - 1e-12 && !outOfTime()) {
      const double next = v0 + dir * std::min(std::abs(good - v0) + step, reach);
      if (solveAt(next)) continue;
      // A failed step is a limit of the range only when the analysis fails beyond it too. At a
      // singular position the mechanism passes (a dead centre of a driven crank, the change point
      // of a parallelogram linkage) Newton loses its quadratic convergence at and next to it but
      // converges again past it: leap half a step and a step beyond, and accept a solution that
      // continues the path — its distance from the last configuration no more than 4× what the
      // last step's rate predicts (a far-away solution is another assembly, not the path).
      bool passed = false;
      if (qPrev.size() == d.q.size() && std::abs(good - vPrev) > 0) {
        const double rate = (d.q - qPrev).norm() / std::abs(good - vPrev);
        const VecX qGood = d.q;
        const double vGood = good;
        for (double leap : {0.5 * step, step}) {
          const double v = v0 + dir * std::min(std::abs(next - v0) + leap, reach);
          const VecX keepPrev = qPrev;
          const double keepVPrev = vPrev;
          if (!solveAt(v)) continue;
          if ((d.q - qGood).norm() <= 4.0 * rate * std::abs(v - vGood) + 1e-9 * work.lengthScale) {
            passed = true;
            break;
          }
          d.q = qGood, qPrev = keepPrev, vPrev = keepVPrev, good = vGood;  // another assembly: undo
        }
      }
      if (passed) continue;
      // Narrow the first failing step by bisection from the last good value.
      failed = true;
      double bad = next;
      for (int k = 0; k < 6; ++k) {
        const double mid = 0.5 * (good + bad);
        if (!solveAt(mid)) bad = mid;
      }
      break;
    }
    bounds[side] = (failed || std::abs(good - v0) >= reach - 1e-12) ? good : v0 + dir * reach;
  }
  inputs.value[i] = savedValue;
  inputs.follow[i] = savedFollow;
  if (bounds[1] - bounds[0] < 1e-9) {
    // Nothing reachable either side (e.g. a locked position): a small window around the value.
    bounds[0] = v0 - step;
    bounds[1] = v0 + step;
  }
  return {bounds[0], bounds[1]};
}

}  // namespace mechsim::sim
