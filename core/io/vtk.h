#pragma once
// core/io/vtk.h — tetrahedral meshes over time in VTK's XML formats, for ParaView and the other
// VTK readers: one UnstructuredGrid file (.vtu) per state, listed with its time in a Collection
// file (.pvd) that such readers open as one time series. ASCII data (12 significant digits), so
// the files need no decoder to be checked and no endianness to be agreed. Written by hand: the
// format is a fixed XML skeleton around number lists, and VTK itself (libvtk9) would be a large
// dependency for it.
#include <array>
#include <string>
#include <utility>
#include <vector>

#include "core/types.h"

namespace mechsim::io {

/// A named field on the points or the cells: `components` values per entry, entry-major.
struct VtkField {
  std::string name;
  int components = 1;
  std::vector<double> values;
};

/// The .vtu text of tets (VTK_TETRA, type 10) over the points x (3 per point), with point and cell
/// fields. Throws std::invalid_argument when a size does not match, an index is out of range, or a
/// value is not finite (nothing is written with NaN in it).
std::string vtuText(const std::vector<std::array<int, 4>>& tets, const VecX& x, const std::vector<VtkField>& pointData,
                    const std::vector<VtkField>& cellData);

/// The .vtp text (VTK XML PolyData) of a triangle surface: `triangles` 3 point indices each, over
/// the points x (3 per point), with point fields. Throws as vtuText.
std::string vtpText(const std::vector<unsigned>& triangles, const VecX& x, const std::vector<VtkField>& pointData);

/// The .pvd text listing (time, file) pairs; file names are written as given (relative to the .pvd).
std::string pvdText(const std::vector<std::pair<double, std::string>>& steps);

/// `name` made safe as a file name's stem: letters, digits, '-', '_' and '.' kept (a leading '.'
/// replaced), every other byte replaced by '_'; "part" when nothing is left.
std::string fileStem(const std::string& name);
/// fileStem of each name, numbered ("-k", k the name's position from 1) where two would meet.
std::vector<std::string> fileStems(const std::vector<std::string>& names);

}  // namespace mechsim::io
