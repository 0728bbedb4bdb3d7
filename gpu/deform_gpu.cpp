// gpu/deform_gpu.cpp — host side of the CUDA backend: packs a DeformableModel (and JGS2 data) into
// the plain arrays of deform_device.h, sets the state of one implicit-Euler step and runs sweeps.
#include "gpu/deform_gpu.h"

#include <algorithm>
#include <chrono>
#include <stdexcept>
#include <string>

#include "gpu/deform_device.h"
#include "gpu/device_info.h"
#include "core/deform/step_control.h"
#include "core/deform/sweep.h"

namespace mechsim::gpu {

namespace {

using namespace mechsim::deform;

/// Host copies the device problem is uploaded from (kept alive while creating).
struct Packed {
  std::vector<int> tets;
  std::vector<double> share;
  std::vector<unsigned char> prescribed;
  std::vector<double> modes;
  std::vector<int> colourOffset[3], colourList[3];  // vertices, tets, touched vertices per colour
  detail::DeviceInputs in;
};

Packed pack(const DeformableModel& m, const Jgs2Data* jgs2, Method method) {
  if (method == Method::Newton)
    throw std::invalid_argument(
        "GPU backend: the per-vertex sweeps (jacobi, vbd, jgs2-jacobi, jgs2-gs) run on the device, not newton");
  if (isJgs2(method) && (!jgs2 || jgs2->rhsForm != Jgs2RhsForm::Modal))
    throw std::invalid_argument("GPU backend: JGS2 needs precomputed data with the modal right-hand side");
  Packed p;
  const int nv = m.vertexCount(), nt = m.tetCount();
  p.tets.resize(4 * std::size_t(nt));
  for (int t = 0; t < nt; ++t)
    for (int a = 0; a < 4; ++a) p.tets[4 * t + a] = m.mesh.tets[t][a];
  const double invH2 = 1.0 / (m.h * m.h);
  p.share.resize(nt);
  for (int t = 0; t < nt; ++t) p.share[t] = m.material.density * m.volume[t] / 4.0 * invH2;
  p.prescribed.assign(m.prescribed.begin(), m.prescribed.end());
  detail::DeviceInputs& in = p.in;
  in.nv = nv;
  in.nt = nt;
  in.method = isJgs2(method) ? 1 : 0;
  in.gaussSeidel = isGaussSeidel(method) ? 1 : 0;
  if (in.gaussSeidel) {  // the colour lists of the CPU's Gauss–Seidel sweep (sweep.h)
    const deform::detail::ColourPlan plan = deform::detail::makeColourPlan(m);
    const std::vector<std::vector<int>>* lists[3] = {&plan.vertices, &plan.tets, &plan.touched};
    for (int q = 0; q < 3; ++q) {
      p.colourOffset[q].assign(1, 0);
      for (const std::vector<int>& l : *lists[q]) {
        p.colourList[q].insert(p.colourList[q].end(), l.begin(), l.end());
        p.colourOffset[q].push_back(static_cast<int>(p.colourList[q].size()));
      }
    }
    in.colours = m.colourCount;
    in.colourVertexOffset = p.colourOffset[0].data();
    in.colourVertex = p.colourList[0].data();
    in.colourTetOffset = p.colourOffset[1].data();
    in.colourTet = p.colourList[1].data();
    in.colourTouchedOffset = p.colourOffset[2].data();
    in.colourTouched = p.colourList[2].data();
  }
  in.kind = m.material.kind;
  in.mu = m.mu();
  in.lambda = m.lambda();
  in.invH2 = invH2;
  in.tets = p.tets.data();
  in.Bm = m.Bm.data();
  in.volume = m.volume.data();
  in.share = p.share.data();
  in.mass = m.mass.data();
  in.prescribed = p.prescribed.data();
  in.incOffset = m.incidence.offset.data();
  in.incTet = m.incidence.tet.data();
  in.incLocal = m.incidence.local.data();
  if (in.method == 1) {
    in.cubOffset = jgs2->offset.data();
    in.cubTet = jgs2->tet.data();
    in.cubWeight = jgs2->weight.data();
    in.cubBasis = jgs2->basis.data();
    in.T = static_cast<int>(jgs2->modeValues.size());
    p.modes.assign(jgs2->modes.data(), jgs2->modes.data() + jgs2->modes.size());  // column-major
    in.modes = p.modes.data();
    in.modeValues = jgs2->modeValues.data();
  }
  return p;
}

struct Handle {
  void* h = nullptr;
  ~Handle() { detail::destroy(h); }
};

/// Uploads m's soft handles (the GUI's drag; none most of the time).
void uploadHandles(void* h, const DeformableModel& m) {
  validateHandles(m.handles, m.vertexCount());  // the kernels index x by their vertices
  const int n = static_cast<int>(m.handles.size());
  std::vector<int> vertices(n);
  std::vector<double> targets(3 * std::size_t(n)), stiffness(n);
  for (int k = 0; k < n; ++k) {
    vertices[k] = m.handles[k].vertex;
    for (int r = 0; r < 3; ++r) targets[3 * k + r] = m.handles[k].target[r];
    stiffness[k] = m.handles[k].stiffness;
  }
  if (!detail::setHandles(h, n, vertices.data(), targets.data(), stiffness.data()))
    throw std::runtime_error("GPU backend: handle upload failed");
}

void create(Handle& handle, const Packed& p) {
  if (deviceCount() == 0) throw std::runtime_error("GPU backend: " + deviceDescription());
  const char* err = nullptr;
  handle.h = detail::create(p.in, &err);
  if (!handle.h) throw std::runtime_error(std::string("GPU backend: ") + (err ? err : "upload failed"));
}

}  // namespace

std::string unsupportedReason(const DeformableModel& m, const Jgs2Data* jgs2, const SolveOptions& opt) {
  if (opt.method == Method::Newton)
    return "the device runs the per-vertex sweeps (jacobi, vbd, jgs2-jacobi, jgs2-gs), not newton";
  if (isJgs2(opt.method)) {
    if (opt.variant != Jgs2Variant::Cubature) return std::string("JGS2 variant ") + toString(opt.variant);
    if (!jgs2 || jgs2->rhsForm != Jgs2RhsForm::Modal) return "JGS2 without the modal right-hand side";
    if (opt.method == Method::Jgs2Jacobi && jgs2->subspaces != Jgs2Subspaces::Vertex)
      return "JGS2 colour subspaces (a Gauss-Seidel precomputation)";
    if (opt.coarse != Jgs2Coarse::Rest) return "the Galerkin coarse part";
    if (opt.schurHessian || opt.rhsScale != 1.0 || !opt.cubatureTerms) return "a modified JGS2 local system";
  }
  if (opt.monitor) return "a per-iteration monitor";
  return {};
}

DeviceSolver::DeviceSolver(const DeformableModel& m, const Jgs2Data* jgs2, Method method)
    : method_(method), vertices_(m.vertexCount()) {
  const Packed p = pack(m, jgs2, method);
  Handle h;
  create(h, p);
  handle_ = h.h;
  h.h = nullptr;
}

DeviceSolver::~DeviceSolver() { detail::destroy(handle_); }

SolveStats DeviceSolver::minimise(const DeformableModel& m, const SolveOptions& opt, const VecX& z, VecX& x) {
  using Clock = std::chrono::steady_clock;
  const auto t0 = Clock::now();
  if (m.vertexCount() != vertices_ || opt.method != method_)
    throw std::invalid_argument("GPU backend: minimise() for another model or method than the uploaded one");
  if (x.size() != 3 * m.vertexCount() || z.size() != x.size()) throw std::invalid_argument("minimise: size mismatch");
  if (!x.allFinite() || !z.allFinite()) throw std::invalid_argument("minimise: non-finite input");
  if (opt.monitor) throw std::invalid_argument("GPU backend: no per-iteration monitor on the device");
  if (!detail::setState(handle_, x.data(), z.data())) throw std::runtime_error("GPU backend: upload failed");
  uploadHandles(handle_, m);
  SolveStats st;
  const VecX none;  // recordIteration's x, read only by a monitor (refused above)
  // JGS2's modal coarse step first, line searched alone, then the local step under the control
  // (sweep.h, SolveOptions::coarseFirst); without a step control the sweep takes both at once.
  const bool coarseFirst =
      method_ == Method::Jgs2Jacobi && opt.coarseFirst && opt.acceleration != Acceleration::None;
  for (int it = 0; it < opt.maxIterations; ++it) {
    if (coarseFirst && !detail::coarseStep(handle_)) throw std::runtime_error("GPU backend: coarse step failed");
    // The sweep's own step counts in the stopping rule when a step control may shrink it (sweep.h).
    double proposal = 0;
    if (!detail::sweepStep(handle_, opt.acceleration != Acceleration::None,
                           opt.acceleration != Acceleration::None ? &proposal : nullptr))
      throw std::runtime_error("GPU backend: sweep failed");
    StepCoefficients k;
    if (opt.acceleration != Acceleration::None) {
      double s[6];
      if (!detail::modelSums(handle_, s)) throw std::runtime_error("GPU backend: reduction failed");
      // {gᵀd, dᵀHd, gᵀp, dᵀHp, pᵀHp, pᵀp}: the same decision as the CPU's controlStep (sweep.h).
      const bool subspace = opt.acceleration == Acceleration::Subspace && s[1] > 0 && s[5] > 0;
      k = stepCoefficients(opt.acceleration, s[0], s[1], subspace, s[2], s[3], s[4]);
    }
    double stepMax = 0;
    if (!detail::applyStep(handle_, k.alpha, k.beta, &stepMax)) throw std::runtime_error("GPU backend: step failed");
    const double taken = stepMax / m.extent;
    if (recordIteration(opt, it, std::max(taken, std::min(proposal / m.extent, opt.divergenceStep)), none, st)) break;
  }
  if (!detail::getPositions(handle_, x.data())) throw std::runtime_error("GPU backend: download failed");
  st.finalEnergy = incrementalEnergy(m, z, x);
  st.seconds = std::chrono::duration<double>(Clock::now() - t0).count();
  return st;
}

VecX sweepOnce(const DeformableModel& m, const Jgs2Data* jgs2, Method method, const VecX& z, const VecX& x) {
  const Packed p = pack(m, jgs2, method);
  Handle handle;
  create(handle, p);
  if (!detail::setState(handle.h, x.data(), z.data())) throw std::runtime_error("GPU backend: upload failed");
  uploadHandles(handle.h, m);
  VecX dx(x.size());
  if (detail::sweeps(handle.h, 1, nullptr, dx.data(), nullptr) < 0) throw std::runtime_error("GPU backend: sweep failed");
  return dx;
}

GpuBenchResult benchSweeps(const DeformableModel& m, const Jgs2Data* jgs2, Method method, const VecX& x0,
                           const VecX& v0, const std::vector<Pose>& bodyPoses, int iterations) {
  const Packed p = pack(m, jgs2, method);
  Handle handle;
  create(handle, p);
  // The step's inertia target and start, as stepImplicitEuler forms them.
  const int nv = m.vertexCount();
  VecX z = x0 + m.h * v0;
  for (int k = 0; k < nv; ++k) z.segment<3>(3 * k) += m.h * m.h * m.gravity;
  VecX x = z;
  for (int k = 0; k < nv; ++k)
    if (m.prescribed[k]) x.segment<3>(3 * k) = m.mesh.vertices[k];
  for (const Attachment& a : m.attachments)
    if (a.body < static_cast<int>(bodyPoses.size())) x.segment<3>(3 * a.vertex) = bodyPoses[a.body].apply(a.local);
  if (!detail::setState(handle.h, x.data(), z.data())) throw std::runtime_error("GPU backend: upload failed");
  GpuBenchResult r;
  double step = 0;
  if (detail::sweeps(handle.h, 1, nullptr, nullptr, &step) < 0) throw std::runtime_error("GPU backend: sweep failed");
  const double ms = detail::sweeps(handle.h, iterations, nullptr, nullptr, &step);
  if (ms < 0) throw std::runtime_error("GPU backend: sweep failed");
  r.iterations = iterations;
  r.secondsPerIteration = 1e-3 * ms / iterations;
  r.lastStep = step / m.extent;
  return r;
}

}  // namespace mechsim::gpu
