// core/anm/anm_drag.cpp — the ANM DragSolver (the path and its cost are derived in anm_drag.h).
#include "core/anm/anm_drag.h"

#include <Eigen/Eigenvalues>
#include <chrono>
#include <cmath>
#include <optional>
#include <sstream>

#include "core/anm/constraint_series.h"
#include "core/kinematics/assembly.h"
#include "core/kinematics/kinematics.h"
#include "core/linalg/lu_nullspace.h"
#include "core/max_abs.h"

namespace mechsim {
namespace {

using Clock = std::chrono::steady_clock;
using Mat3X = Eigen::Matrix<double, Eigen::Dynamic, 3>;
/// "reached": |x − c| ≤ this × Model::lengthScale (as the Newton drag solver).
constexpr double kReachRelative = 1e-9;

/// The gradients g_i = ∇x_i of the dragged point as the columns of G (nq × 3):
/// ∂x/∂r = I, ∂x/∂p = D(ℓ) = 2 [c | α I − [c]×], c = w ℓ + v × ℓ, α = v·ℓ (terms.h).
void handleGradients(const Model& m, const VecX& q, const DragPoint& pt, Mat3X& G) {
  G.setZero(m.nq, 3);
  const int i = m.bodies[static_cast<size_t>(pt.body)].qIndex;
  const double w = q(i + 3);
  const Vec3 v = q.segment<3>(i + 4), l = pt.local;
  const Vec3 c = w * l + v.cross(l);
  const double a = v.dot(l);
  for (int k = 0; k < 3; ++k) G(i + k, k) = 1.0;
  // Rows of D(ℓ) (columns w, x, y, z), as components() of terms.h.
  G.block<4, 1>(i + 3, 0) << 2 * c.x(), 2 * a, 2 * c.z(), -2 * c.y();
  G.block<4, 1>(i + 3, 1) << 2 * c.y(), -2 * c.z(), 2 * a, 2 * c.x();
  G.block<4, 1>(i + 3, 2) << 2 * c.z(), 2 * c.y(), -2 * c.x(), 2 * a;
}

/// H(q, λ) = [Φ(q); Bᵀ(x(q) − c)] − (1 − λ) F(q0) for one ANM step (anm_drag.h).
class DragHomotopy : public anm::AnmProblem {
 public:
  DragHomotopy(anm::ConstraintSeries& cs, const linalg::LuNullspace& lu, const Mat3X& G, const Mat3X& Gp,
               const Eigen::MatrixXd& B, const VecX& lam, const VecX& F0)
      : cs_(cs), lu_(lu), G_(G), Gp_(Gp), B_(B), lam_(lam), F0_(F0), zero_(VecX::Zero(G.rows())) {}
  void lambdaColumn(VecX& v) override { v = F0_; }
  void solve(const VecX& b, VecX& x) override {
    // x_p = Φ_q⁺ b_Φ, then the r handle rows by the Schur complement Λ in the g⊥ directions.
    const int mPhi = cs_.equations();
    lu_.solve(b.head(mPhi), xp_);
    const VecX rh = b.tail(B_.cols()) - B_.transpose() * (G_.transpose() * xp_);
    const VecX w = rh.cwiseQuotient(lam_);
    x = xp_ + Gp_ * (B_ * w);
    ++solves;
  }
  void bias(int k, VecX& q) override {
    cs_.setOrder(k, zero_);
    fill(k, q);
  }
  void push(int k, const VecX& xk, double) override { cs_.setOrder(k, xk); }
  int solves = 0;

 private:
  void fill(int k, VecX& q) {
    const int mPhi = cs_.equations();
    q.resize(mPhi + B_.cols());
    cs_.rows(k, rows_);
    q.head(mPhi) = rows_;
    q.tail(B_.cols()) = B_.transpose() * cs_.handle(k);
  }
  anm::ConstraintSeries& cs_;
  const linalg::LuNullspace& lu_;
  const Mat3X &G_, &Gp_;
  const Eigen::MatrixXd& B_;
  const VecX &lam_, &F0_;
  VecX zero_, xp_, rows_;
};

class AnmDragSolver : public DragSolver {
 public:
  explicit AnmDragSolver(const AnmDragOptions& opt) : opt_(opt) {}
  std::string name() const override { return "anm"; }

  void begin(const Model& m, Data& d, const DragPoint& point) override {
    if (point.body < 0 || point.body >= static_cast<int>(m.bodies.size()) ||
        m.bodies[static_cast<size_t>(point.body)].qIndex < 0)
      throw std::invalid_argument("anm drag: the dragged point must be on a moving body");
    model_ = &m;
    point_ = point;
    t_ = d.t;
    const kin::CoordinateReference reference(d.coords);  // coupled leaders' branches (coupling.cpp)
    series_.emplace(m, d.t, opt_.anm.order, &point_, point_.drivers);
    scratch_ = makeData(m);
    rankRef_ = -1;
  }

  void end() override {
    model_ = nullptr;
    series_.reset();
  }

  DragResult update(const Model& m, Data& d, const Vec3& target) override {
    const auto t0 = Clock::now();
    DragResult res;
    auto finish = [&](bool ok, const VecX& q, double phiMax, const std::string& msg) {
      res.converged = ok;
      res.residual = phiMax;
      res.message = msg;
      if (ok) d.q = q;
      res.distance = (bodyPose(m, d.q, point_.body).apply(point_.local) - target).norm();
      res.seconds = std::chrono::duration<double>(Clock::now() - t0).count();
      d.stats.converged = ok;
      d.stats.iterations = res.iterations;
      d.stats.residual = phiMax;
      d.stats.rank = rank_;
      d.stats.singular = rankRef_ >= 0 && rank_ < rankRef_;
      d.stats.solveSeconds = res.seconds;
      d.stats.message = msg;
      return res;
    };
    if (model_ != &m || !series_) return finish(false, d.q, 0, "anm drag: update() without begin() for this model");
    if (!target.allFinite()) return finish(false, d.q, 0, "anm drag: the target is not finite");
    if (d.q.size() != m.nq || !d.q.allFinite()) return finish(false, d.q, 0, "anm drag: d.q is not a valid configuration");
    const kin::CoordinateReference reference(d.coords);  // coupled leaders' branches (coupling.cpp)
    scratch_.coords = d.coords;                          // the same for the Jacobians below
    if (d.t != t_) {  // the drivers are held at d.t: rebuild their rows
      t_ = d.t;
      series_.emplace(m, d.t, opt_.anm.order, &point_, point_.drivers);
    }
    anm::ConstraintSeries& cs = *series_;
    const int mPhi = cs.equations();  // rows of Φ in the drag (drivers last, left out when !drivers)
    const double L = m.lengthScale > 0 ? m.lengthScale : 1.0;
    const double handleTol = opt_.tolerance * L;
    VecX q = d.q, phi0;
    Mat3X G, Gp;
    double phiMax = 0;
    for (int step = 0;; ++step) {
      // The state at the step's start: Φ(q) and x(q) (order 0 of the series).
      cs.start(q);
      cs.rows(0, phi0);
      const Vec3 x0 = cs.handle(0);
      if (!phi0.allFinite() || !x0.allFinite()) return finish(false, d.q, 0, "anm drag: non-finite configuration");
      phiMax = maxAbs(phi0);
      const double dist = (x0 - target).norm();
      if (phiMax < opt_.tolerance && dist < handleTol) {
        res.reached = true;
        return finish(true, q, phiMax, "");
      }
      if (step >= opt_.maxSteps) {
        // Out of steps: keep the configuration reached when it satisfies Φ (the point has moved
        // towards the target and stays on the branch), else leave d.q as it was.
        std::ostringstream os;
        os << "anm drag: stopped after " << opt_.maxSteps << " steps at distance " << dist
           << " (max|Phi| = " << phiMax << ")";
        return finish(phiMax < opt_.tolerance, phiMax < opt_.tolerance ? q : d.q, phiMax, os.str());
      }
      // One factorisation of Φ_q at q.
      scratch_.q = q;
      scratch_.t = d.t;
      constraintJacobian(m, scratch_);
      if (mPhi < m.nEquations) {
        jacobian_ = scratch_.Jq.topRows(mPhi);
        jacobian_.makeCompressed();
      } else {
        jacobian_ = scratch_.Jq;
      }
      if (!lu_.compute(jacobian_)) return finish(false, d.q, phiMax, "anm drag: non-finite Jacobian");
      ++res.factorizations;
      rank_ = lu_.rank();
      rankRef_ = std::max(rankRef_, rank_);
      // The handle's free directions: g⊥_i = g_i − Φ_qᵀ (Φ_qᵀ)⁺ g_i, M = G⊥ᵀ G⊥ = B Λ Bᵀ.
      handleGradients(m, q, point_, G);
      Gp.resize(m.nq, 3);
      VecX w;
      for (int i = 0; i < 3; ++i) {
        lu_.solveMinNormTranspose(G.col(i), w);
        Gp.col(i) = G.col(i) - jacobian_.transpose() * w;
        ++res.solves;
      }
      const Mat3 M = Gp.transpose() * Gp;
      const Eigen::SelfAdjointEigenSolver<Mat3> eig(M);
      const double scale = G.colwise().squaredNorm().maxCoeff();
      int r = 0;
      for (int i = 0; i < 3; ++i) r += eig.eigenvalues()(i) > opt_.handleRankRelative * scale;
      const Eigen::MatrixXd B = eig.eigenvectors().rightCols(r);
      const VecX lam = eig.eigenvalues().tail(r);
      const VecX e0 = B.transpose() * (x0 - target);
      // Converged to the closest reachable configuration (first-order condition Bᵀ(x − c) = 0).
      if (phiMax < opt_.tolerance && (r == 0 || e0.norm() < handleTol)) {
        res.reached = dist <= kReachRelative * L;
        return finish(true, q, phiMax, "");
      }
      // One ANM step on H(q, λ) = F(q) − (1 − λ) F(q0), λ from 0 to 1.
      VecX F0(mPhi + r);
      F0.head(mPhi) = phi0;
      F0.tail(r) = e0;
      DragHomotopy h(cs, lu_, G, Gp, B, lam, F0);
      try {
        const anm::AnmSeries s = anm::expandSeries(h, q, 0.0, opt_.anm);
        res.solves += h.solves;
        const double a = s.stepTo(1.0);
        q = s.xAt(a);
      } catch (const std::exception& e) {
        res.solves += h.solves;
        return finish(false, d.q, phiMax, std::string("anm drag: ") + e.what());
      }
      ++res.iterations;
    }
  }

 private:
  AnmDragOptions opt_;
  const Model* model_ = nullptr;
  DragPoint point_;
  double t_ = 0;
  std::optional<anm::ConstraintSeries> series_;
  Data scratch_;
  SpMat jacobian_;  // Φ_q of the drag's rows
  linalg::LuNullspace lu_;
  int rank_ = 0, rankRef_ = -1;
};

}  // namespace

std::unique_ptr<DragSolver> makeAnmDragSolver(const AnmDragOptions& opt) {
  return std::make_unique<AnmDragSolver>(opt);
}

}  // namespace mechsim
