#pragma once
// ui/deformable_parts.h — the deformable parts of the open mechanism on the simulation worker
// (core/deform; no Qt, no GL). Each part is a tetrahedral mesh whose pinned vertices stay at rest
// and whose attached vertices move with their rigid bodies (Dirichlet conditions updated from the
// bodies' poses); everything else follows from one implicit-Euler step per shown frame, solved by
// the part's own solver (the file's "solver" and "stepControl"; default projected Newton, the
// reference solver of core/deform/solver.h: robust at any stiffness, and a few milliseconds on the
// example's 1920 tets). A JGS2 part's rest-shape precomputation runs once, in build(). The coupling is one way: the parts do not push back
// on the bodies. A frame shows each part as its boundary surface (outward triangles of the tet mesh,
// smooth per-vertex normals), optionally with the von Mises stress at each surface vertex (the
// volume-weighted mean over the incident tets, core/deform/stress.h) for stress colouring.
//
// Handle drag: a soft handle (core/deform/handle.h) pulls one surface vertex of one part towards the
// cursor's target: the zero-length spring ½ k ‖x_v − t‖², k = c m_v / h² with c = kDragStiffnessFactor,
// is part of the step's incremental potential, so every solver treats it implicitly. Clearing the handle
// lets the part spring back dynamically.
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "core/deform/deformable.h"
#include "core/deform/solver.h"
#include "core/io/jgs2_cache.h"
#include "core/model.h"
#include "core/spec.h"

namespace mechsim::gpu {
class DeviceSolver;
}  // namespace mechsim::gpu

namespace mechsim::ui {

class DeformableParts {
 public:
  /// c of the drag handle's stiffness k = c m̄ / h² (core/deform/handle.h), m̄ the part's mean
  /// vertex mass (so a part pulls as hard wherever it is grabbed). 10× the core's default of 100:
  /// the example strap (1 cm cells of rubber, h = 1/60 s) then gets k ≈ 2 kN/m, above its own
  /// stiffness at its middle (clamped at both ends, about 1 kN/m across it), so the vertex follows
  /// the cursor most of the way; with 100 it moved under a fifth of the way. The local stretch
  /// around the vertex stays moderate (k is still ten times below the elastic stiffness of one cell,
  /// E × 1 cm = 20 kN/m).
  static constexpr double kDragStiffnessFactor = 1e3;

  /// Builds the parts of `spec` (compiled as `model`) with time step h, and precomputes JGS2's
  /// subspaces for the parts solved by JGS2 (seconds for a few thousand tets). On an error the
  /// parts are left empty and false is returned (message() says why).
  bool build(const MechanismSpec& spec, const Model& model, double h);
  void clear();
  /// Asked during build()'s JGS2 precomputation and after every solver iteration of step():
  /// returning true abandons the work (build: no parts; step: the parts keep their last state).
  /// The simulation worker stops this way when its model is replaced or the window closes, so
  /// that neither waits out a long step of a large part (one solver iteration at most).
  void setCancel(std::function<bool()> cancel) { cancel_ = std::move(cancel); }
  /// Told during build() where a JGS2 part's precomputation is, as a line for the status bar
  /// ("JGS2 \"strap\": subspaces 40 %"; stages "factorising", "rest modes"), at most about
  /// five times a second and at every change of stage.
  void setProgress(std::function<void(const std::string&)> progress) { progress_ = std::move(progress); }
  /// Where build() keeps JGS2 precomputations between runs (core/io/jgs2_cache.h): a part whose
  /// inputs were precomputed before is read back instead ("JGS2 \"strap\": read from the cache" on
  /// the progress line). Default io::defaultJgs2CacheDir(); empty: no cache.
  void setCacheDir(std::string dir) { cacheDir_ = std::move(dir); }
  const std::string& cacheDir() const { return cacheDir_; }
  bool empty() const { return parts_.empty(); }
  int count() const { return static_cast<int>(parts_.size()); }

  /// Back to the rest shape, at rest.
  void reset();
  /// One implicit-Euler step of every part with the bodies at positions q of `model` (the model the
  /// parts were built for, or one with the same bodies). A part whose step fails keeps its last good
  /// state; false is returned and message() says which and why.
  bool step(const Model& model, const VecX& q);

  /// The boundary surface of part k in its current state (world coordinates).
  std::shared_ptr<const MeshData> surface(int k) const;
  /// The von Mises stress (Pa) at each vertex of part k's boundary surface, in the surface's vertex
  /// order (the same order as surface(k)->vertices).
  std::shared_ptr<const std::vector<float>> surfaceStress(int k) const;
  /// Position (world) of vertex `surfaceVertex` of part k's boundary surface.
  Vec3 surfacePoint(int k, int surfaceVertex) const;

  /// A soft handle on surface vertex `surfaceVertex` of part k, pulling it towards `target` from the
  /// next step on; replaces any handle. False (and no handle) when part or vertex is out of range
  /// or the target is not finite.
  bool setHandle(int part, int surfaceVertex, const Vec3& target);
  /// Moves the handle's target (no effect without a handle or with a target that is not finite).
  void setHandleTarget(const Vec3& target);
  /// Removes the handle: the part springs back.
  void clearHandle();
  bool hasHandle() const { return handlePart_ >= 0; }
  /// The handled vertex (world) and its target; zero without a handle.
  Vec3 handlePoint() const;
  Vec3 handleTarget() const;
  /// Largest vertex speed of all parts after the last step (m/s): whether they have settled.
  double maxSpeed() const;

  /// Largest distance of an attached vertex from its body point after the last step (m).
  double attachmentError() const { return attachError_; }
  /// Solver iterations of the last step (all parts).
  int iterations() const { return iterations_; }
  /// Parts whose last step stopped at the solver's iteration cap before ‖Δx‖ met the tolerance
  /// (the state it reached is kept: finite, and with a step control no higher in energy).
  int unconverged() const { return unconverged_; }
  /// The solver of part k ("newton", "jgs2-jacobi", ...; core/deform/solver.h names), with
  /// " (cuda)" when the part runs on the CUDA backend.
  std::string solverName(int k) const;
  const std::string& message() const { return message_; }

 private:
  /// Jgs2Options::progress for part `part`: lines for progress_, throttled.
  std::function<void(deform::Jgs2Stage, double)> progressReporter(const std::string& part) const;

  struct Part {
    std::string name;
    deform::DeformableModel model;
    std::vector<int> surfaceVertices;    // mesh vertices on the boundary, in surface order
    std::vector<unsigned> surfaceIndices;  // boundary triangles (outward), into surfaceVertices
    deform::SolveOptions opt;               // the part's solver (spec "solver", "stepControl")
    std::unique_ptr<deform::Jgs2Data> jgs2;  // JGS2's precomputed data (JGS2 parts only)
    /// The part resident on the CUDA backend (gpu/deform_gpu.h) when it is built, a device is
    /// present and it runs the part's solver; null otherwise. Steps with a held handle run there
    /// too (the handle is uploaded with each step).
    std::shared_ptr<gpu::DeviceSolver> device;
    VecX rest, x, v;
  };
  std::vector<Part> parts_;
  std::function<bool()> cancel_;
  std::function<void(const std::string&)> progress_;
  std::string cacheDir_ = io::defaultJgs2CacheDir();
  int handlePart_ = -1;  // the part holding the handle (−1: none)
  std::vector<int> bodyOf_;  // spec body k → model body index
  std::vector<Pose> poses_;  // (spec bodies) the poses handed to the step
  double attachError_ = 0;
  int iterations_ = 0;
  int unconverged_ = 0;
  std::string message_;
};

/// The boundary surfaces of spec's deformable parts at rest, in the order of spec.deformables and
/// with the vertex order of DeformableParts::surface: what the window shows while the worker builds
/// and precomputes the parts. Empty when a part cannot be built (the worker then says why).
std::vector<std::shared_ptr<const MeshData>> restSurfaces(const MechanismSpec& spec);
/// The boundary of `mesh`: its surface vertices (mesh indices, in first-seen order; a mesh vertex on
/// a crease — a rest dihedral angle above kCreaseDegrees, core/mesh_normals.h — appears once per
/// smooth side) and its triangles as indices into them, outward.
void boundarySurface(const deform::TetMesh& mesh, std::vector<int>& vertices, std::vector<unsigned>& indices);
/// That surface at positions x (3 per mesh vertex), with smooth (area-weighted) normals, sharp across
/// the creases split by boundarySurface.
std::shared_ptr<const MeshData> surfaceMesh(const std::vector<int>& vertices, const std::vector<unsigned>& indices,
                                            const VecX& x);

}  // namespace mechsim::ui
