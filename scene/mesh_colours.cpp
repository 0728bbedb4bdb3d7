// scene/mesh_colours.cpp — a mesh file's colour runs as per-vertex colours, kept per mesh
// (mesh_colours.h).
#include "scene/mesh_colours.h"

#include <array>
#include <map>
#include <mutex>
#include <utility>

namespace mechsim::ui {

namespace {

/// The arrays made, by mesh and fallback colour. The mesh is held weakly: an entry whose mesh is
/// gone is dropped the next time an array is made (a mechanism read again gives new meshes).
struct Entry {
  std::weak_ptr<const MeshData> mesh;
  std::shared_ptr<const std::vector<Eigen::Vector4f>> colours;
};
using Key = std::pair<const MeshData*, std::array<float, 3>>;
std::mutex cacheMutex;
std::map<Key, Entry> cache;

std::shared_ptr<const std::vector<Eigen::Vector4f>> make(const MeshData& mesh, const Eigen::Vector3f& fallback) {
  auto colours = std::make_shared<std::vector<Eigen::Vector4f>>(mesh.vertices.size(), Eigen::Vector4f(fallback.x(), fallback.y(), fallback.z(), 1));
  // Runs are checked where the mesh was read (mesh_wire.cpp); clipped here all the same, so a
  // mesh made in code with a run past its indices draws rather than reads out of bounds.
  const std::size_t ni = mesh.indices.size(), nv = mesh.vertices.size();
  for (const MeshData::ColorRun& run : mesh.colors) {
    const Eigen::Vector4f c(run.rgb.x(), run.rgb.y(), run.rgb.z(), 1);
    for (std::size_t k = run.first; k < std::size_t(run.first) + run.count && k < ni; ++k)
      if (mesh.indices[k] < nv) (*colours)[mesh.indices[k]] = c;
  }
  return colours;
}

}  // namespace

std::shared_ptr<const std::vector<Eigen::Vector4f>> meshVertexColours(const std::shared_ptr<const MeshData>& mesh,
                                                                      const Eigen::Vector3f& fallback) {
  if (!mesh || mesh->colors.empty()) return nullptr;
  const Key key{mesh.get(), {fallback.x(), fallback.y(), fallback.z()}};
  std::lock_guard<std::mutex> lock(cacheMutex);
  auto it = cache.find(key);
  // A live entry for this address is this mesh (a freed mesh's address reused by a new one finds
  // its entry expired).
  if (it != cache.end() && !it->second.mesh.expired()) return it->second.colours;
  for (auto e = cache.begin(); e != cache.end();) e = e->second.mesh.expired() ? cache.erase(e) : std::next(e);
  auto colours = make(*mesh, fallback);
  cache[key] = Entry{mesh, colours};
  return colours;
}

}  // namespace mechsim::ui
