// core/deform/stress.cpp — Cauchy and von Mises stresses per tet and per vertex (see the header).
#include "core/deform/stress.h"

#include <cmath>
#include <stdexcept>

#include "core/deform/hd/element.h"

namespace mechsim::deform {

namespace {
void toRowMajor(const Mat3& A, double* a) {
  for (int r = 0; r < 3; ++r)
    for (int c = 0; c < 3; ++c) a[3 * r + c] = A(r, c);
}
}  // namespace

Mat3 firstPiolaStress(const Material& material, const Mat3& F) {
  double f[9], P[9];
  toRowMajor(F, f);
  hd::materialEval(material.kind, material.mu(), material.lambda(), f, P, nullptr, false);
  Mat3 Pm;
  for (int r = 0; r < 3; ++r)
    for (int c = 0; c < 3; ++c) Pm(r, c) = P[3 * r + c];
  return Pm;
}

Mat3 cauchyStress(const Material& material, const Mat3& F) {
  const Mat3 tau = firstPiolaStress(material, F) * F.transpose();  // Kirchhoff stress J σ
  const double J = F.determinant();
  // Symmetric in exact arithmetic for an isotropic material; symmetrised against round-off.
  const Mat3 s = J > 0 ? Mat3(tau / J) : tau;
  return 0.5 * (s + s.transpose());
}

double vonMises(const Mat3& sigma) {
  const Mat3 dev = sigma - (sigma.trace() / 3.0) * Mat3::Identity();
  return std::sqrt(1.5 * dev.squaredNorm());
}

Mat3 tetDeformationGradient(const DeformableModel& m, const VecX& x, int t) {
  // F = Ds Dm⁻¹, Ds the deformed edge matrix [x₁−x₀, x₂−x₀, x₃−x₀].
  const auto& e = m.mesh.tets[static_cast<size_t>(t)];
  Mat3 Ds;
  for (int k = 0; k < 3; ++k) Ds.col(k) = x.segment<3>(3 * e[k + 1]) - x.segment<3>(3 * e[0]);
  Mat3 B;
  for (int r = 0; r < 3; ++r)
    for (int c = 0; c < 3; ++c) B(r, c) = m.Bm[9 * static_cast<size_t>(t) + 3 * r + c];
  return Ds * B;
}

std::vector<double> tetVonMises(const DeformableModel& m, const VecX& x) {
  if (x.size() != 3 * m.vertexCount()) throw std::invalid_argument("tetVonMises: size mismatch");
  std::vector<double> s(static_cast<size_t>(m.tetCount()));
  for (int t = 0; t < m.tetCount(); ++t) s[static_cast<size_t>(t)] = vonMises(cauchyStress(m.material, tetDeformationGradient(m, x, t)));
  return s;
}

std::vector<double> vertexVonMises(const DeformableModel& m, const VecX& x) {
  return vertexVonMises(m, tetVonMises(m, x));
}

std::vector<double> vertexVonMises(const DeformableModel& m, const std::vector<double>& tet) {
  std::vector<double> num(static_cast<size_t>(m.vertexCount()), 0.0), den(num.size(), 0.0);
  for (int t = 0; t < m.tetCount(); ++t) {
    const double w = std::abs(m.volume[static_cast<size_t>(t)]);
    for (int v : m.mesh.tets[static_cast<size_t>(t)]) {
      num[static_cast<size_t>(v)] += w * tet[static_cast<size_t>(t)];
      den[static_cast<size_t>(v)] += w;
    }
  }
  for (size_t v = 0; v < num.size(); ++v) num[v] = den[v] > 0 ? num[v] / den[v] : 0.0;
  return num;
}

}  // namespace mechsim::deform
