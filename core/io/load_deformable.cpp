// core/io/load_deformable.cpp — reader of the "deformables" section (see load_deformable.h).
//
//   "deformables": [ {
//     "name": "strap",
//     "mesh": { "type": "box", "size": [L, W, H], "cells": [nx, ny, nz] }      // or
//             { "type": "cylinder", "radius": r, "length": l, "cells": [nr, nz] }  // axis +z
//             { "type": "tetgen", "file": "part.node", "scale": 0.001 }        // .ele beside it
//             { "type": "gmsh", "file": "part.msh", "scale": 1 },
//     "position": [x, y, z],                      // translation of the mesh (length units)
//     "material": { "model": "stable-neo-hookean" | "arap", "youngs": Pa, "poisson": ν, "density": kg/m³ },
//     "pinned": [vertex, ...] | { "min": [x,y,z], "max": [x,y,z] },   // world box at the file configuration
//     "attachments": [ { "body": "name", "vertices": [...] | "min"/"max" } ]
//   } ]
#include "core/io/load_deformable.h"

#include <cmath>
#include <filesystem>

#include "core/deform/solver.h"
#include "core/deform/tet_mesh.h"
#include "core/io/json_section.h"
#include "core/io/load.h"
#include "core/io/surface_mesher.h"
#include "core/io/tetmesh_io.h"

namespace mechsim::io {

namespace {

using json::Kind;
using json::Value;
using Json = nlohmann::ordered_json;

class DeformReader : JsonSection {
 public:
  DeformReader(MechanismSpec& spec, std::string file, double L, std::string baseDir)
      : JsonSection(spec, std::move(file), MessageStyle::Brief), L_(L), baseDir_(std::move(baseDir)) {}

  void section(const Value& v) {
    items(v, "deformables", "an array of deformable parts", [&](const Value& x, const std::string& p) { part(x, p); });
  }

 private:
  double L_;
  std::string baseDir_;

  Vec3 point(const Value& v, const std::string& path, double scale) const {
    return vec3(v, path, scale, "expected an array of 3 numbers");
  }
  std::vector<int> cells(const Value& v, const std::string& path, std::size_t n) const {
    if (v.kind != Kind::Array || v.items.size() != n) fail(v, path, "expected an array of " + std::to_string(n) + " cell counts");
    std::vector<int> c;
    for (std::size_t k = 0; k < n; ++k) c.push_back(integer(v.items[k], index(path, k), 1, 1000));
    return c;
  }

  /// The "file" of a tetgen, gmsh or surface mesh (resolved against the mechanism file's folder
  /// into d.resolvedFile) and its "scale"; returns the file's value.
  const Value& meshFile(const Value& v, const std::string& path, const char* what, DeformableSpec& d, double& scale) {
    const Value& f = req(v, path, "file", what);
    expectKind(f, path + ".file", Kind::String, "a file name");
    d.file = f.string;
    if (const Value* s = opt(v, path, "scale")) scale = positive(*s, path + ".scale", "scale");
    d.fileScale = scale;
    std::filesystem::path p(d.file);
    if (p.is_relative()) p = std::filesystem::path(baseDir_.empty() ? "." : baseDir_) / p;
    d.resolvedFile = p.lexically_normal().string();
    return f;
  }

  /// A generated grid; the generators check the tets they make, and a size whose tets have no
  /// representable volume (1e-200 m, 1e200 m) is refused at the mesh.
  template <class Make>
  deform::TetMesh generated(const Value& v, const std::string& path, Make&& make) const {
    try {
      return make();
    } catch (const std::invalid_argument& e) {
      fail(v, path, std::string("invalid mesh (are the sizes in range?): ") + e.what());
    }
  }

  void mesh(const Value& v, const std::string& path, DeformableSpec& d) {
    expectKind(v, path, Kind::Object, "a mesh object {\"type\": \"box\" | \"cylinder\" | \"tetgen\" | \"gmsh\" | \"surface\", ...}");
    const Value& t = req(v, path, "type", "\"box\", \"cylinder\", \"tetgen\", \"gmsh\" or \"surface\"");
    expectKind(t, path + ".type", Kind::String, "a string");
    d.meshType = t.string;
    deform::TetMesh m;
    if (d.meshType == "box") {
      checkKeys(v, path, {"type", "size", "cells"}, "a box mesh");
      const Vec3 size = point(req(v, path, "size", "edge lengths [x, y, z]"), path + ".size", L_);
      if (!(size.minCoeff() > 0)) fail(*v.find("size"), path + ".size", "edge lengths must be positive");
      const auto c = cells(req(v, path, "cells", "cell counts [nx, ny, nz]"), path + ".cells", 3);
      if (long(c[0]) * c[1] * c[2] > 2'000'000) fail(*v.find("cells"), path + ".cells", "too many cells (at most 2e6)");
      m = generated(v, path, [&] { return deform::makeBoxMesh(size, c[0], c[1], c[2]); });
      d.boxSize = size;
      d.cells = c;
    } else if (d.meshType == "cylinder") {
      checkKeys(v, path, {"type", "radius", "length", "cells"}, "a cylinder mesh");
      const double r = positive(req(v, path, "radius", "radius"), path + ".radius", "radius") * L_;
      const double l = positive(req(v, path, "length", "length along +z"), path + ".length", "length") * L_;
      const auto c = cells(req(v, path, "cells", "cell counts [across, along]"), path + ".cells", 2);
      m = generated(v, path, [&] { return deform::makeCylinderMesh(r, l, c[0], c[1]); });
      d.radius = r;
      d.length = l;
      d.cells = c;
    } else if (d.meshType == "tetgen" || d.meshType == "gmsh") {
      checkKeys(v, path, {"type", "file", "scale"}, std::string("a ") + d.meshType + " mesh");
      double scale = 1;
      const Value& f = meshFile(v, path, "the mesh file, relative to this file", d, scale);
      TetMeshFile tm;
      try {
        tm = d.meshType == "tetgen" ? readTetGen(d.resolvedFile) : readGmsh(d.resolvedFile);
      } catch (const TetMeshError& e) {
        if (e.line() == 0) fail(f, path + ".file", e.file() + ": " + e.what());
        throw LoadError(Diagnostic{e.file(), e.line(), 1, e.what()});
      }
      for (Vec3& q : tm.vertices) q *= scale * L_;
      m.vertices = std::move(tm.vertices);
      m.tets = std::move(tm.tets);
    } else if (d.meshType == "surface") {
      // A closed triangle surface (any format Assimp reads) filled with tets by Gmsh's library.
      checkKeys(v, path, {"type", "file", "scale", "size"}, "a surface mesh");
      double scale = 1, size = 0;
      const Value& f = meshFile(v, path, "the closed surface mesh file, relative to this file", d, scale);
      if (const Value* s = opt(v, path, "size")) size = positive(*s, path + ".size", "size") * L_;
      d.surfaceSize = size;
      try {
        // In the surface mesher's own process (surface_mesher.h): Gmsh may take long on a fine size.
        TetMeshFile tm = tetrahedraliseSurfaceFile(d.resolvedFile, scale * L_, size);
        m.vertices = std::move(tm.vertices);
        m.tets = std::move(tm.tets);
      } catch (const std::exception& e) {
        fail(f, path + ".file", d.resolvedFile + ": " + e.what());
      }
    } else {
      fail(t, path + ".type", "unknown mesh type \"" + d.meshType + "\" (expected \"box\", \"cylinder\", \"tetgen\", \"gmsh\" or \"surface\")");
    }
    try {
      deform::validateAndOrient(m);
    } catch (const std::invalid_argument& e) {
      fail(v, path, std::string("invalid mesh: ") + e.what());
    }
    if (m.tets.empty()) fail(v, path, "the mesh has no tetrahedra");
    d.vertices = std::move(m.vertices);
    d.tets = std::move(m.tets);
  }

  /// A vertex selection: an array of indices or {"min": [..], "max": [..]} (world box, inclusive).
  std::vector<int> selection(const Value& v, const std::string& path, const DeformableSpec& d,
                             std::optional<VertexBox>& box) {
    std::vector<int> out;
    if (v.kind == Kind::Array) {
      for (std::size_t k = 0; k < v.items.size(); ++k)
        out.push_back(integer(v.items[k], index(path, k), 0, static_cast<int>(d.vertices.size()) - 1));
      return out;
    }
    if (v.kind != Kind::Object) fail(v, path, "expected an array of vertex indices or {\"min\": [..], \"max\": [..]}");
    checkKeys(v, path, {"min", "max"}, "a vertex box");
    const Vec3 lo = point(req(v, path, "min", "lower corner"), path + ".min", L_);
    const Vec3 hi = point(req(v, path, "max", "upper corner"), path + ".max", L_);
    box = VertexBox{lo, hi};
    const double eps = 1e-9 * (1 + hi.cwiseAbs().maxCoeff() + lo.cwiseAbs().maxCoeff());
    for (int k = 0; k < static_cast<int>(d.vertices.size()); ++k) {
      const Vec3& p = d.vertices[k];
      if ((p.array() >= lo.array() - eps).all() && (p.array() <= hi.array() + eps).all()) out.push_back(k);
    }
    if (out.empty()) fail(v, path, "the box contains no vertex of the mesh");
    return out;
  }

  void part(const Value& v, const std::string& path) {
    expectKind(v, path, Kind::Object, "a deformable part object");
    record(path, v);
    checkKeys(v, path,
              {"name", "mesh", "position", "material", "pinned", "attachments", "solver", "stepControl",
               "maxIterations", "tolerance", "modes"},
              "a deformable part");
    DeformableSpec d;
    const Value& n = req(v, path, "name", "a unique name");
    d.name = string(n, path + ".name");
    for (const DeformableSpec& o : spec_.deformables)
      if (o.name == d.name) fail(n, path + ".name", "duplicate deformable part name \"" + d.name + "\"");
    mesh(req(v, path, "mesh", "the tetrahedral mesh"), path + ".mesh", d);
    if (const Value* p = opt(v, path, "position")) {
      d.position = point(*p, path + ".position", L_);
      for (Vec3& q : d.vertices) q += d.position;
      // Far from the origin the coordinates' round-off can exceed the mesh's size and flatten its
      // tets: checked again where the part is placed.
      // (The part's arrays are moved in and back out: no copy of a large mesh.)
      deform::TetMesh placed;
      placed.vertices = std::move(d.vertices);
      placed.tets = std::move(d.tets);
      std::string invalid;
      try {
        deform::validateAndOrient(placed);
      } catch (const std::invalid_argument& e) {
        invalid = e.what();
      }
      d.vertices = std::move(placed.vertices);
      d.tets = std::move(placed.tets);
      if (!invalid.empty())
        fail(*p, path + ".position", "the mesh placed here is invalid (too far from the origin for its size?): " + invalid);
    }
    if (const Value* m = opt(v, path, "material")) {
      const std::string mp = path + ".material";
      expectKind(*m, mp, Kind::Object, "a material object");
      checkKeys(*m, mp, {"model", "youngs", "poisson", "density"}, "a material");
      if (const Value* x = opt(*m, mp, "model")) {
        expectKind(*x, mp + ".model", Kind::String, "a string");
        if (x->string != "stable-neo-hookean" && x->string != "arap")
          fail(*x, mp + ".model", "unknown material model \"" + x->string + "\" (expected \"stable-neo-hookean\" or \"arap\")");
        d.material = x->string;
      }
      if (const Value* x = opt(*m, mp, "youngs")) d.youngs = positive(*x, mp + ".youngs", "Young's modulus");
      if (const Value* x = opt(*m, mp, "density")) d.density = positive(*x, mp + ".density", "density");
      if (const Value* x = opt(*m, mp, "poisson")) {
        d.poisson = number(*x, mp + ".poisson");
        if (!(d.poisson > -1 && d.poisson < 0.5)) fail(*x, mp + ".poisson", "Poisson ratio must lie in (-1, 0.5)");
      }
    }
    if (const Value* p = opt(v, path, "pinned")) d.pinned = selection(*p, path + ".pinned", d, d.pinnedBox);
    if (const Value* a = opt(v, path, "attachments")) {
      items(*a, path + ".attachments", "an array of attachments", [&](const Value& at, const std::string& ap) {
        expectKind(at, ap, Kind::Object, "an attachment {\"body\": ..., \"vertices\": ...}");
        checkKeys(at, ap, {"body", "vertices"}, "an attachment");
        DeformableAttachmentSpec s;
        const Value& b = req(at, ap, "body", "the body the vertices move with");
        expectKind(b, ap + ".body", Kind::String, "a body name");
        bodyRef(b.string, b, ap + ".body");
        s.body = b.string;
        s.vertices = selection(req(at, ap, "vertices", "indices or a {min, max} box"), ap + ".vertices", d, s.box);
        d.attachments.push_back(std::move(s));
      });
    }
    if (const Value* x = opt(v, path, "solver")) {
      expectKind(*x, path + ".solver", Kind::String, "a solver name");
      if (!deform::methodFromString(x->string))
        fail(*x, path + ".solver",
             "unknown solver \"" + x->string + "\" (expected \"newton\", \"vbd\", \"jacobi\", \"jgs2-jacobi\" or \"jgs2-gs\")");
      d.solver = x->string;
    }
    if (const Value* x = opt(v, path, "stepControl")) {
      expectKind(*x, path + ".stepControl", Kind::String, "a step control name");
      if (!deform::accelerationFromString(x->string))
        fail(*x, path + ".stepControl",
             "unknown step control \"" + x->string + "\" (expected \"none\", \"line-search\" or \"subspace\")");
      d.stepControl = x->string;
    }
    if (const Value* x = opt(v, path, "maxIterations")) d.maxIterations = integer(*x, path + ".maxIterations", 1, 100000);
    if (const Value* x = opt(v, path, "tolerance")) {
      d.tolerance = number(*x, path + ".tolerance");
      if (!(d.tolerance > 0 && d.tolerance <= 1))
        fail(*x, path + ".tolerance", "the tolerance on the normalised step must lie in (0, 1]");
    }
    // At least the 64 modes the cubature is trained on (fewer would not shrink the precomputation);
    // at most 1024 (the eigensolver's Krylov space holds about twice as many vectors of the mesh's size).
    if (const Value* x = opt(v, path, "modes")) d.modes = integer(*x, path + ".modes", 64, 1024);
    spec_.deformables.push_back(std::move(d));
  }
};

Json vec(const Vec3& v, double L) { return Json::array({v.x() / L, v.y() / L, v.z() / L}); }

Json selectionJson(const std::vector<int>& vertices, const std::optional<VertexBox>& box, double L) {
  if (box) return Json{{"min", vec((*box)[0], L)}, {"max", vec((*box)[1], L)}};
  return Json(vertices);
}

}  // namespace

Json deformablesSectionJson(const MechanismSpec& spec) {
  const double L = spec.units.lengthScale();
  Json out = Json::array();
  for (const DeformableSpec& d : spec.deformables) {
    Json j;
    j["name"] = d.name;
    Json mesh;
    mesh["type"] = d.meshType;
    if (d.meshType == "box") {
      mesh["size"] = vec(d.boxSize, L);
      mesh["cells"] = d.cells;
    } else if (d.meshType == "cylinder") {
      mesh["radius"] = d.radius / L;
      mesh["length"] = d.length / L;
      mesh["cells"] = d.cells;
    } else {
      mesh["file"] = d.file;
      if (d.fileScale != 1) mesh["scale"] = d.fileScale;
      if (d.meshType == "surface" && d.surfaceSize > 0) mesh["size"] = d.surfaceSize / L;
    }
    j["mesh"] = mesh;
    if (d.position != Vec3::Zero()) j["position"] = vec(d.position, L);
    j["material"] = Json{{"model", d.material}, {"youngs", d.youngs}, {"poisson", d.poisson}, {"density", d.density}};
    if (!d.pinned.empty()) j["pinned"] = selectionJson(d.pinned, d.pinnedBox, L);
    if (!d.attachments.empty()) {
      j["attachments"] = Json::array();
      for (const DeformableAttachmentSpec& a : d.attachments)
        j["attachments"].push_back(Json{{"body", a.body}, {"vertices", selectionJson(a.vertices, a.box, L)}});
    }
    if (!d.solver.empty()) j["solver"] = d.solver;
    if (!d.stepControl.empty()) j["stepControl"] = d.stepControl;
    if (d.maxIterations > 0) j["maxIterations"] = d.maxIterations;
    if (d.tolerance > 0) j["tolerance"] = d.tolerance;
    if (d.modes > 0) j["modes"] = d.modes;
    out.push_back(j);
  }
  return out;
}

void readDeformablesSection(const json::Value& v, MechanismSpec& spec, const std::string& file, double lengthScale,
                            const std::string& baseDir) {
  DeformReader(spec, file, lengthScale, baseDir).section(v);
}

}  // namespace mechsim::io
