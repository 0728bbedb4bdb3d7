// core/deform/low_modes.cpp — block Krylov–Schur for the lowest eigenpairs of H (see the header).
#include "core/deform/low_modes.h"

#include <Eigen/Eigenvalues>
#include <algorithm>
#include <chrono>
#include <cmath>
#include <random>
#include <stdexcept>
#include <string>

#include "core/deform/blas.h"

namespace mechsim::deform {

namespace {

/// The basis V (n × pMax, the first p columns in use) and the projection T = Vᵀ A V: its upper
/// triangle, block column by block column, as the blocks are applied.
struct KrylovBasis {
  MatX V, T;
  int n = 0, p = 0;

  /// C = V_pᵀ X (p × cols).
  MatX project(const MatX& X) const {
    MatX C(p, X.cols());
    if (p > 0)
      blas::gemm('T', 'N', p, static_cast<int>(X.cols()), n, 1.0, V.data(), n, X.data(), n, 0.0, C.data(), p);
    return C;
  }
  /// X −= V_p C.
  void subtract(const MatX& C, MatX& X) const {
    if (p > 0)
      blas::gemm('N', 'N', n, static_cast<int>(X.cols()), p, -1.0, V.data(), n, C.data(), p, 1.0, X.data(), n);
  }
};

/// n × cols independent standard normal entries.
MatX normalBlock(int n, int cols, std::mt19937_64& rng) {
  std::normal_distribution<double> normal;
  MatX X(n, cols);
  for (int j = 0; j < cols; ++j)
    for (int i = 0; i < n; ++i) X(i, j) = normal(rng);
  return X;
}

/// A random direction orthogonal to V_p and to Q's first j columns (twice, for round-off).
VecX randomOrthogonal(const KrylovBasis& basis, const MatX& Q, int j, std::mt19937_64& rng) {
  MatX z = normalBlock(basis.n, 1, rng);
  for (int pass = 0; pass < 2; ++pass) {
    basis.subtract(basis.project(z), z);
    for (int i = 0; i < j; ++i) z.col(0) -= Q.col(i).dot(z.col(0)) * Q.col(i);
  }
  return z.col(0).normalized();
}

/// The next block from W = A V_last: Z = (I − V Vᵀ) W by classical Gram–Schmidt twice (the first
/// pass's coefficients C = V_pᵀ W are T's last block column, already formed), then Z = Q R by
/// Gram–Schmidt (twice) within the block. A column that vanishes — the space has met an invariant
/// subspace — is replaced by a random direction, with a zero row in R (the header: repeated
/// eigenvalues).
void nextBlock(const KrylovBasis& basis, const MatX& W, const MatX& C, MatX& Q, MatX& R, std::mt19937_64& rng) {
  const int b = static_cast<int>(W.cols());
  MatX Z = W;
  basis.subtract(C, Z);
  basis.subtract(basis.project(Z), Z);
  Q.resize(basis.n, b);
  R = MatX::Zero(b, b);
  for (int j = 0; j < b; ++j) {
    VecX z = Z.col(j);
    for (int pass = 0; pass < 2; ++pass)
      for (int i = 0; i < j; ++i) {
        const double r = Q.col(i).dot(z);
        R(i, j) += r;
        z -= r * Q.col(i);
      }
    const double norm = z.norm();
    if (norm > 1e-10 * W.col(j).norm() && norm > 0) {
      R(j, j) = norm;
      Q.col(j) = z / norm;
    } else {
      Q.col(j) = randomOrthogonal(basis, Q, j, rng);
    }
  }
}

LowModes denseModes(const SpMat& H, int k) {
  const Eigen::SelfAdjointEigenSolver<MatX> es{MatX(H)};
  if (es.info() != Eigen::Success) throw std::runtime_error("lowest modes: the dense eigensolver failed");
  LowModes out;
  out.values = es.eigenvalues().head(k);
  out.vectors = es.eigenvectors().leftCols(k);
  out.dense = true;
  return out;
}

}  // namespace

LowModes lowestModes(const SpMat& H, int k, const BlockInverse& inverse, const LowModesOptions& o) {
  const auto n = static_cast<int>(H.rows());
  if (H.cols() != H.rows()) throw std::invalid_argument("lowest modes: the matrix is not square");
  if (k < 1 || k >= n)
    throw std::invalid_argument("lowest modes: " + std::to_string(k) + " modes of a matrix of order " +
                                std::to_string(n) + " (1 to n − 1)");
  const int b = std::max(1, std::min(o.blockSize, k));
  const int pMax = std::max(o.basisSize > 0 ? o.basisSize : std::max(2 * k + b, k + 3 * b), k + 2 * b);
  if (n < o.denseBelow || pMax + b > n) return denseModes(H, k);

  LowModes out;
  std::mt19937_64 rng(o.seed);
  KrylovBasis basis;
  basis.n = n;
  basis.V.resize(n, pMax);
  basis.T = MatX::Zero(pMax, pMax);

  // Appends the orthonormal block Q to V, applies A to it and fills T's new block column.
  MatX W;
  const auto append = [&](const MatX& Q) {
    const int bq = static_cast<int>(Q.cols());
    basis.V.middleCols(basis.p, bq) = Q;
    basis.p += bq;
    const auto t = std::chrono::steady_clock::now();
    inverse(Q, W);
    out.applySeconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
    out.applications += bq;
    basis.T.block(0, basis.p - bq, basis.p, bq) = basis.project(W);
  };

  MatX Q, R;
  nextBlock(basis, normalBlock(n, b, rng), MatX(0, b), Q, R, rng);  // start block, orthonormalised
  append(Q);

  // Rayleigh–Ritz also every checkEvery blocks before the basis is full (about four times per
  // fill), so that the space stops growing soon after the wanted pairs have converged.
  const int checkEvery = std::max(1, (pMax - k) / (4 * b));
  int sinceCheck = 0;
  for (;;) {
    // A V_last − V C = Q R, with C = Vᵀ A V_last (T's last block column)
    nextBlock(basis, W, basis.T.block(0, basis.p - b, basis.p, b), Q, R, rng);
    const bool full = basis.p + b > pMax;
    ++sinceCheck;
    if (!full && (basis.p < k + b || sinceCheck < checkEvery)) {
      append(Q);
      continue;
    }
    sinceCheck = 0;
    // Rayleigh–Ritz: T Y = Y Θ (θ ascending; the wanted are the last k).
    const int p = basis.p;
    const MatX Tp = basis.T.topLeftCorner(p, p).selfadjointView<Eigen::Upper>();
    const Eigen::SelfAdjointEigenSolver<MatX> es(Tp);
    if (es.info() != Eigen::Success) throw std::runtime_error("lowest modes: the projected eigenproblem failed");
    const VecX& theta = es.eigenvalues();
    const MatX& Y = es.eigenvectors();
    double worst = 0;
    int nconv = 0;
    for (int t = 0; t < k; ++t) {
      const int c = p - 1 - t;
      if (!(theta[c] > 0)) throw std::runtime_error("lowest modes: the matrix is not positive definite");
      const double res = (R * Y.block(p - b, c, b, 1)).norm() / theta[c];  // ‖A φ − θ φ‖ / θ
      worst = std::max(worst, res);
      nconv += res <= o.tolerance;
    }
    if (nconv == k) {
      out.values.resize(k);
      MatX Yk(p, k);
      for (int t = 0; t < k; ++t) {
        out.values[t] = 1.0 / theta[p - 1 - t];
        Yk.col(t) = Y.col(p - 1 - t);
      }
      out.vectors.resize(n, k);
      blas::gemm('N', 'N', n, k, p, 1.0, basis.V.data(), n, Yk.data(), p, 0.0, out.vectors.data(), n);
      out.largestResidual = worst;
      return out;
    }
    if (!full) {
      append(Q);
      continue;
    }
    if (out.restarts == o.maxRestarts)
      throw std::runtime_error("lowest modes: not converged after " + std::to_string(o.maxRestarts) +
                               " restarts (largest residual " + std::to_string(worst) + ")");
    ++out.restarts;
    // Thick restart: the `keep` largest Ritz pairs, then the block Q that continues the space.
    // Beyond the k wanted it keeps as many as have converged, up to half the spare room (Spectra's
    // rule): few converged leave the most room for new directions.
    const int keep = std::max(k, std::min(k + std::min(nconv, (pMax - k) / 2), pMax - 2 * b));
    MatX Phi(n, keep);
    blas::gemm('N', 'N', n, keep, p, 1.0, basis.V.data(), n, Y.data() + std::size_t(p - keep) * p, p, 0.0, Phi.data(),
               n);
    basis.V.leftCols(keep) = Phi;
    basis.T.setZero();
    basis.T.diagonal().head(keep) = theta.tail(keep);
    basis.p = keep;
    append(Q);
  }
}

}  // namespace mechsim::deform
