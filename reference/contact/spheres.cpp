// reference/contact/spheres.cpp — spheres / circles among planes with LCP contact impulses (spheres.h).
//
// Contact rows (paper 000 eq. 1): for a contact between bodies A and B with unit normal n from A
// to B and arms r_A, r_B from the centres to the contact point, the relative velocity along a unit
// direction u is (v_B + ω_B × r_B − v_A − ω_A × r_A)·u, so the Jacobian blocks are
//   J_A = (−uᵀ, −(r_A × u)ᵀ),   J_B = (uᵀ, (r_B × u)ᵀ)          (u = n, t₁, t₂)
// on the twist (v, ω). In the plane only (v_x, v_y, ω_z) remain. For spheres r ∥ n, so normal
// rows carry no angular part; tangent rows do (friction spins the spheres).
#include "reference/contact/spheres.h"

#include <cmath>
#include <stdexcept>

namespace mechsim::contact {

namespace {

/// Unit tangents t₁, t₂ ⟂ n (t₁ = z × n in the plane); deterministic in n so that warm-started
/// friction impulses keep their meaning from one step to the next.
void tangents(const Vec3& n, bool planar, Vec3& t1, Vec3& t2) {
  if (planar) {
    t1 = Vec3(-n.y(), n.x(), 0);
    t2.setZero();
    return;
  }
  const Vec3 e = std::abs(n.x()) < 0.6 ? Vec3::UnitX() : (std::abs(n.y()) < 0.6 ? Vec3::UnitY() : Vec3::UnitZ());
  t1 = n.cross(e).normalized();
  t2 = n.cross(t1);
}

std::uint64_t contactKey(int a, int b, int planes) {
  return (static_cast<std::uint64_t>(a + planes) << 32) | static_cast<std::uint64_t>(b);
}

}  // namespace

int SphereWorld::addSphere(const Vec3& centre, double r, double m) {
  if (!(r > 0) || !(m > 0) || !std::isfinite(r) || !std::isfinite(m) || !centre.allFinite())
    throw std::invalid_argument("SphereWorld: a sphere needs a finite centre, radius > 0 and mass > 0");
  position.push_back(settings.planar ? Vec3(centre.x(), centre.y(), 0) : centre);
  velocity.push_back(Vec3::Zero());
  angular.push_back(Vec3::Zero());
  radius.push_back(r);
  mass.push_back(m);
  return bodies() - 1;
}

double SphereWorld::inertia(int i) const {
  return (settings.planar ? 0.5 : 0.4) * mass[i] * radius[i] * radius[i];
}

double SphereWorld::kineticEnergy() const {
  double e = 0;
  for (int i = 0; i < bodies(); ++i)
    e += 0.5 * mass[i] * velocity[i].squaredNorm() + 0.5 * inertia(i) * angular[i].squaredNorm();
  return e;
}

void SphereWorld::addContactRows(const SphereContact& c, const Vec3& ra, const Vec3& rb, double h) {
  const bool planar = settings.planar;
  const int d = planar ? 3 : 6;
  const int A = c.a >= 0 ? c.a : -1, B = c.b;
  double ja[6], jb[6];
  // the d-blocks of J_A, J_B for direction u
  auto rowFor = [&](const Vec3& u) {
    const Vec3 wa = -(ra.cross(u)), wb = rb.cross(u);
    if (planar) {
      ja[0] = -u.x(), ja[1] = -u.y(), ja[2] = wa.z();
      jb[0] = u.x(), jb[1] = u.y(), jb[2] = wb.z();
    } else {
      for (int k = 0; k < 3; ++k) {
        ja[k] = -u[k], ja[3 + k] = wa[k];
        jb[k] = u[k], jb[3 + k] = wb[k];
      }
    }
  };
  auto preVelocity = [&]() {  // J_i v before the impulses
    double s = 0;
    for (int k = 0; k < d; ++k) {
      if (A >= 0) s += ja[k] * problem_.v[A * d + k];
      s += jb[k] * problem_.v[B * d + k];
    }
    return s;
  };

  // normal row and its bias (restitution, penetration correction, speculative gap)
  rowFor(c.normal);
  const double vn = preVelocity();
  const double ve = settings.restitutionSpeed >= 0 ? settings.restitutionSpeed : 2 * settings.gravity.norm() * h;
  const bool approaching = vn < -ve;
  double bias;
  if (c.gap > 0 && !(approaching && c.gap + h * vn < 0)) {
    bias = c.gap / h;  // speculative: may close the gap, no more
  } else {
    // restitution on impact (this step), Baumgarte correction of the penetration beyond the slop
    const double bounce = approaching ? settings.restitution * vn : 0.0;
    bias = std::min(bounce, -settings.baumgarte / h * std::max(0.0, -c.gap - settings.slop));
  }
  const int n = problem_.addRow(A, ja, B, jb, bias);
  if (settings.friction <= 0) return;
  Vec3 t1, t2;
  tangents(c.normal, planar, t1, t2);
  rowFor(t1);
  problem_.addFrictionRow(n, settings.friction, A, ja, B, jb);
  if (!planar) {
    rowFor(t2);
    problem_.addFrictionRow(n, settings.friction, A, ja, B, jb);
  }
}

void SphereWorld::beginStep() {
  const int N = bodies(), P = static_cast<int>(planes.size());
  const bool planar = settings.planar;
  const int d = planar ? 3 : 6;
  const double h = settings.timeStep;
  if (!(h > 0)) throw std::invalid_argument("SphereWorld: time step must be positive");
  for (int i = 0; i < N; ++i)
    if (!position[i].allFinite() || !velocity[i].allFinite() || !angular[i].allFinite())
      throw std::runtime_error("SphereWorld: state became non-finite");

  // 1. applied forces: v ← v + h g; M⁻¹ blocks and v of the LCP
  problem_ = LcpProblem();
  problem_.dof = d;
  problem_.bodies = N;
  problem_.invMass.assign(static_cast<std::size_t>(N) * d * d, 0.0);
  problem_.v.resize(N * d);
  for (int i = 0; i < N; ++i) {
    velocity[i] += h * settings.gravity;
    if (planar) velocity[i].z() = 0;
    double* w = problem_.invMass.data() + static_cast<std::size_t>(i) * d * d;
    for (int k = 0; k < d; ++k) w[k * d + k] = (planar ? k < 2 : k < 3) ? 1.0 / mass[i] : 1.0 / inertia(i);
    if (planar) {
      problem_.v.segment<3>(3 * i) << velocity[i].x(), velocity[i].y(), angular[i].z();
    } else {
      problem_.v.segment<3>(6 * i) = velocity[i];
      problem_.v.segment<3>(6 * i + 3) = angular[i];
    }
  }

  // 2. contacts: planes (all spheres), sphere pairs from the grid. A contact is kept while its gap
  // is below margin + h·(approach speed), so that no impact within the step is missed.
  contacts_.clear();
  double vmax = 0;
  for (int i = 0; i < N; ++i) vmax = std::max(vmax, velocity[i].norm());
  for (int i = 0; i < N; ++i)
    for (int p = 0; p < P; ++p) {
      const double gap = planes[p].normal.dot(position[i]) - planes[p].offset - radius[i];
      if (gap >= settings.margin + h * std::max(0.0, -planes[p].normal.dot(velocity[i]))) continue;
      SphereContact c;
      c.a = -1 - p;
      c.b = i;
      c.normal = planes[p].normal;
      c.point = position[i] - radius[i] * c.normal;
      c.gap = gap;
      contacts_.push_back(c);
    }
  grid_.pairs(position, radius, settings.margin + 2 * h * vmax, planar, pairs_);
  for (const auto& [i, j] : pairs_) {
    Vec3 dir = position[j] - position[i];
    const double dist = dir.norm();
    if (dist < 1e-12) continue;  // coincident centres: no normal
    SphereContact c;
    c.a = i;
    c.b = j;
    c.normal = dir / dist;
    c.gap = dist - radius[i] - radius[j];
    if (c.gap >= settings.margin + h * std::max(0.0, -(velocity[j] - velocity[i]).dot(c.normal))) continue;
    c.point = position[j] - radius[j] * c.normal;
    contacts_.push_back(c);
  }

  // 3. rows, 4. warm start
  const int perContact = settings.friction > 0 ? (planar ? 2 : 3) : 1;
  lambda_.setZero(static_cast<int>(contacts_.size()) * perContact);
  for (auto& c : contacts_) {
    const Vec3 ra = c.a >= 0 ? Vec3(radius[c.a] * c.normal) : Vec3::Zero();
    const Vec3 rb = -radius[c.b] * c.normal;
    c.row = problem_.rows();
    addContactRows(c, ra, rb, h);
    const auto it = previous_.find(contactKey(c.a, c.b, P));
    if (it != previous_.end())
      for (int k = 0; k < perContact; ++k) lambda_[c.row + k] = it->second[k];
  }
}

void SphereWorld::endStep() {
  const int N = bodies(), P = static_cast<int>(planes.size());
  const bool planar = settings.planar;
  if (lambda_.size() != problem_.rows() || !lambda_.allFinite())
    throw std::runtime_error("SphereWorld: impulses missing or non-finite");
  // 5. v ← v + M⁻¹Jᵀλ, then positions
  LcpPrecomputed pre;
  precompute(problem_, pre);
  VecX vplus;
  appliedVelocity(problem_, pre, lambda_, vplus);
  for (int i = 0; i < N; ++i) {
    if (planar) {
      velocity[i] = Vec3(vplus[3 * i], vplus[3 * i + 1], 0);
      angular[i] = Vec3(0, 0, vplus[3 * i + 2]);
    } else {
      velocity[i] = vplus.segment<3>(6 * i);
      angular[i] = vplus.segment<3>(6 * i + 3);
    }
    position[i] += settings.timeStep * velocity[i];
  }
  // remember the impulses of each contact for the next warm start
  previous_.clear();
  const int perContact = problem_.rows() / std::max<int>(1, static_cast<int>(contacts_.size()));
  for (const auto& c : contacts_) {
    std::array<double, 3> l{0, 0, 0};
    for (int k = 0; k < perContact && k < 3; ++k) l[k] = lambda_[c.row + k];
    previous_[contactKey(c.a, c.b, P)] = l;
  }
  time_ += settings.timeStep;
}

SolverResult SphereWorld::step(LcpSolver& solver, const SolverSettings& s) {
  beginStep();
  const SolverResult r = solver.solve(problem_, s, lambda_);
  endStep();
  return r;
}

}  // namespace mechsim::contact
