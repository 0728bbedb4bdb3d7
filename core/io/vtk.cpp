// core/io/vtk.cpp — VTK XML writers (vtk.h).
#include "core/io/vtk.h"

#include <cmath>
#include <cstdio>
#include <set>
#include <stdexcept>

namespace mechsim::io {

namespace {

/// Appends the values, eight to a line, 12 significant digits; throws on a non-finite value.
void appendNumbers(std::string& out, const double* v, std::size_t n, const std::string& what) {
  char buf[32];
  for (std::size_t k = 0; k < n; ++k) {
    if (!std::isfinite(v[k])) throw std::invalid_argument("VTK output: " + what + " has a value that is not finite");
    const int len = std::snprintf(buf, sizeof buf, "%.12g", v[k]);
    out.append(buf, static_cast<std::size_t>(len));
    out += (k % 8 == 7 || k + 1 == n) ? '\n' : ' ';
  }
}

/// Text safe inside a double-quoted XML attribute.
std::string xmlAttribute(const std::string& s) {
  std::string out;
  for (char ch : s) switch (ch) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      default: out += ch;
    }
  return out;
}

void appendFields(std::string& out, const char* section, const std::vector<VtkField>& fields, std::size_t count) {
  if (fields.empty()) return;
  out += std::string("      <") + section + ">\n";
  for (const VtkField& f : fields) {
    if (f.components < 1 || f.values.size() != count * std::size_t(f.components))
      throw std::invalid_argument("VTK output: field \"" + f.name + "\" has " + std::to_string(f.values.size()) +
                                  " values for " + std::to_string(count) + " entries");
    out += "        <DataArray type=\"Float64\" Name=\"" + xmlAttribute(f.name) + "\" NumberOfComponents=\"" +
           std::to_string(f.components) + "\" format=\"ascii\">\n";
    appendNumbers(out, f.values.data(), f.values.size(), "field \"" + f.name + "\"");
    out += "        </DataArray>\n";
  }
  out += std::string("      </") + section + ">\n";
}

template <class Index>
void appendConnectivity(std::string& out, const Index* index, std::size_t cells, int perCell, std::size_t points) {
  out += "        <DataArray type=\"Int64\" Name=\"connectivity\" format=\"ascii\">\n";
  for (std::size_t c = 0; c < cells; ++c)
    for (int a = 0; a < perCell; ++a) {
      const long long v = static_cast<long long>(index[c * std::size_t(perCell) + std::size_t(a)]);
      if (v < 0 || static_cast<unsigned long long>(v) >= points)
        throw std::invalid_argument("VTK output: a cell names a point out of range");
      out += std::to_string(v);
      out += a == perCell - 1 ? '\n' : ' ';
    }
  out += "        </DataArray>\n        <DataArray type=\"Int64\" Name=\"offsets\" format=\"ascii\">\n";
  for (std::size_t c = 0; c < cells; ++c) {
    out += std::to_string(std::size_t(perCell) * (c + 1));
    out += (c % 16 == 15 || c + 1 == cells) ? '\n' : ' ';
  }
  out += "        </DataArray>\n";
}

void appendPoints(std::string& out, const VecX& x) {
  out += "      <Points>\n        <DataArray type=\"Float64\" NumberOfComponents=\"3\" format=\"ascii\">\n";
  appendNumbers(out, x.data(), std::size_t(x.size()), "the positions");
  out += "        </DataArray>\n      </Points>\n";
}

constexpr const char* kHead = "<?xml version=\"1.0\"?>\n<VTKFile type=\"";
constexpr const char* kHeadEnd = "\" version=\"1.0\" byte_order=\"LittleEndian\" header_type=\"UInt64\">\n";

}  // namespace

std::string vtuText(const std::vector<std::array<int, 4>>& tets, const VecX& x, const std::vector<VtkField>& pointData,
                    const std::vector<VtkField>& cellData) {
  if (x.size() % 3 != 0) throw std::invalid_argument("VTK output: positions are not 3 per point");
  const std::size_t np = static_cast<std::size_t>(x.size() / 3), nc = tets.size();
  std::string out;
  out.reserve(64 * (np + nc) + 512);
  out += std::string(kHead) + "UnstructuredGrid" + kHeadEnd + "  <UnstructuredGrid>\n    <Piece NumberOfPoints=\"" +
         std::to_string(np) + "\" NumberOfCells=\"" + std::to_string(nc) + "\">\n";
  appendFields(out, "PointData", pointData, np);
  appendFields(out, "CellData", cellData, nc);
  appendPoints(out, x);
  out += "      <Cells>\n";
  static_assert(sizeof(std::array<int, 4>) == 4 * sizeof(int), "tets read as one int array");
  appendConnectivity(out, nc ? tets.front().data() : nullptr, nc, 4, np);
  out += "        <DataArray type=\"UInt8\" Name=\"types\" format=\"ascii\">\n";
  for (std::size_t t = 0; t < nc; ++t) out += (t % 32 == 31 || t + 1 == nc) ? "10\n" : "10 ";
  out += "        </DataArray>\n      </Cells>\n    </Piece>\n  </UnstructuredGrid>\n</VTKFile>\n";
  return out;
}

std::string vtpText(const std::vector<unsigned>& triangles, const VecX& x, const std::vector<VtkField>& pointData) {
  if (x.size() % 3 != 0) throw std::invalid_argument("VTK output: positions are not 3 per point");
  if (triangles.size() % 3 != 0) throw std::invalid_argument("VTK output: triangle indices are not 3 per triangle");
  const std::size_t np = static_cast<std::size_t>(x.size() / 3), nc = triangles.size() / 3;
  std::string out;
  out.reserve(48 * (np + nc) + 512);
  out += std::string(kHead) + "PolyData" + kHeadEnd + "  <PolyData>\n    <Piece NumberOfPoints=\"" +
         std::to_string(np) + "\" NumberOfVerts=\"0\" NumberOfLines=\"0\" NumberOfStrips=\"0\" NumberOfPolys=\"" +
         std::to_string(nc) + "\">\n";
  appendFields(out, "PointData", pointData, np);
  appendPoints(out, x);
  out += "      <Polys>\n";
  appendConnectivity(out, triangles.data(), nc, 3, np);
  out += "      </Polys>\n    </Piece>\n  </PolyData>\n</VTKFile>\n";
  return out;
}

std::string pvdText(const std::vector<std::pair<double, std::string>>& steps) {
  std::string out =
      "<?xml version=\"1.0\"?>\n"
      "<VTKFile type=\"Collection\" version=\"0.1\" byte_order=\"LittleEndian\">\n"
      "  <Collection>\n";
  char t[32];
  for (const auto& [time, file] : steps) {
    if (!std::isfinite(time)) throw std::invalid_argument("VTK output: a time that is not finite");
    std::snprintf(t, sizeof t, "%.12g", time);
    out += std::string("    <DataSet timestep=\"") + t + "\" group=\"\" part=\"0\" file=\"" + xmlAttribute(file) + "\"/>\n";
  }
  out += "  </Collection>\n</VTKFile>\n";
  return out;
}

std::string fileStem(const std::string& name) {
  std::string out;
  for (unsigned char ch : name) {
    const bool keep = (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') || ch == '-' ||
                      ch == '_' || ch == '.';
    out += keep ? char(ch) : '_';
  }
  if (!out.empty() && out[0] == '.') out[0] = '_';
  return out.empty() ? "part" : out;
}

std::vector<std::string> fileStems(const std::vector<std::string>& names) {
  std::vector<std::string> out;
  std::set<std::string> taken;
  for (std::size_t k = 0; k < names.size(); ++k) {
    std::string stem = fileStem(names[k]);
    while (!taken.insert(stem).second) stem += "-" + std::to_string(k + 1);
    out.push_back(stem);
  }
  return out;
}

}  // namespace mechsim::io
