#include "weights/zip.h"

#include <gtest/gtest.h>

#include "builders.h"
#include "support/diagnostic.h"

namespace onnxify::weights {
namespace {

using namespace std::string_literals;

using testing::bytes_of;
using testing::zip_file;
using testing::ZipOptions;

std::string error_of(const std::string& file, const char* entry = nullptr) {
  try {
    ZipArchive z(bytes_of(file));
    if (entry) z.read(*z.find(entry));
  } catch (const Diagnostic& d) {
    return d.message();
  }
  return "(no error)";
}

bool starts_with(const std::string& s, const std::string& prefix) { return s.rfind(prefix, 0) == 0; }

const std::vector<std::pair<std::string, std::string>> kEntries = {
    {"archive/data.pkl", "pickle bytes"},
    {"archive/data/0", std::string(1000, 'x') + "tail"},
    {"archive/version", "3\n"},
};

TEST(Zip, StoredEntriesAreViewsIntoTheFile) {
  Bytes file = bytes_of(zip_file(kEntries));
  ZipArchive z(file);
  ASSERT_EQ(z.entries().size(), 3u);
  const ZipEntry* e = z.find("archive/data/0");
  ASSERT_NE(e, nullptr);
  Bytes b = z.read(*e, /*verify_stored_crc=*/true);
  EXPECT_EQ(b.view(), kEntries[1].second);
  EXPECT_GE(b.data(), file.data());  // zero copy: the bytes are the file's
  EXPECT_LE(b.data() + b.size(), file.data() + file.size());
  EXPECT_EQ(z.find("archive/nope"), nullptr);
}

TEST(Zip, DeflatedEntriesAreInflated) {
  Bytes file = bytes_of(zip_file(kEntries, ZipOptions{.deflate = true}));
  ZipArchive z(file);
  for (const auto& [name, data] : kEntries) {
    const ZipEntry* e = z.find(name);
    ASSERT_NE(e, nullptr) << name;
    EXPECT_EQ(e->method, 8);
    EXPECT_EQ(z.read(*e).view(), data) << name;
  }
}

TEST(Zip, Zip64RecordsAndExtraFields) {
  for (bool deflate : {false, true}) {
    ZipArchive z(bytes_of(zip_file(kEntries, ZipOptions{.deflate = deflate, .zip64 = true})));
    ASSERT_EQ(z.entries().size(), 3u);
    const ZipEntry* e = z.find("archive/data/0");
    EXPECT_EQ(e->uncompressed_size, 1004u);
    EXPECT_EQ(z.read(*e).view(), kEntries[1].second);
  }
}

TEST(Zip, TruncatedOrMissingDirectory) {
  EXPECT_EQ(error_of("PK\3\4abc"),
            "corrupt zip archive: the file is too short to hold a zip directory (is it truncated?)");
  std::string file = zip_file(kEntries);
  EXPECT_EQ(error_of(file.substr(0, file.size() - 10)),
            "corrupt zip archive: no end-of-central-directory record (is the file truncated?)");
}

TEST(Zip, CorruptCentralDirectory) {
  std::string file = zip_file(kEntries);
  size_t cd = file.find("PK\1\2");
  std::string bad = file;
  bad[cd + 1] = 'Q';
  EXPECT_EQ(error_of(bad),
            "corrupt zip archive: central directory entry 1 of 3 is missing or has a bad signature");
  // The end record's directory offset points past the end.
  bad = file;
  size_t end = file.rfind("PK\5\6");
  bad[end + 19] = 0x7f;
  EXPECT_TRUE(starts_with(error_of(bad), "corrupt zip archive: the central directory (offset 2"));
  // An entry count larger than the directory holds.
  bad = file;
  bad[end + 10] = 9;
  EXPECT_EQ(error_of(bad),
            "corrupt zip archive: central directory entry 4 of 9 is missing or has a bad signature");
  // A zip64 locator that points nowhere.
  std::string z64 = zip_file(kEntries, ZipOptions{.zip64 = true});
  size_t loc = z64.rfind("PK\6\7");
  z64[loc + 8] ^= 0x55;
  EXPECT_EQ(error_of(z64),
            "corrupt zip archive: the zip64 end-of-central-directory record is missing or misplaced");
}

TEST(Zip, CorruptEntries) {
  std::string file = zip_file(kEntries);
  // Local header signature of the second entry.
  std::string bad = file;
  size_t lh = file.find("PK\3\4", 4);
  bad[lh + 2] = 9;
  EXPECT_EQ(error_of(bad, "archive/data/0"),
            "corrupt zip archive: entry 'archive/data/0' has no local header at offset 58");
  // Stored CRC (checked only when asked), sizes that disagree, an entry past the end of the file.
  bad = file;
  bad[lh + 60] ^= 1;
  try {
    ZipArchive z(bytes_of(bad));
    z.read(*z.find("archive/data/0"));  // not verified by default: listing must not read the data
    z.read(*z.find("archive/data/0"), true);
    FAIL() << "no CRC error";
  } catch (const Diagnostic& d) {
    EXPECT_TRUE(starts_with(d.message(), "corrupt zip archive: entry 'archive/data/0' has CRC-32 "))
        << d.message();
  }
  size_t cd2 = file.find("PK\1\2", file.find("PK\1\2") + 4);
  bad = file;
  bad[cd2 + 24] = static_cast<char>(0xE9);  // uncompressed size of archive/data/0: 1004 -> 1001
  EXPECT_EQ(error_of(bad, "archive/data/0"),
            "corrupt zip archive: stored entry 'archive/data/0' has compressed size 1004 but uncompressed "
            "size 1001");
  bad = file;
  bad[cd2 + 23] = 0x10, bad[cd2 + 27] = 0x10;  // both sizes += 256 MB
  EXPECT_EQ(
      error_of(bad, "archive/data/0"),
      "corrupt zip archive: entry 'archive/data/0' (268436460 bytes at offset 102) runs past the end of the "
      "file (is it truncated?)");
  // Flags and methods onnxify does not read.
  bad = file;
  bad[cd2 + 8] = 1;
  EXPECT_EQ(error_of(bad, "archive/data/0"), "zip entry 'archive/data/0' is encrypted");
  bad = file;
  bad[cd2 + 10] = 14;
  EXPECT_EQ(
      error_of(bad, "archive/data/0"),
      "zip entry 'archive/data/0' uses compression method 14; onnxify reads stored and deflated entries");
  bad = file;
  size_t end = file.rfind("PK\5\6");
  bad[end + 4] = 1;
  EXPECT_EQ(error_of(bad), "zip archives split over several disks are not supported");
}

TEST(Zip, CorruptDeflatedEntries) {
  std::string file = zip_file(kEntries, ZipOptions{.deflate = true});
  size_t cd2 = file.find("PK\1\2", file.find("PK\1\2") + 4);
  // A claimed size deflate cannot produce from that little input: refused before allocating.
  std::string bad = file;
  bad[cd2 + 27] = 0x40;
  EXPECT_TRUE(
      starts_with(error_of(bad, "archive/data/0"),
                  "corrupt zip archive: entry 'archive/data/0' claims 1073742828 bytes inflated from only "));
  // More output than claimed, less output than claimed, a wrong CRC, damaged deflate data.
  bad = file;
  bad[cd2 + 24] = static_cast<char>(0xEC - 4);  // 1004 -> 1000
  EXPECT_EQ(
      error_of(bad, "archive/data/0"),
      "corrupt zip archive: entry 'archive/data/0' inflates to more than the 1000 bytes its header says");
  bad = file;
  bad[cd2 + 24] = static_cast<char>(0xEC + 4);
  EXPECT_EQ(error_of(bad, "archive/data/0"),
            "corrupt zip archive: entry 'archive/data/0' inflates to 1004 bytes but its header says 1008");
  bad = file;
  bad[cd2 + 16] ^= 1;
  EXPECT_TRUE(starts_with(error_of(bad, "archive/data/0"),
                          "corrupt zip archive: entry 'archive/data/0' has CRC-32 "));
  bad = file;
  size_t lh = file.find("PK\3\4", 4);
  bad[lh + 30 + 14] = static_cast<char>(0xff);  // the first byte of deflate data: an invalid block type
  EXPECT_TRUE(starts_with(error_of(bad, "archive/data/0"),
                          "corrupt zip archive: entry 'archive/data/0' fails to inflate: invalid "));
}

}  // namespace
}  // namespace onnxify::weights
