#include "support/bytes.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>

#include "support/diagnostic.h"

namespace onnxify {
namespace {

TEST(Bytes, SliceSharesOwnerAndChecksBounds) {
  Bytes b = Bytes::copy_of("hello world", 11);
  Bytes w = b.slice(6, 5);
  EXPECT_EQ(w.view(), "world");
  EXPECT_FALSE(w.is_mapped());
  EXPECT_THROW(b.slice(6, 6), std::out_of_range);
  EXPECT_THROW(b.slice(12, 0), std::out_of_range);
}

TEST(Bytes, MappedViewsOutliveTheirFileHandle) {
  std::string path = testing::TempDir() + "bytes_test.bin";
  { std::ofstream(path, std::ios::binary) << "0123456789"; }
  Bytes tail;
  {
    auto f = MappedFile::open(path);
    EXPECT_EQ(f->size(), 10u);
    tail = f->bytes().slice(4, 3);
  }
  EXPECT_EQ(tail.view(), "456");
  EXPECT_TRUE(tail.is_mapped());
  EXPECT_EQ(tail.mapped_path(), path);
  EXPECT_EQ(tail.mapped_offset(), 4u);
  std::remove(path.c_str());
}

TEST(Bytes, MissingFileIsADiagnostic) {
  try {
    MappedFile::open("/nonexistent/x.pt");
    FAIL();
  } catch (const Diagnostic& d) {
    EXPECT_EQ(d.header(), "/nonexistent/x.pt: error: cannot open: No such file or directory");
  }
}

}  // namespace
}  // namespace onnxify
