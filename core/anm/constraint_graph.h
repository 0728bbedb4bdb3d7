#pragma once
// core/anm/constraint_graph.h — the constraint equations as an expression graph evaluated one
// Taylor order at a time (paper 004 §5.2 "Algorithm 1", notes §2.1-2.3).
//
// Along a path q(a) = Σ q_i a^i every quantity of the joint equations (terms.h) is a series:
//   R(p(a))        R_k = Σ_{i+j=k} B(p_i, p_j),   B(p, p') = (w w' − v·v') I + 2 v v'ᵀ + 2 w [v']×
//                  (R(p) = B(p, p) is the homogeneous quadratic rotation formula of terms.h; the sum
//                  over ordered pairs symmetrises B)
//   direction      u = R a:           u_k = R_k a
//   point          x = r + R s:       x_k = r_k + R_k s
//   difference     (x − y)_k = x_k − y_k,   component  (x)_i,k
//   dot            (u·w)_k = Σ_{i=0}^{k} u_i·w_{k−i}                    (Cauchy product)
//   combination    (α s + β t − c)_k = α s_k + β t_k − c δ_{k0}
//   norm           |x| = √(x·x), square-root rule of series.h
//   normalisation  (pᵀp − 1)_k = Σ_{i=0}^{k} p_i·p_{k−i} − δ_{k0}
//   product        (s t)_k = Σ_{i=0}^{k} s_i t_{k−i}
// and, for the coupling rows (a coordinate held at a polynomial of an angle, coupling.cpp):
//   sin, cos       of a scalar x, from s' = c x', c' = −s x':
//                  s_k = (1/k) Σ_{j=1}^{k} j x_j c_{k−j},   c_k = −(1/k) Σ_{j=1}^{k} j x_j s_{k−j}
//   atan2          θ = atan2(S, C), from θ' D = C S' − S C', D = S² + C²:
//                  k θ_k D_0 = Σ_{i=0}^{k−1} (k−i)(C_i S_{k−i} − S_i C_{k−i}) − Σ_{i=1}^{k−1} (k−i) D_i θ_{k−i}
//                  θ_0 on the 2π-branch nearest the node's reference, which each start() moves to
//                  the new θ_0 (the angle stays continuous from one expansion to the next)
// (each affine in the order-k inputs, as Proposition 1 needs).
// Nodes are created after their inputs (a topological order), and evaluation at order k needs the
// coefficients < k of every node, which the graph stores (memory ≈ N × graph size, as in SANM).
// By Proposition 1 of paper 004 every node's order-k coefficient is affine in q_k: evaluating order
// k with q_k = 0 gives the BIAS of the order-k linear system; evaluating it again with the solved
// q_k (setOrder overwrites) pushes the true coefficient. Cost per order k: O(k) per body and per
// dot node, so O(N²) per row for a whole expansion.
#include <utility>
#include <vector>

#include "core/model.h"
#include "core/types.h"

namespace mechsim::anm {

class ConstraintGraph {
 public:
  /// Graph over the bodies of m, for series up to order `order` (≥ 0).
  ConstraintGraph(const Model& m, int order);

  // ---- building (returns the node id) ----
  /// World direction R(p_b) a of body b (a in the body frame).
  int direction(int body, const Vec3& a);
  /// World point r_b + R(p_b) s of body b.
  int point(int body, const Vec3& s);
  /// u − v (vector nodes).
  int difference(int u, int v);
  /// Component i (0..2) of vector node v.
  int component(int v, int i);
  /// u·v (vector nodes).
  int dot(int u, int v);
  /// α s + β t − c (scalar nodes; t = −1: none).
  int combine(double alpha, int s, double beta, int t, double c);
  /// |v| (vector node; must not vanish at order 0).
  int norm(int v);
  /// pᵀp − 1 of moving body b.
  int quaternionNorm(int body);
  /// s t (scalar nodes).
  int product(int s, int t);
  /// sin x and cos x of scalar node x: {sin node, cos node}.
  std::pair<int, int> sinCos(int x);
  /// atan2(S, C) of scalar nodes s, c, its order 0 on the branch nearest `reference` [rad].
  int atan2(int s, int c, double reference);

  // ---- evaluation ----
  /// Order 0 at coordinates q (nq).
  void start(const VecX& q);
  /// Order k (1 ≤ k ≤ order(), after orders < k) with the coordinates' coefficient qk (nq).
  void setOrder(int k, const VecX& qk);
  /// Coefficient k of scalar node n / vector node n.
  double scalar(int n, int k) const { return scoef_[static_cast<size_t>(nodes_[n].slot) * stride_ + k]; }
  const Vec3& vector(int n, int k) const { return vcoef_[static_cast<size_t>(nodes_[n].slot) * stride_ + k]; }
  int order() const { return order_; }
  int nodeCount() const { return static_cast<int>(nodes_.size()); }

 private:
  enum class Kind { Direction, Point, Difference, Component, Dot, Combine, Sqrt, QuatNorm, Product, Sin, Cos, Atan2 };
  struct Node {
    Kind kind;
    int a = -1, b = -1;       // inputs (node ids) or body; Sin / Cos: b is the partner node
    Vec3 local = Vec3::Zero();
    double alpha = 0, beta = 0, c = 0;  // Atan2: c is the branch reference
    int slot = 0;             // index of its coefficient block
    bool isVector = false;
  };
  int add(Node n);
  void bodyOrder(int k, const VecX* qk);
  void evalNode(Node& n, int k);

  const Model* m_;
  int order_, stride_;
  std::vector<Node> nodes_;
  std::vector<Vec3> vcoef_;     // (vector nodes × (N+1))
  std::vector<double> scoef_;   // (scalar nodes × (N+1))
  int nv_ = 0, ns_ = 0;
  // Per body (all bodies; fixed ones constant): r_k, p_k = (w, x, y, z), R_k.
  std::vector<Vec3> r_;
  std::vector<Eigen::Vector4d> p_;
  std::vector<Mat3> R_;
};

}  // namespace mechsim::anm
