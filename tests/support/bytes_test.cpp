#include "support/bytes.h"

#include <gtest/gtest.h>

#include <atomic>
#include <cstdio>
#include <fstream>
#include <mutex>
#include <thread>
#include <utility>
#include <vector>

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

// Bytes 0..size-1 of i * 3 (mod 256), produced in units of 4, recording each range asked for.
struct Recorder {
  std::mutex m;
  std::vector<std::pair<size_t, size_t>> calls;
  Bytes make(size_t size) {
    return Bytes::produced(size, 4, [this](size_t offset, size_t n, uint8_t* out) {
      {
        std::lock_guard<std::mutex> lock(m);
        calls.emplace_back(offset, n);
      }
      for (size_t i = 0; i < n; ++i) out[i] = static_cast<uint8_t>((offset + i) * 3);
    });
  }
};

uint8_t expected_byte(size_t i) { return static_cast<uint8_t>(i * 3); }

TEST(Bytes, ProducedBytesAreComputedByRangeUntilDataIsAskedFor) {
  Recorder r;
  Bytes b = r.make(1001);  // not a whole number of units: the last range is short
  EXPECT_TRUE(b.is_produced());
  EXPECT_EQ(b.size(), 1001u);
  // An aligned range is produced straight into the caller's buffer.
  std::vector<uint8_t> out(16);
  b.read(8, 16, out.data());
  for (size_t i = 0; i < 16; ++i) EXPECT_EQ(out[i], expected_byte(8 + i));
  ASSERT_EQ(r.calls.size(), 1u);
  EXPECT_EQ(r.calls[0], std::make_pair(size_t{8}, size_t{16}));
  // An unaligned one through the units that cover it, the tail included.
  out.assign(6, 0);
  b.read(995, 6, out.data());
  for (size_t i = 0; i < 6; ++i) EXPECT_EQ(out[i], expected_byte(995 + i));
  EXPECT_EQ(r.calls.back(), std::make_pair(size_t{992}, size_t{9}));
  std::vector<uint8_t> scratch;
  const uint8_t* p = b.range(3, 2, scratch);
  EXPECT_EQ(p[0], expected_byte(3));
  EXPECT_EQ(p[1], expected_byte(4));
  EXPECT_THROW(b.read(1000, 2, out.data()), std::out_of_range);
  EXPECT_TRUE(b.is_produced()) << "reading ranges never computes the whole";

  // data() computes the whole once; every copy shares it and keeps its identity.
  Bytes copy = b;
  const void* id = b.identity();
  size_t before = r.calls.size();
  const uint8_t* d = copy.data();
  EXPECT_EQ(r.calls.size(), before + 1);
  EXPECT_EQ(r.calls.back(), std::make_pair(size_t{0}, size_t{1001}));
  for (size_t i = 0; i < 1001; ++i) ASSERT_EQ(d[i], expected_byte(i)) << i;
  EXPECT_FALSE(b.is_produced());
  EXPECT_EQ(b.data(), d);
  EXPECT_EQ(b.identity(), id);
  EXPECT_EQ(b.slice(10, 2).view(), std::string({static_cast<char>(30), static_cast<char>(33)}));
  b.read(5, 1, out.data());
  EXPECT_EQ(out[0], expected_byte(5));
  EXPECT_EQ(r.calls.size(), before + 1) << "after data(), reads copy from the computed buffer";
}

TEST(Bytes, ProducedBytesAreComputedOnceWhenThreadsRace) {
  Recorder r;
  Bytes b = r.make(4096);
  std::atomic<int> wrong{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t)
    threads.emplace_back([&] {
      const uint8_t* d = b.data();
      for (size_t i = 0; i < 4096; ++i)
        if (d[i] != expected_byte(i)) ++wrong;
    });
  for (auto& t : threads) t.join();
  EXPECT_EQ(wrong.load(), 0);
  EXPECT_EQ(r.calls.size(), 1u);
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
