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

#include "core/deform/tet_mesh.h"
#include "core/io/mesh.h"
#include "core/io/tetrahedralise.h"
#include "core/io/load.h"
#include "core/io/tetmesh_io.h"

namespace mechsim::io {

namespace {

using json::Kind;
using json::Value;

class DeformReader {
 public:
  DeformReader(MechanismSpec& spec, std::string file, double L, std::string baseDir)
      : spec_(spec), file_(std::move(file)), L_(L), baseDir_(std::move(baseDir)) {}

  void section(const Value& v) {
    expect(v, "deformables", Kind::Array, "an array of deformable parts");
    for (std::size_t i = 0; i < v.items.size(); ++i) part(v.items[i], "deformables[" + std::to_string(i) + "]");
  }

 private:
  MechanismSpec& spec_;
  std::string file_;
  double L_;
  std::string baseDir_;

  [[noreturn]] void fail(SourceLoc loc, const std::string& path, const std::string& msg) const {
    throw LoadError(Diagnostic{file_, loc.line, loc.col, path + ": " + msg});
  }
  [[noreturn]] void fail(const Value& v, const std::string& path, const std::string& msg) const { fail(v.loc, path, msg); }
  void expect(const Value& v, const std::string& path, Kind k, const std::string& what) const {
    if (v.kind != k) fail(v, path, "expected " + what + ", got " + json::describe(v.kind));
  }
  void keys(const Value& obj, const std::string& path, const std::vector<std::string>& allowed, const std::string& what) const {
    for (const json::Member& m : obj.members) {
      if (std::find(allowed.begin(), allowed.end(), m.key) != allowed.end()) continue;
      std::string list;
      for (const std::string& a : allowed) list += (list.empty() ? "" : ", ") + a;
      fail(m.keyLoc, path + "." + m.key, "unknown key \"" + m.key + "\" in " + what + " (allowed: " + list + ")");
    }
  }
  const Value* opt(const Value& obj, const std::string& path, const char* key) {
    const Value* v = obj.find(key);
    if (v) spec_.locations[path + "." + key] = v->loc;
    return v;
  }
  const Value& req(const Value& obj, const std::string& path, const char* key, const std::string& what) {
    const Value* v = opt(obj, path, key);
    if (!v) fail(obj, path, std::string("missing required key \"") + key + "\" (" + what + ")");
    return *v;
  }
  double number(const Value& v, const std::string& path) const {
    expect(v, path, Kind::Number, "a number");
    return v.number;
  }
  double positive(const Value& v, const std::string& path, const char* what) const {
    const double x = number(v, path);
    if (!(x > 0)) fail(v, path, std::string(what) + " must be positive");
    return x;
  }
  int integer(const Value& v, const std::string& path, int lo, int hi) const {
    const double x = number(v, path);
    if (x != std::floor(x) || x < lo || x > hi)
      fail(v, path, "expected an integer from " + std::to_string(lo) + " to " + std::to_string(hi));
    return static_cast<int>(x);
  }
  Vec3 vec3(const Value& v, const std::string& path, double scale) const {
    if (v.kind != Kind::Array || v.items.size() != 3) fail(v, path, "expected an array of 3 numbers");
    Vec3 p;
    for (int k = 0; k < 3; ++k) p[k] = number(v.items[k], path + "[" + std::to_string(k) + "]") * scale;
    return p;
  }
  std::vector<int> cells(const Value& v, const std::string& path, std::size_t n) const {
    if (v.kind != Kind::Array || v.items.size() != n) fail(v, path, "expected an array of " + std::to_string(n) + " cell counts");
    std::vector<int> c;
    for (std::size_t k = 0; k < n; ++k) c.push_back(integer(v.items[k], path + "[" + std::to_string(k) + "]", 1, 1000));
    return c;
  }

  void mesh(const Value& v, const std::string& path, DeformableSpec& d) {
    expect(v, path, Kind::Object, "a mesh object {\"type\": \"box\" | \"cylinder\" | \"tetgen\" | \"gmsh\" | \"surface\", ...}");
    const Value& t = req(v, path, "type", "\"box\", \"cylinder\", \"tetgen\", \"gmsh\" or \"surface\"");
    expect(t, path + ".type", Kind::String, "a string");
    d.meshType = t.string;
    deform::TetMesh m;
    if (d.meshType == "box") {
      keys(v, path, {"type", "size", "cells"}, "a box mesh");
      const Vec3 size = vec3(req(v, path, "size", "edge lengths [x, y, z]"), path + ".size", L_);
      if (!(size.minCoeff() > 0)) fail(*v.find("size"), path + ".size", "edge lengths must be positive");
      const auto c = cells(req(v, path, "cells", "cell counts [nx, ny, nz]"), path + ".cells", 3);
      if (long(c[0]) * c[1] * c[2] > 2'000'000) fail(*v.find("cells"), path + ".cells", "too many cells (at most 2e6)");
      m = deform::makeBoxMesh(size, c[0], c[1], c[2]);
    } else if (d.meshType == "cylinder") {
      keys(v, path, {"type", "radius", "length", "cells"}, "a cylinder mesh");
      const double r = positive(req(v, path, "radius", "radius"), path + ".radius", "radius") * L_;
      const double l = positive(req(v, path, "length", "length along +z"), path + ".length", "length") * L_;
      const auto c = cells(req(v, path, "cells", "cell counts [across, along]"), path + ".cells", 2);
      m = deform::makeCylinderMesh(r, l, c[0], c[1]);
    } else if (d.meshType == "tetgen" || d.meshType == "gmsh") {
      keys(v, path, {"type", "file", "scale"}, std::string("a ") + d.meshType + " mesh");
      const Value& f = req(v, path, "file", "the mesh file, relative to this file");
      expect(f, path + ".file", Kind::String, "a file name");
      d.file = f.string;
      double scale = 1;
      if (const Value* s = opt(v, path, "scale")) scale = positive(*s, path + ".scale", "scale");
      std::filesystem::path p(d.file);
      if (p.is_relative()) p = std::filesystem::path(baseDir_.empty() ? "." : baseDir_) / p;
      d.resolvedFile = p.lexically_normal().string();
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
      keys(v, path, {"type", "file", "scale", "size"}, "a surface mesh");
      const Value& f = req(v, path, "file", "the closed surface mesh file, relative to this file");
      expect(f, path + ".file", Kind::String, "a file name");
      d.file = f.string;
      double scale = 1, size = 0;
      if (const Value* s = opt(v, path, "scale")) scale = positive(*s, path + ".scale", "scale");
      if (const Value* s = opt(v, path, "size")) size = positive(*s, path + ".size", "size") * L_;
      std::filesystem::path p(d.file);
      if (p.is_relative()) p = std::filesystem::path(baseDir_.empty() ? "." : baseDir_) / p;
      d.resolvedFile = p.lexically_normal().string();
      try {
        const auto surf = loadMeshFile(d.resolvedFile);
        std::vector<Vec3> pts;
        for (const auto& q : surf->vertices) pts.push_back(q.cast<double>() * scale * L_);
        std::vector<std::array<int, 3>> tri;
        for (std::size_t k = 0; k + 2 < surf->indices.size(); k += 3)
          tri.push_back({int(surf->indices[k]), int(surf->indices[k + 1]), int(surf->indices[k + 2])});
        tri = weldVertices(pts, tri);
        TetMeshFile tm = tetrahedraliseSurface(pts, tri, size);
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
  std::vector<int> selection(const Value& v, const std::string& path, const DeformableSpec& d) {
    std::vector<int> out;
    if (v.kind == Kind::Array) {
      for (std::size_t k = 0; k < v.items.size(); ++k)
        out.push_back(integer(v.items[k], path + "[" + std::to_string(k) + "]", 0, static_cast<int>(d.vertices.size()) - 1));
      return out;
    }
    if (v.kind != Kind::Object) fail(v, path, "expected an array of vertex indices or {\"min\": [..], \"max\": [..]}");
    keys(v, path, {"min", "max"}, "a vertex box");
    const Vec3 lo = vec3(req(v, path, "min", "lower corner"), path + ".min", L_);
    const Vec3 hi = vec3(req(v, path, "max", "upper corner"), path + ".max", L_);
    const double eps = 1e-9 * (1 + hi.cwiseAbs().maxCoeff() + lo.cwiseAbs().maxCoeff());
    for (int k = 0; k < static_cast<int>(d.vertices.size()); ++k) {
      const Vec3& p = d.vertices[k];
      if ((p.array() >= lo.array() - eps).all() && (p.array() <= hi.array() + eps).all()) out.push_back(k);
    }
    if (out.empty()) fail(v, path, "the box contains no vertex of the mesh");
    return out;
  }

  void part(const Value& v, const std::string& path) {
    expect(v, path, Kind::Object, "a deformable part object");
    spec_.locations[path] = v.loc;
    keys(v, path, {"name", "mesh", "position", "material", "pinned", "attachments"}, "a deformable part");
    DeformableSpec d;
    const Value& n = req(v, path, "name", "a unique name");
    expect(n, path + ".name", Kind::String, "a string");
    d.name = n.string;
    for (const DeformableSpec& o : spec_.deformables)
      if (o.name == d.name) fail(n, path + ".name", "duplicate deformable part name \"" + d.name + "\"");
    mesh(req(v, path, "mesh", "the tetrahedral mesh"), path + ".mesh", d);
    if (const Value* p = opt(v, path, "position")) {
      const Vec3 t = vec3(*p, path + ".position", L_);
      for (Vec3& q : d.vertices) q += t;
    }
    if (const Value* m = opt(v, path, "material")) {
      const std::string mp = path + ".material";
      expect(*m, mp, Kind::Object, "a material object");
      keys(*m, mp, {"model", "youngs", "poisson", "density"}, "a material");
      if (const Value* x = opt(*m, mp, "model")) {
        expect(*x, mp + ".model", Kind::String, "a string");
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
    if (const Value* p = opt(v, path, "pinned")) d.pinned = selection(*p, path + ".pinned", d);
    if (const Value* a = opt(v, path, "attachments")) {
      expect(*a, path + ".attachments", Kind::Array, "an array of attachments");
      for (std::size_t k = 0; k < a->items.size(); ++k) {
        const Value& at = a->items[k];
        const std::string ap = path + ".attachments[" + std::to_string(k) + "]";
        expect(at, ap, Kind::Object, "an attachment {\"body\": ..., \"vertices\": ...}");
        keys(at, ap, {"body", "vertices"}, "an attachment");
        DeformableAttachmentSpec s;
        const Value& b = req(at, ap, "body", "the body the vertices move with");
        expect(b, ap + ".body", Kind::String, "a body name");
        bool found = false;
        for (const BodySpec& body : spec_.bodies) found = found || body.name == b.string;
        if (!found) fail(b, ap + ".body", "unknown body \"" + b.string + "\"");
        s.body = b.string;
        s.vertices = selection(req(at, ap, "vertices", "indices or a {min, max} box"), ap + ".vertices", d);
        d.attachments.push_back(std::move(s));
      }
    }
    spec_.deformables.push_back(std::move(d));
  }
};

}  // namespace

void readDeformablesSection(const json::Value& v, MechanismSpec& spec, const std::string& file, double lengthScale,
                            const std::string& baseDir) {
  DeformReader(spec, file, lengthScale, baseDir).section(v);
}

}  // namespace mechsim::io
