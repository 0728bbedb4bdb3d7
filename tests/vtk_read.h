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

/// Reads the XML file at `path`, calling onStart(xml) at every start element; the error, or empty.
template <class OnStart>
QString readXml(const QString& path, OnStart onStart) {
  QFile file(path);
  if (!file.open(QIODevice::ReadOnly)) return "cannot open " + path;
  QXmlStreamReader xml(&file);
  while (!xml.atEnd())
    if (xml.readNext() == QXmlStreamReader::StartElement) onStart(xml);
  return xml.hasError() ? xml.errorString() : QString();
}

inline VtkXmlFile readVtkXml(const QString& path) {
  VtkXmlFile f;
  QString section;
  f.error = readXml(path, [&](QXmlStreamReader& xml) {
    const QStringView name = xml.name();
    if (name == u"Piece") {
      const auto a = xml.attributes();
      f.points = a.value("NumberOfPoints").toInt();
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
  });
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
  p.error = readXml(path, [&](QXmlStreamReader& xml) {
    if (xml.name() != u"DataSet") return;
    p.times << xml.attributes().value("timestep").toDouble();
    p.files << xml.attributes().value("file").toString();
  });
  return p;
}

}  // namespace mechsim::test
