#pragma once
// ui/deformable_parts.h — the deformable parts of the open mechanism on the simulation worker
// (core/deform; no Qt, no GL). Each part is a tetrahedral mesh whose pinned vertices stay at rest
// and whose attached vertices move with their rigid bodies (Dirichlet conditions updated from the
// bodies' poses); everything else follows from one implicit-Euler step per shown frame, solved by
// projected Newton (the reference solver of core/deform/solver.h: robust at any stiffness, and a
// few milliseconds on the example's 1920 tets). The coupling is one way: the parts do not push back
// on the bodies. A frame shows each part as its boundary surface (outward triangles of the tet mesh,
// smooth per-vertex normals).
#include <memory>
#include <string>
#include <vector>

#include "core/deform/deformable.h"
#include "core/model.h"
#include "core/spec.h"

namespace mechsim::ui {

class DeformableParts {
 public:
  /// Builds the parts of `spec` (compiled as `model`) with time step h. On an error the parts are
  /// left empty and false is returned (message() says why).
  bool build(const MechanismSpec& spec, const Model& model, double h);
  void clear();
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
  /// Largest distance of an attached vertex from its body point after the last step (m).
  double attachmentError() const { return attachError_; }
  /// Newton iterations of the last step (all parts).
  int iterations() const { return iterations_; }
  const std::string& message() const { return message_; }

 private:
  struct Part {
    std::string name;
    deform::DeformableModel model;
    std::vector<int> surfaceVertices;    // mesh vertices on the boundary, in surface order
    std::vector<unsigned> surfaceIndices;  // boundary triangles (outward), into surfaceVertices
    VecX rest, x, v;
  };
  std::vector<Part> parts_;
  std::vector<int> bodyOf_;  // spec body k → model body index
  std::vector<Pose> poses_;  // (spec bodies) the poses handed to the step
  double attachError_ = 0;
  int iterations_ = 0;
  std::string message_;
};

}  // namespace mechsim::ui
