// tests/core/test_contact_lcp.cpp — tests core/contact/{lcp,pgs,amgs_dense,amgs_sparse,solver,exact}.cpp:
// the contact LCP of paper 000 and its solvers against independent references.
//  - Lemke's algorithm against enumeration of complementary index sets (two exact methods).
//  - RES (eq. 24) through J, M⁻¹ against ‖min{λ, Aλ + q}‖ with the dense A.
//  - Method 3.1 (through v̂) and Method 2.2 (explicit A) give the same iterates to rounding, for
//    Ω = αD and Ω = ω̄E, LCP and boxed.
//  - PGS, Method 2.2, Method 3.1 [ω̄E], [D/γ], [0.2D] reach RES < 1e-8 on random positive definite
//    problems (planar and spatial bodies) and agree with the exact solution.
//  - The boxed solvers (PGS, Method 3.2) respect the friction bounds |λ_t| ≤ μλ_n and match the
//    enumerated BLCP solution; fixed boxes with negative lower bounds match enumeration too.
//  - The sweep order is a colouring (no two contacts of a colour share a body, friction rows
//    behind their normal row), and the solvers follow it: PGS sweeps match a dense PGS written
//    out in that order.
#include <QtTest>

#include <Eigen/Eigenvalues>
#include <random>

#include "core/contact/exact.h"
#include "core/contact/lcp.h"
#include "core/contact/solver.h"
#include "core/contact/sweep_order.h"

using namespace mechsim;
using namespace mechsim::contact;

namespace {

/// Random bodies (dof 3 or 6) with SPD mass blocks and random rows of J between random bodies
/// (one side a fixed body with probability 1/4). `frictionDirs` > 0 adds that many friction rows
/// after each normal row (bounds ±μλ_n). Rejects problems whose A has condition number > 1e4, so
/// that A is safely positive definite (Theorem 4.2 assumes it).
LcpProblem randomProblem(std::mt19937& g, int dof, int bodies, int contacts, int frictionDirs = 0, double mu = 0.5) {
  std::normal_distribution<double> N01;
  std::uniform_real_distribution<double> U(0.5, 3.0);
  std::uniform_int_distribution<int> pickBody(0, bodies - 1);
  for (int attempt = 0; attempt < 100; ++attempt) {
    LcpProblem p;
    p.dof = dof;
    p.bodies = bodies;
    p.invMass.assign(static_cast<std::size_t>(bodies) * dof * dof, 0.0);
    for (int k = 0; k < bodies; ++k) {
      MatX R = MatX::Random(dof, dof);
      MatX W = R * R.transpose() / dof + U(g) * MatX::Identity(dof, dof);  // SPD M⁻¹ block
      for (int r = 0; r < dof; ++r)
        for (int c = 0; c < dof; ++c) p.invMass[static_cast<std::size_t>(k) * dof * dof + r * dof + c] = W(r, c);
    }
    p.v = VecX::NullaryExpr(bodies * dof, [&]() { return N01(g); });
    std::vector<double> ja(dof), jb(dof);
    auto randomRow = [&]() {
      for (int k = 0; k < dof; ++k) {
        ja[k] = N01(g);
        jb[k] = N01(g);
      }
    };
    for (int c = 0; c < contacts; ++c) {
      int a = pickBody(g), b = pickBody(g);
      if (b == a || g() % 4 == 0) b = -1;
      randomRow();
      const int n = p.addRow(a, ja.data(), b, jb.data(), N01(g));
      for (int t = 0; t < frictionDirs; ++t) {
        randomRow();
        p.addFrictionRow(n, mu, a, ja.data(), b, jb.data(), 0.3 * N01(g));
      }
    }
    MatX A;
    VecX q;
    formDense(p, A, q);
    Eigen::SelfAdjointEigenSolver<MatX> eig(A);
    if (eig.eigenvalues().minCoeff() > 1e-4 * eig.eigenvalues().maxCoeff()) return p;
  }
  throw std::runtime_error("no well-conditioned random problem");
}

VecX solveWith(const LcpProblem& p, const std::string& method, int iterations, const VecX& warm,
               double tolerance = 0.0, SolverResult* out = nullptr) {
  SolverSettings s = parseMethod(method);
  s.maxIterations = iterations;
  s.tolerance = tolerance;
  LcpSolver solver;
  VecX lambda = warm;
  const SolverResult r = solver.solve(p, s, lambda);
  if (out) *out = r;
  return lambda;
}

}  // namespace

class TestContactLcp : public QObject {
  Q_OBJECT
 private slots:
  void lemkeMatchesEnumeration();
  void residualMatchesDenseDefinition();
  void sparseAndDenseSameIterates();
  void solversReachExactSolution();
  void boxedRespectsFrictionBounds();
  void boxedFixedBoundsMatchEnumeration();
  void badInputIsRejected();
  void cfmRegularisedMatchesLemke();
  void sweepOrderIsAColouring();
};

void TestContactLcp::sweepOrderIsAColouring() {
  std::mt19937 g(7);
  std::normal_distribution<double> N01;
  std::uniform_int_distribution<int> pickBody(0, 11);
  // 12 planar bodies (unit masses), 60 contacts with one friction row each, a quarter against a
  // fixed body: many contacts share a body, as in a pile
  LcpProblem p;
  p.dof = 3;
  p.bodies = 12;
  p.invMass.assign(12 * 9, 0.0);
  for (int k = 0; k < 12; ++k)
    for (int r = 0; r < 3; ++r) p.invMass[k * 9 + r * 4] = 1.0;
  p.v = VecX::NullaryExpr(36, [&]() { return N01(g); });
  double ja[3], jb[3];
  for (int c = 0; c < 60; ++c) {
    const int a = pickBody(g);
    int b = pickBody(g);
    if (b == a || c % 4 == 0) b = -1;
    for (int k = 0; k < 3; ++k) ja[k] = N01(g), jb[k] = N01(g);
    const int n = p.addRow(a, ja, b, jb, N01(g));
    for (int k = 0; k < 3; ++k) ja[k] = N01(g), jb[k] = N01(g);
    p.addFrictionRow(n, 0.4, a, ja, b, jb);
  }
  p.validate();
  std::vector<int> order;
  sweepOrder(p, order);
  const int m = p.rows();
  QCOMPARE(static_cast<int>(order.size()), m);
  std::vector<int> seen(m, 0);
  for (int i : order) {
    QVERIFY(i >= 0 && i < m);
    ++seen[i];
  }
  QVERIFY(std::all_of(seen.begin(), seen.end(), [](int c) { return c == 1; }));
  // friction rows right behind their normal row; contacts split into runs (colours) in which no
  // two contacts share a body, the colour changing only where a contact meets a used body
  int runs = 1, sharedNeighbours = 0, naturalShared = 0;
  std::vector<int> usedInRun;
  auto shares = [&](int i, int j) {
    for (int x : {p.bodyA[i], p.bodyB[i]})
      if (x >= 0 && (x == p.bodyA[j] || x == p.bodyB[j])) return true;
    return false;
  };
  int lastContact = -1;
  for (int k = 0; k < m; ++k) {
    const int i = order[k];
    if (p.frictionOf[i] >= 0) {
      QCOMPARE(order[k - 1], p.frictionOf[i]);
      continue;
    }
    if (lastContact >= 0 && shares(i, lastContact)) ++sharedNeighbours;
    bool clash = false;
    for (int j : usedInRun) clash = clash || shares(i, j);
    if (clash) {
      ++runs;
      usedInRun.clear();
    }
    usedInRun.push_back(i);
    lastContact = i;
  }
  for (int i = 2; i < m; i += 2) naturalShared += shares(i, i - 2) ? 1 : 0;
  QVERIFY2(runs <= 20, qPrintable(QString("%1 runs").arg(runs)));
  QVERIFY2(sharedNeighbours < runs, qPrintable(QString("%1 of 59 consecutive contacts share a body (given order: %2)")
                                                   .arg(sharedNeighbours)
                                                   .arg(naturalShared)));
  // the solvers sweep in this order: 5 sweeps of boxed PGS against the same sweeps on the dense A
  MatX A;
  VecX q;
  formDense(p, A, q);
  VecX ref = VecX::Zero(m);
  for (int sweep = 0; sweep < 5; ++sweep)
    for (int i : order) {
      double l, u;
      rowBounds(p, ref, i, l, u);
      ref[i] = std::min(std::max(ref[i] - (A.row(i).dot(ref) + q[i]) / A(i, i), l), u);
    }
  const VecX lambda = solveWith(p, "pgs", 5, VecX::Zero(m));
  QVERIFY2((lambda - ref).norm() <= 1e-10 * (1 + ref.norm()), qPrintable(QString::number((lambda - ref).norm())));
}

void TestContactLcp::cfmRegularisedMatchesLemke() {
  // With cfm = κ diag(J M⁻¹ Jᵀ) the solvers must reach the solution of LCP(q, A + diag(cfm)),
  // A formed here from J and M⁻¹ independently of the solvers' code (κ = 0.05, large enough that
  // the unregularised solution is far from it).
  std::mt19937 g(21);
  for (int trial = 0; trial < 6; ++trial) {
    const int dof = trial % 2 ? 6 : 3;
    LcpProblem p = randomProblem(g, dof, 5, dof == 3 ? 9 : 12);
    const SpMat J = jacobian(p);
    const MatX A0 = MatX(J * inverseMass(p) * SpMat(J.transpose()));
    p.cfm = 0.05 * A0.diagonal();
    const MatX A = A0 + MatX(p.cfm.asDiagonal());
    const VecX q = J * p.v + p.b;
    VecX exact, plain;
    QVERIFY(lemke(A, q, exact));
    QVERIFY(lemke(A0, q, plain));
    QVERIFY((exact - plain).norm() > 1e-3 * (1 + exact.norm()));
    for (const char* method : {"pgs", "amgs-2.2", "amgs-3.1-D", "amgs-3.1-a0.2"}) {
      SolverResult r;
      const VecX lambda = solveWith(p, method, 100000, VecX(), 1e-10, &r);
      QVERIFY2(r.converged, qPrintable(QString("%1 trial %2: RES %3").arg(method).arg(trial).arg(r.residual)));
      QVERIFY2((lambda - exact).norm() <= 1e-6 * (1 + exact.norm()),
               qPrintable(QString("%1 trial %2: error %3").arg(method).arg(trial).arg((lambda - exact).norm())));
    }
  }
}

void TestContactLcp::lemkeMatchesEnumeration() {
  std::mt19937 g(11);
  int nontrivial = 0;
  for (int trial = 0; trial < 20; ++trial) {
    const LcpProblem p = randomProblem(g, trial % 2 ? 6 : 3, 4, 8);
    MatX A;
    VecX q;
    formDense(p, A, q);
    VecX zl, ze;
    QVERIFY(lemke(A, q, zl));
    QVERIFY(enumerateBoxed(A, q, VecX::Zero(8), VecX::Constant(8, kInf), ze));
    QVERIFY2((zl - ze).norm() <= 1e-9 * (1 + ze.norm()), qPrintable(QString::number((zl - ze).norm())));
    const VecX w = A * zl + q;
    QVERIFY(zl.minCoeff() >= 0 && w.minCoeff() >= -1e-10 && std::abs(w.dot(zl)) <= 1e-9);
    if ((zl.array() > 0).count() > 1 && (zl.array() == 0).count() > 1) ++nontrivial;
  }
  QVERIFY(nontrivial >= 5);  // both active and inactive contacts occur
}

void TestContactLcp::residualMatchesDenseDefinition() {
  std::mt19937 g(12);
  for (int dof : {3, 6}) {
    const LcpProblem p = randomProblem(g, dof, 5, 9);
    MatX A;
    VecX q;
    formDense(p, A, q);
    LcpPrecomputed pre;
    precompute(p, pre);
    QVERIFY((pre.diag - A.diagonal()).norm() <= 1e-12 * A.diagonal().norm());
    const VecX lambda = VecX::Random(9).cwiseAbs();
    const double res = (lambda.cwiseMin(A * lambda + q)).norm();  // eq. 24
    QVERIFY(std::abs(residual(p, pre, lambda) - res) <= 1e-12 * (1 + res));
    VecX z;
    QVERIFY(lemke(A, q, z));
    QVERIFY(residual(p, pre, z) < 1e-10);
  }
}

void TestContactLcp::sparseAndDenseSameIterates() {
  std::mt19937 g(13);
  for (int trial = 0; trial < 6; ++trial) {
    const int friction = trial >= 4 ? 1 : 0;
    const LcpProblem p = randomProblem(g, trial % 2 ? 6 : 3, 6, friction ? 5 : 10, friction);
    const VecX warm = 0.3 * VecX::Random(p.rows()).cwiseAbs();
    for (const char* omega : {"amgs-3.1-D", "amgs-3.1-a0.2", "amgs-3.1-wE"}) {
      SolverSettings sparse = parseMethod(omega), dense = sparse;
      dense.method = Method::AmgsDense;
      double worst = 0;
      for (int k = 1; k <= 25; k += 3) {
        sparse.maxIterations = dense.maxIterations = k;
        LcpSolver s1, s2;
        VecX l1 = warm, l2 = warm;
        s1.solve(p, sparse, l1);
        s2.solve(p, dense, l2);
        worst = std::max(worst, (l1 - l2).norm() / (1 + l2.norm()));
      }
      QVERIFY2(worst <= 1e-12, qPrintable(QString("%1 %2: %3").arg(trial).arg(omega).arg(worst)));
    }
  }
}

void TestContactLcp::solversReachExactSolution() {
  std::mt19937 g(14);
  for (int trial = 0; trial < 8; ++trial) {
    const int dof = trial % 2 ? 6 : 3;
    const LcpProblem p = randomProblem(g, dof, 5, dof == 3 ? 9 : 12);
    MatX A;
    VecX q;
    formDense(p, A, q);
    VecX exact;
    QVERIFY(lemke(A, q, exact));
    const double lmin = Eigen::SelfAdjointEigenSolver<MatX>(A).eigenvalues().minCoeff();
    for (const char* method : {"pgs", "amgs-2.2", "amgs-3.1-wE", "amgs-3.1-D", "amgs-3.1-a0.2"}) {
      SolverResult r;
      const VecX lambda = solveWith(p, method, 100000, VecX(), 1e-8, &r);
      QVERIFY2(r.converged && r.residual < 1e-8, qPrintable(QString("%1 trial %2: RES %3 after %4")
                                                               .arg(method).arg(trial).arg(r.residual).arg(r.iterations)));
      // for a positive definite A, ‖λ − λ*‖ ≤ c·RES/λ_min(A); allow a generous c
      QVERIFY2((lambda - exact).norm() <= 1e-6 * (1 + exact.norm()) + 20 * 1e-8 / lmin,
               qPrintable(QString("%1 trial %2: error %3").arg(method).arg(trial).arg((lambda - exact).norm())));
    }
  }
}

void TestContactLcp::boxedRespectsFrictionBounds() {
  std::mt19937 g(15);
  int sliding = 0, sticking = 0;  // friction rows at ±μλ_n > 0 / strictly inside
  for (int trial = 0; trial < 6; ++trial) {
    const int dof = trial % 2 ? 6 : 3;
    const int dirs = dof == 3 ? 1 : 2;
    const LcpProblem p = randomProblem(g, dof, 5, dof == 3 ? 4 : 3, dirs, 0.4);
    QVERIFY(p.boxed());
    MatX A;
    VecX q;
    formDense(p, A, q);
    for (const char* method : {"pgs", "amgs-3.1-D", "amgs-3.1-a0.2", "amgs-2.2"}) {
      SolverResult r;
      const VecX lambda = solveWith(p, method, 200000, VecX(), 1e-8, &r);
      QVERIFY2(r.converged, qPrintable(QString("%1 trial %2: RES %3").arg(method).arg(trial).arg(r.residual)));
      VecX lo(p.rows()), hi(p.rows());
      for (int i = 0; i < p.rows(); ++i) {
        rowBounds(p, lambda, i, lo[i], hi[i]);
        QVERIFY(lambda[i] >= lo[i] - 1e-14 && lambda[i] <= hi[i] + 1e-14);  // |λ_t| ≤ μ λ_n, λ_n ≥ 0
        if (p.frictionOf[i] >= 0 && hi[i] > 1e-6) {
          if (std::abs(std::abs(lambda[i]) - hi[i]) <= 1e-12) ++sliding;
          else ++sticking;
        }
      }
      // with the bounds frozen at the solution's λ_n, λ solves that BLCP: compare with enumeration
      VecX ze;
      QVERIFY(enumerateBoxed(A, q, lo, hi, ze, 1e-7));
      QVERIFY2((lambda - ze).norm() <= 1e-5 * (1 + ze.norm()),
               qPrintable(QString("%1 trial %2: %3").arg(method).arg(trial).arg((lambda - ze).norm())));
    }
  }
  QVERIFY2(sliding > 0 && sticking > 0, qPrintable(QString("sliding %1 sticking %2").arg(sliding).arg(sticking)));
}

void TestContactLcp::boxedFixedBoundsMatchEnumeration() {
  std::mt19937 g(16);
  std::uniform_real_distribution<double> U(0.05, 1.0);
  for (int trial = 0; trial < 6; ++trial) {
    LcpProblem p = randomProblem(g, trial % 2 ? 6 : 3, 5, 8);
    for (int i = 0; i < p.rows(); ++i) {
      // mixed boxes: [0, u], [−l, u] (negative lower bounds, as bilateral / friction rows), [l, ∞)
      if (i % 3 == 0) p.hi[i] = U(g);
      if (i % 3 == 1) {
        p.lo[i] = -U(g);
        p.hi[i] = U(g);
      }
      if (i % 3 == 2) p.lo[i] = 0.1 * U(g);
    }
    MatX A;
    VecX q;
    formDense(p, A, q);
    VecX ze;
    QVERIFY(enumerateBoxed(A, q, p.lo, p.hi, ze));
    for (const char* method : {"pgs", "amgs-3.1-D", "amgs-3.1-a0.3", "amgs-3.1-wE"}) {
      SolverResult r;
      const VecX lambda = solveWith(p, method, 200000, VecX(), 1e-8, &r);
      QVERIFY2(r.converged, qPrintable(QString("%1 trial %2: RES %3").arg(method).arg(trial).arg(r.residual)));
      QVERIFY((lambda - p.lo).minCoeff() >= 0 && (p.hi - lambda).minCoeff() >= 0);
      QVERIFY2((lambda - ze).norm() <= 1e-6 * (1 + ze.norm()),
               qPrintable(QString("%1 trial %2: %3").arg(method).arg(trial).arg((lambda - ze).norm())));
    }
  }
}

void TestContactLcp::badInputIsRejected() {
  std::mt19937 g(17);
  LcpProblem p = randomProblem(g, 3, 3, 4);
  p.validate();
  LcpProblem bad = p;
  bad.b[1] = std::numeric_limits<double>::quiet_NaN();
  QVERIFY_THROWS_EXCEPTION(std::invalid_argument, bad.validate());
  bad = p;
  bad.bodyA[0] = 7;
  QVERIFY_THROWS_EXCEPTION(std::invalid_argument, bad.validate());
  bad = p;
  for (int k = 0; k < 3; ++k) bad.jA[k] = bad.jB[k] = 0.0;  // empty row: A_00 = 0
  QVERIFY_THROWS_EXCEPTION(std::invalid_argument, bad.validate());
  bad = p;
  bad.lo[2] = 1.0;
  bad.hi[2] = 0.0;
  QVERIFY_THROWS_EXCEPTION(std::invalid_argument, bad.validate());
  QVERIFY_THROWS_EXCEPTION(std::invalid_argument, parseMethod("amgs-3.1-a"));
  QVERIFY_THROWS_EXCEPTION(std::invalid_argument, parseMethod("amgs-3.1-a-0.2"));
  QVERIFY_THROWS_EXCEPTION(std::invalid_argument, parseMethod("gauss"));
  QVERIFY(std::abs(parseMethod("amgs-3.1-a0.25").alpha - 0.25) < 1e-15);
  // an empty problem solves at once
  LcpProblem empty;
  empty.bodies = 1;
  empty.invMass.assign(9, 0.0);
  empty.v = VecX::Zero(3);
  empty.b.resize(0);
  empty.lo.resize(0);
  empty.hi.resize(0);
  VecX lambda;
  LcpSolver s;
  QVERIFY(s.solve(empty, parseMethod("amgs-3.1-D"), lambda).converged);
  QCOMPARE(lambda.size(), 0);
}

QTEST_APPLESS_MAIN(TestContactLcp)
#include "test_contact_lcp.moc"
