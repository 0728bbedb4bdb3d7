#pragma once
// tests/vtk_read.h — reads back the VTK XML files mechsim writes (core/io/vtk.h): .vtu (tets) and
// .vtp (triangles), ASCII, with Qt's XML reader — an independent reading for the tests.
#include <QFile>
#include <QRegularExpression>
#include <QString>
#include <QXmlStreamReader>

#include <map>
#include <vector>

namespace mechsim::test {

/// One file read back: its counts, the positions, the cells and the named Float64 arrays (by
/// section: "PointData/NAME", "CellData/NAME"). `error` says what was wrong, empty when read.
struct VtkXmlFile {
  int points = -1, cells = -1;  // cells: NumberOfCells (.vtu) or NumberOfPolys (.vtp)
  std::vector<double> x;
  std::vector<long> connectivity, offsets, types;
  std::map<QString, std::vector<double>> arrays;
  QString error;
};

inline VtkXmlFile readVtkXml(const QString& path) {
  VtkXmlFile f;
  QFile file(path);
  if (!file.open(QIODevice::ReadOnly)) {
    f.error = "cannot open " + path;
    return f;
  }
  QXmlStreamReader xml(&file);
  QString section;
  while (!xml.atEnd()) {
    if (xml.readNext() != QXmlStreamReader::StartElement) continue;
    const QStringView name = xml.name();
    if (name == u"Piece") {
      f.points = xml.attributes().value("NumberOfPoints").toInt();
      const auto a = xml.attributes();
      f.cells = (a.hasAttribute("NumberOfCells") ? a.value("NumberOfCells") : a.value("NumberOfPolys")).toInt();
    } else if (name == u"PointData" || name == u"CellData" || name == u"Points" || name == u"Cells" || name == u"Polys") {
      section = name.toString();
    } else if (name == u"DataArray") {
      const QString array = xml.attributes().value("Name").toString();
      const QStringList words = xml.readElementText().split(QRegularExpression("\\s+"), Qt::SkipEmptyParts);
      if (section == "Points") {
        for (const QString& w : words) f.x.push_back(w.toDouble());
      } else if (section == "Cells" || section == "Polys") {
        std::vector<long>& to = array == "connectivity" ? f.connectivity : array == "offsets" ? f.offsets : f.types;
        for (const QString& w : words) to.push_back(w.toLong());
      } else {
        std::vector<double>& to = f.arrays[section + "/" + array];
        for (const QString& w : words) to.push_back(w.toDouble());
      }
    }
  }
  if (xml.hasError()) f.error = xml.errorString();
  return f;
}

/// The (time, file) pairs of a .pvd series; `error` as above.
struct PvdFile {
  QList<double> times;
  QStringList files;
  QString error;
};

inline PvdFile readPvd(const QString& path) {
  PvdFile p;
  QFile file(path);
  if (!file.open(QIODevice::ReadOnly)) {
    p.error = "cannot open " + path;
    return p;
  }
  QXmlStreamReader xml(&file);
  while (!xml.atEnd())
    if (xml.readNext() == QXmlStreamReader::StartElement && xml.name() == u"DataSet") {
      p.times << xml.attributes().value("timestep").toDouble();
      p.files << xml.attributes().value("file").toString();
    }
  if (xml.hasError()) p.error = xml.errorString();
  return p;
}

}  // namespace mechsim::test
