// core/linalg/full_rank_pinv.cpp — A⁺ from a full-rank factorisation by sparse augmented systems
// (see the header for the equations).
#include "core/linalg/full_rank_pinv.h"

#include <Eigen/UmfPackSupport>
#include <algorithm>
#include <vector>

namespace mechsim::linalg {
namespace {

/// One augmented system [αI  B; Bᵀ  0] (B: p × q) and its UMFPACK factorisation.
struct Augmented {
  Eigen::UmfPackLU<SpMat> lu;
  SpMat K;
  std::vector<int> outer, inner;  // the pattern the symbolic analysis was made for
  int p = 0, q = 0;
  double alpha = 1;
  bool analysed = false;
  mutable VecX rhs, sol;

  bool factorize(const SpMat& B) {
    p = static_cast<int>(B.rows());
    q = static_cast<int>(B.cols());
    // α: the largest entry of B, so that the identity block is on the scale of B's entries
    // (the solutions do not depend on α; the pivoting is better balanced).
    alpha = 0;
    for (Eigen::Index k = 0; k < B.nonZeros(); ++k) alpha = std::max(alpha, std::abs(B.valuePtr()[k]));
    if (!(alpha > 0)) alpha = 1;
    std::vector<Eigen::Triplet<double>> t;
    t.reserve(static_cast<std::size_t>(2 * B.nonZeros() + p));
    for (int i = 0; i < p; ++i) t.emplace_back(i, i, alpha);
    for (int j = 0; j < B.outerSize(); ++j)
      for (SpMat::InnerIterator it(B, j); it; ++it) {
        t.emplace_back(static_cast<int>(it.row()), p + j, it.value());
        t.emplace_back(p + j, static_cast<int>(it.row()), it.value());
      }
    K.resize(p + q, p + q);
    K.setFromTriplets(t.begin(), t.end());
    K.makeCompressed();
    const bool same = analysed && static_cast<int>(outer.size()) == K.outerSize() + 1 &&
                      std::equal(outer.begin(), outer.end(), K.outerIndexPtr()) &&
                      static_cast<Eigen::Index>(inner.size()) == K.nonZeros() &&
                      std::equal(inner.begin(), inner.end(), K.innerIndexPtr());
    if (!same) {
      lu.analyzePattern(K);
      if (lu.info() != Eigen::Success) return analysed = false;
      outer.assign(K.outerIndexPtr(), K.outerIndexPtr() + K.outerSize() + 1);
      inner.assign(K.innerIndexPtr(), K.innerIndexPtr() + K.nonZeros());
      analysed = true;
    }
    lu.factorize(K);
    if (lu.info() != Eigen::Success) {
      analysed = false;  // analyse afresh next time
      return false;
    }
    rhs.resize(p + q);
    return true;
  }

  /// The solution of K [u; w] = [a; b] (null a or b: zero): u (p), w (q).
  void solve(const VecX* a, const VecX* b, VecX* u, VecX* w) const {
    if (a) rhs.head(p) = *a;
    else rhs.head(p).setZero();
    if (b) rhs.tail(q) = *b;
    else rhs.tail(q).setZero();
    sol = lu.solve(rhs);
    if (u) *u = sol.head(p);
    if (w) *w = sol.tail(q);
  }
};

}  // namespace

struct FullRankPseudoInverse::Impl {
  Augmented l, u;  // [αI L; Lᵀ 0] (m + r) and [αI Uᵀ; U 0] (n + r)
  SpMat Ut;
};

FullRankPseudoInverse::FullRankPseudoInverse() : impl_(std::make_unique<Impl>()) {}
FullRankPseudoInverse::~FullRankPseudoInverse() = default;

bool FullRankPseudoInverse::factorize(const SpMat& L, const SpMat& U) {
  impl_->Ut = U.transpose();
  return impl_->l.factorize(L) && impl_->u.factorize(impl_->Ut);
}

// K_L [s; y] = [b; 0]: y = L⁺ b.
void FullRankPseudoInverse::solveL(const VecX& b, VecX& y) const { impl_->l.solve(&b, nullptr, nullptr, &y); }

// K_U [z; λ] = [0; y] with K_U = [αI Uᵀ; U 0] (B = Uᵀ, p = n): z = U⁺ y.
void FullRankPseudoInverse::solveU(const VecX& y, VecX& z) const { impl_->u.solve(nullptr, &y, &z, nullptr); }

// K_U [s; v] = [c; 0]: v = (Uᵀ)⁺ c.
void FullRankPseudoInverse::solveUTranspose(const VecX& c, VecX& v) const { impl_->u.solve(&c, nullptr, nullptr, &v); }

// K_L [x; μ] = [0; v]: x = (Lᵀ)⁺ v.
void FullRankPseudoInverse::solveLTranspose(const VecX& v, VecX& x) const { impl_->l.solve(nullptr, &v, &x, nullptr); }

}  // namespace mechsim::linalg
