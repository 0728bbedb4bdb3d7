// ui/deformable_export.cpp — recorded deformable surfaces as VTK series (deformable_export.h).
#include "ui/deformable_export.h"

#include <cstdio>
#include <filesystem>
#include <utility>

#include "core/io/vtk.h"
#include "core/io/write.h"

namespace mechsim::ui {

bool writeSurfaceSeries(const std::string& dir, const std::vector<std::string>& partNames,
                        const std::vector<SurfaceFrame>& frames, const std::function<bool(int, int)>& progress,
                        std::string& error) {
  namespace fs = std::filesystem;
  error.clear();
  const std::vector<std::string> stems = io::fileStems(partNames);
  std::vector<fs::path> written;
  auto undo = [&] {
    std::error_code ec;
    for (const fs::path& p : written) fs::remove(p, ec);
  };
  const int total = static_cast<int>(frames.size() * partNames.size() + partNames.size());
  int done = 0;
  try {
    std::vector<std::vector<std::pair<double, std::string>>> series(partNames.size());
    for (std::size_t i = 0; i < frames.size(); ++i) {
      const SurfaceFrame& f = frames[i];
      for (std::size_t k = 0; k < partNames.size() && k < f.surfaces.size(); ++k) {
        if (!f.surfaces[k]) continue;
        const MeshData& m = *f.surfaces[k];
        VecX x(3 * static_cast<Eigen::Index>(m.vertices.size()));
        for (std::size_t v = 0; v < m.vertices.size(); ++v) x.segment<3>(3 * Eigen::Index(v)) = m.vertices[v].cast<double>();
        std::vector<io::VtkField> fields;
        if (m.normals.size() == m.vertices.size()) {
          io::VtkField n{"normals", 3, {}};
          for (const auto& v : m.normals) n.values.insert(n.values.end(), {v.x(), v.y(), v.z()});
          fields.push_back(std::move(n));
        }
        if (k < f.stress.size() && f.stress[k] && f.stress[k]->size() == m.vertices.size())
          fields.push_back({"von_mises", 1, {f.stress[k]->begin(), f.stress[k]->end()}});
        char number[32];
        std::snprintf(number, sizeof number, "_%06zu.vtp", i);
        const std::string file = stems[k] + number;
        const fs::path path = fs::path(dir) / file;
        io::writeFileAtomically(path.string(), io::vtpText(m.indices, x, fields));
        written.push_back(path);
        series[k].emplace_back(f.t, file);
        if (progress && !progress(++done, total)) {
          undo();
          return false;
        }
      }
    }
    for (std::size_t k = 0; k < partNames.size(); ++k) {
      const fs::path path = fs::path(dir) / (stems[k] + ".pvd");
      io::writeFileAtomically(path.string(), io::pvdText(series[k]));
      written.push_back(path);
      if (progress) progress(++done, total);
    }
  } catch (const std::exception& e) {
    undo();
    error = e.what();
    return false;
  }
  return true;
}

}  // namespace mechsim::ui
