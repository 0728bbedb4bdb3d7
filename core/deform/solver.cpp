// core/deform/solver.cpp — dispatch of minimise() and the implicit-Euler step (solver.h).
#include "core/deform/solver.h"

#include <cmath>
#include <stdexcept>
#include <string>

namespace mechsim::deform {

const char* toString(Method m) {
  switch (m) {
    case Method::Newton: return "newton";
    case Method::Jacobi: return "jacobi";
    case Method::Vbd: return "vbd";
    case Method::Jgs2Jacobi: return "jgs2-jacobi";
    case Method::Jgs2GaussSeidel: return "jgs2-gs";
  }
  return "?";
}

const char* toString(Jgs2Variant v) {
  switch (v) {
    case Jgs2Variant::ExactSchur: return "exact-schur";
    case Jgs2Variant::ExactSum: return "exact-sum";
    case Jgs2Variant::Cubature: return "cubature";
  }
  return "?";
}

const char* toString(Acceleration a) {
  switch (a) {
    case Acceleration::None: return "none";
    case Acceleration::LineSearch: return "line-search";
    case Acceleration::Subspace: return "subspace";
  }
  return "?";
}

std::optional<Method> methodFromString(const std::string& s) {
  for (Method m : {Method::Newton, Method::Jacobi, Method::Vbd, Method::Jgs2Jacobi, Method::Jgs2GaussSeidel})
    if (s == toString(m)) return m;
  return std::nullopt;
}

std::optional<Acceleration> accelerationFromString(const std::string& s) {
  for (Acceleration a : {Acceleration::None, Acceleration::LineSearch, Acceleration::Subspace})
    if (s == toString(a)) return a;
  return std::nullopt;
}

const char* toString(Jgs2RhsForm f) {
  switch (f) {
    case Jgs2RhsForm::Residual: return "residual";
    case Jgs2RhsForm::Element: return "element";
    case Jgs2RhsForm::Modal: return "modal";
  }
  return "?";
}

Jgs2Options jgs2OptionsFor(Method method, int modes, int freeVertices) {
  Jgs2Options o;
  if (method == Method::Jgs2GaussSeidel && freeVertices < kSelectedInverseVertices) o.subspaces = Jgs2Subspaces::Colour;
  o.modalModes = modes > 0 ? modes : kDefaultModalModes;
  return o;
}

const char* toString(Jgs2Subspaces s) {
  switch (s) {
    case Jgs2Subspaces::Vertex: return "vertex";
    case Jgs2Subspaces::Colour: return "colour";
  }
  return "?";
}

const char* toString(Jgs2Basis b) {
  switch (b) {
    case Jgs2Basis::Solves: return "solves";
    case Jgs2Basis::SelectedInverse: return "selected-inverse";
    case Jgs2Basis::Auto: return "auto";
  }
  return "?";
}

const char* toString(Jgs2Coarse c) {
  switch (c) {
    case Jgs2Coarse::Rest: return "rest";
    case Jgs2Coarse::Galerkin: return "galerkin";
  }
  return "?";
}

SolveStats minimise(const DeformableModel& m, const Jgs2Data* jgs2, const SolveOptions& opt, const VecX& z, VecX& x) {
  if (x.size() != 3 * m.vertexCount() || z.size() != x.size()) throw std::invalid_argument("minimise: size mismatch");
  if (!x.allFinite() || !z.allFinite()) throw std::invalid_argument("minimise: non-finite input");
  validateHandles(m.handles, m.vertexCount());
  switch (opt.method) {
    case Method::Newton: return solveNewton(m, opt, z, x);
    case Method::Jacobi:
    case Method::Vbd: return solveVertexDescent(m, opt, z, x);
    case Method::Jgs2Jacobi:
    case Method::Jgs2GaussSeidel: return solveJgs2(m, jgs2, opt, z, x);
  }
  throw std::invalid_argument("minimise: unknown method");
}

SolveStats stepImplicitEuler(const DeformableModel& m, const Jgs2Data* jgs2, const SolveOptions& opt, VecX& x, VecX& v,
                             const std::vector<Pose>& bodyPoses) {
  return stepImplicitEuler(
      m, [&](const VecX& z, VecX& xs) { return minimise(m, jgs2, opt, z, xs); }, x, v, bodyPoses);
}

SolveStats stepImplicitEuler(const DeformableModel& m, const Minimiser& solve, VecX& x, VecX& v,
                             const std::vector<Pose>& bodyPoses) {
  const int nv = m.vertexCount();
  const VecX xhat = x;
  VecX z = x + m.h * v;
  for (int k = 0; k < nv; ++k) z.segment<3>(3 * k) += m.h * m.h * m.gravity;
  // Start from the inertial prediction; prescribed vertices go to their targets.
  x = z;
  for (int k = 0; k < nv; ++k)
    if (m.prescribed[k]) x.segment<3>(3 * k) = m.mesh.vertices[k];
  for (const Attachment& a : m.attachments) {
    if (a.body >= static_cast<int>(bodyPoses.size()))
      throw std::invalid_argument("stepImplicitEuler: no pose for attached body " + std::to_string(a.body));
    x.segment<3>(3 * a.vertex) = bodyPoses[a.body].apply(a.local);
  }
  const SolveStats st = solve(z, x);
  v = (x - xhat) / m.h;
  return st;
}

bool recordIteration(const SolveOptions& opt, int it, double step, const VecX& x, SolveStats& st) {
  st.iterations = it + 1;
  st.lastStep = step;
  if (!std::isfinite(step) || step > opt.divergenceStep) {
    st.diverged = true;
    return true;
  }
  if ((st.iterations >= opt.minIterations && step < opt.tolerance) || (opt.monitor && opt.monitor(x))) {
    st.converged = true;
    return true;
  }
  if (opt.cancelRequested && opt.cancelRequested()) {
    st.cancelled = true;
    return true;
  }
  return false;
}

}  // namespace mechsim::deform
