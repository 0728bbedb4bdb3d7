// tests/io/test_regular_file.cpp — core/io/regular_file.cpp: the whole of a regular file, or why
// not. A FIFO must be refused at once (not block in open or read), a device refused before any
// read, the size limit hold at its edge, and a symbolic link to a pipe be seen for what it is.
#include <QtTest>

#include <sys/stat.h>  // mkfifo
#include <unistd.h>    // symlink

#include <fstream>
#include <string>

#include "core/io/regular_file.h"

using mechsim::io::ReadFailure;
using mechsim::io::readRegularFile;

namespace {

void write(const std::string& path, const std::string& text) {
  std::ofstream(path, std::ios::binary) << text;
}

}  // namespace

class TestRegularFile : public QObject {
  Q_OBJECT
 private slots:
  void readsWholeFiles() {
    QTemporaryDir dir;
    const std::string f = dir.filePath("a.txt").toStdString();
    std::string bytes(100000, '\0');
    for (std::size_t i = 0; i < bytes.size(); ++i) bytes[i] = static_cast<char>(i * 7 + 3);
    write(f, bytes);
    std::string text = "stale";
    QVERIFY(!readRegularFile(f, 1 << 20, text));
    QVERIFY(text == bytes);
    write(f, "");
    QVERIFY(!readRegularFile(f, 1 << 20, text));
    QVERIFY(text.empty());
    // A file with more bytes than its size says (/proc files say 0): read past the size seen, to
    // its end, and refused once it passes the limit.
    QVERIFY(!readRegularFile("/proc/self/status", 1 << 20, text));
    QVERIFY2(text.rfind("Name:", 0) == 0 && text.find("\nPid:") != std::string::npos, text.c_str());
    const auto grew = readRegularFile("/proc/self/status", 16, text);
    QVERIFY(grew && grew->kind == ReadFailure::Kind::TooLarge);
    QVERIFY2(grew->reason.find("grew past the limit of 16 bytes") != std::string::npos, grew->reason.c_str());
  }

  void sizeLimitAtItsEdge() {
    QTemporaryDir dir;
    const std::string f = dir.filePath("b.txt").toStdString();
    write(f, "0123456789");
    std::string text;
    QVERIFY(!readRegularFile(f, 10, text));
    QCOMPARE(text, std::string("0123456789"));
    const auto failure = readRegularFile(f, 9, text);
    QVERIFY(failure && failure->kind == ReadFailure::Kind::TooLarge);
    QCOMPARE(failure->reason, std::string("too large (10 bytes; the limit is 9 bytes)"));
    QCOMPARE(failure->size, std::uintmax_t(10));
    QCOMPARE(mechsim::io::byteLimitText(std::uintmax_t(64) << 20), std::string("64 MiB"));
    QCOMPARE(mechsim::io::byteLimitText(std::uintmax_t(1) << 30), std::string("1 GiB"));
  }

  // parseByteSize: what MECHSIM_CACHE_MAX accepts — binary units, any case, an optional B/iB, a
  // space before the unit; anything else, and a size past 64 bits, is nothing.
  void byteSizes_data() {
    QTest::addColumn<QString>("text");
    QTest::addColumn<qulonglong>("bytes");  // 1: not a size (no row below is one byte)
    const qulonglong no = 1;
    QTest::newRow("bytes") << "123456" << qulonglong(123456);
    QTest::newRow("zero") << "0" << qulonglong(0);
    QTest::newRow("B") << "512B" << qulonglong(512);
    QTest::newRow("k") << "4k" << qulonglong(4096);
    QTest::newRow("MiB") << "500MiB" << (qulonglong(500) << 20);
    QTest::newRow("M") << "500M" << (qulonglong(500) << 20);
    QTest::newRow("GB with spaces") << " 8 GB " << (qulonglong(8) << 30);
    QTest::newRow("g") << "8g" << (qulonglong(8) << 30);
    QTest::newRow("TiB") << "2TiB" << (qulonglong(2) << 40);
    QTest::newRow("largest") << "18446744073709551615" << qulonglong(18446744073709551615ull);
    QTest::newRow("past 64 bits") << "18446744073709551616" << no;
    QTest::newRow("unit past 64 bits") << "16777216T" << no;
    QTest::newRow("empty") << "" << no;
    QTest::newRow("unit alone") << "G" << no;
    QTest::newRow("negative") << "-1G" << no;
    QTest::newRow("fraction") << "1.5G" << no;
    QTest::newRow("unknown unit") << "8X" << no;
    QTest::newRow("two units") << "8GG" << no;
    QTest::newRow("hex") << "0x10" << no;
  }
  void byteSizes() {
    QFETCH(QString, text);
    QFETCH(qulonglong, bytes);
    const auto got = mechsim::io::parseByteSize(text.toStdString());
    if (bytes == 1) {
      QVERIFY2(!got, qPrintable(text));
    } else {
      QVERIFY2(got, qPrintable(text));
      QCOMPARE(qulonglong(*got), bytes);
    }
  }

  void refusals_data() {
    QTest::addColumn<QString>("what");
    QTest::addColumn<int>("kind");
    QTest::addColumn<QString>("reason");
    QTest::newRow("missing") << "missing" << int(ReadFailure::Kind::Missing) << "no such file";
    QTest::newRow("under a file") << "under-file" << int(ReadFailure::Kind::Missing) << "no such file";
    QTest::newRow("folder") << "folder" << int(ReadFailure::Kind::Folder) << "it is a folder";
    QTest::newRow("fifo") << "fifo" << int(ReadFailure::Kind::NotRegular) << "not a regular file (a device, pipe or socket)";
    QTest::newRow("link to fifo") << "link" << int(ReadFailure::Kind::NotRegular) << "not a regular file";
    QTest::newRow("/dev/zero") << "zero" << int(ReadFailure::Kind::NotRegular) << "not a regular file";
  }
  void refusals() {
    QFETCH(QString, what);
    QFETCH(int, kind);
    QFETCH(QString, reason);
    QTemporaryDir dir;
    const std::string d = dir.path().toStdString();
    write(d + "/plain", "x");
    QCOMPARE(::mkfifo((d + "/fifo").c_str(), 0600), 0);
    QCOMPARE(::symlink((d + "/fifo").c_str(), (d + "/link").c_str()), 0);
    const std::string path = what == "missing"      ? d + "/none"
                             : what == "under-file" ? d + "/plain/x"
                             : what == "folder"     ? d
                             : what == "zero"       ? std::string("/dev/zero")
                                                    : d + "/" + what.toStdString();
    std::string text;
    QElapsedTimer t;
    t.start();
    const auto failure = readRegularFile(path, 1 << 20, text);
    QVERIFY(t.elapsed() < 2000);  // a FIFO without a writer does not block
    QVERIFY(failure);
    QCOMPARE(int(failure->kind), kind);
    QVERIFY2(failure->reason.rfind(reason.toStdString(), 0) == 0, failure->reason.c_str());
  }
};

QTEST_APPLESS_MAIN(TestRegularFile)
#include "test_regular_file.moc"
