// core/kinematics/constraints.cpp — Φ(q, t), Φ_q (fixed pattern), Φ_t and γ for the whole model.
//
// Row layout (model.h): joint rows in joint order, then pᵀp − 1 per moving body, then one row per
// coupling, then one per driver. Each row is a jet (terms.h) produced by forEachRowAt (assembly.h): its value is Φ_i, its
// two 1×7 gradient blocks are the non-zeros of row i of Φ_q, and
//   γ_i = −(Φ_q q̇)_q q̇ − 2 Φ_qt q̇ − Φ_tt = −a2_i + gammaTime_i,
// so that d²Φ/dt² = Φ_q q̈ − γ = 0.
// The sparsity pattern is built once by compile() (buildJacobianPattern): every row lists the r
// and p columns of its (at most two) moving bodies that its jet uses structurally; the value
// index of each (row, body side, coordinate) is stored in Model::jacobianSlots so that filling
// Φ_q is a scatter without search.
// Each function evaluates only what it returns: Φ the values (driver expressions once each), Φ_q
// the gradients, Φ_t only the driver rows with their stencils, γ the rates and time terms.
#include <algorithm>
#include <array>
#include <stdexcept>

#include "core/kinematics/assembly.h"
#include "core/kinematics/kinematics.h"

namespace mechsim {
namespace kin {

const JointKind& jointKind(JointType t) {
  switch (t) {
    case JointType::Revolute: return revoluteKind;
    case JointType::Prismatic: return prismaticKind;
    case JointType::Cylindrical: return cylindricalKind;
    case JointType::Spherical: return sphericalKind;
    case JointType::Universal: return universalKind;
    case JointType::Planar: return planarKind;
    case JointType::Fixed: return fixedKind;
    case JointType::Distance: return distanceKind;
  }
  throw std::logic_error("jointKind: unknown joint type");
}

void buildJacobianPattern(Model& m) {
  // Structure from the jets' usesR / usesP flags at q0 (they do not depend on the values).
  std::vector<Triplet> trip;
  std::vector<std::array<int, 14>> cols(m.nEquations), leaderCols(m.couplings.size());
  for (auto& c : cols) c.fill(-1);
  for (auto& c : leaderCols) c.fill(-1);
  forEachRowAt<kGradient>(m, m.q0, nullptr, 0.0, true, [&](const RowInfo& info, const Jet1& r) {
    std::array<int, 14>& rowCols = info.part == 1 ? leaderCols[info.coupling] : cols[info.row];
    for (int s = 0; s < 2; ++s) {
      if (info.body[s] < 0) continue;
      const int qi = m.bodies[info.body[s]].qIndex;
      if (qi < 0) continue;
      for (int k = 0; k < 7; ++k) {
        const bool used = k < 3 ? r.usesR[s] : r.usesP[s];
        if (!used) continue;
        rowCols[7 * s + k] = qi + k;
        trip.emplace_back(info.row, qi + k, 1.0);
      }
    }
  });
  m.jacobianPattern.resize(m.nEquations, m.nq);
  m.jacobianPattern.setFromTriplets(trip.begin(), trip.end());
  m.jacobianPattern.makeCompressed();
  // Slot of each (row, column) in the compressed value array.
  m.jacobianSlots.assign(static_cast<size_t>(m.nEquations) * 14, -1);
  const int* outer = m.jacobianPattern.outerIndexPtr();
  const int* inner = m.jacobianPattern.innerIndexPtr();
  for (int i = 0; i < m.nEquations; ++i)
    for (int k = 0; k < 14; ++k) {
      const int col = cols[i][k];
      if (col < 0) continue;
      const int* lo = inner + outer[col];
      const int* hi = inner + outer[col + 1];
      const int* it = std::lower_bound(lo, hi, i);
      m.jacobianSlots[static_cast<size_t>(i) * 14 + k] = static_cast<int>(it - inner);
    }
  // A coupling's leader part: its slots, and whether part 0 (scattered first) has the entry too.
  m.couplingSlots.assign(m.couplings.size() * 14, -1);
  m.couplingSlotAdds.assign(m.couplings.size() * 14, 0);
  for (size_t c = 0; c < m.couplings.size(); ++c) {
    const int i = m.couplings[c].equation;
    for (int k = 0; k < 14; ++k) {
      const int col = leaderCols[c][k];
      if (col < 0) continue;
      const int* lo = inner + outer[col];
      const int* hi = inner + outer[col + 1];
      m.couplingSlots[c * 14 + k] = static_cast<int>(std::lower_bound(lo, hi, i) - inner);
      m.couplingSlotAdds[c * 14 + k] = std::find(cols[i].begin(), cols[i].end(), col) != cols[i].end();
    }
  }
  std::fill(m.jacobianPattern.valuePtr(), m.jacobianPattern.valuePtr() + m.jacobianPattern.nonZeros(), 0.0);
}

}  // namespace kin

namespace {
void checkSizes(const Model& m, const Data& d) {
  if (d.q.size() != m.nq) throw std::invalid_argument("kinematics: d.q has the wrong size (use makeData)");
}
}  // namespace

void constraintResidual(const Model& m, Data& d) {
  checkSizes(m, d);
  const kin::CoordinateReference reference(d.coords);
  d.phi.resize(m.nEquations);
  kin::forEachRowAt<kin::kValue>(m, d.q, nullptr, d.t, true,
                                 [&](const kin::RowInfo& info, const kin::Jet1Lean& r) { d.phi(info.row) = r.v; });
}

void constraintJacobian(const Model& m, Data& d) {
  checkSizes(m, d);
  const kin::CoordinateReference reference(d.coords);
  // Keep the model's pattern: reset when d.Jq was replaced by something else.
  if (d.Jq.rows() != m.nEquations || d.Jq.cols() != m.nq || d.Jq.nonZeros() != m.jacobianPattern.nonZeros() ||
      !d.Jq.isCompressed())
    d.Jq = m.jacobianPattern;
  double* values = d.Jq.valuePtr();
  kin::forEachRowAt<kin::kGradient>(m, d.q, nullptr, d.t, true, [&](const kin::RowInfo& info, const kin::Jet1& r) {
    kin::scatterRow(m, info, r, values);
  });
}

VecX constraintTimeDerivative(const Model& m, const Data& d) {
  checkSizes(m, d);
  VecX phiT = VecX::Zero(m.nEquations);
  if (m.drivers.empty()) return phiT;
  // Only the driver rows depend on t.
  const kin::BodyFrames frames(m, d.q, nullptr);
  kin::forEachDriverRow<kin::kValue | kin::kTime>(
      m, frames, d.t, [&](const kin::RowInfo& info, const kin::Jet1Lean&) { phiT(info.row) = info.phiT; });
  return phiT;
}

VecX accelerationRhs(const Model& m, const Data& d) {
  checkSizes(m, d);
  const kin::CoordinateReference reference(d.coords);
  VecX gamma(m.nEquations);
  const VecX* qd = d.qd.size() == m.nq ? &d.qd : nullptr;
  auto row = [&](const kin::RowInfo& info, const kin::Jet1Lean& r) { gamma(info.row) = -r.a2 + info.gammaTime; };
  kin::forEachRowAt<kin::kRates | kin::kTime>(m, d.q, qd, d.t, true, row);
  return gamma;
}

}  // namespace mechsim
