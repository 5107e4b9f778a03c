// Tensors (contiguity, bounds, row-major traversal) and the checksum, against slow reference
// implementations written from the definitions.
#include <gtest/gtest.h>

#include <cstring>
#include <random>

#include "weights/weights.h"

namespace onnxify::weights {
namespace {

Tensor make(DType dt, std::vector<int64_t> shape, std::vector<int64_t> strides, int64_t offset,
            size_t storage_bytes) {
  std::vector<uint8_t> data(storage_bytes);
  for (size_t i = 0; i < data.size(); ++i) data[i] = static_cast<uint8_t>(i * 131 + 7);
  Tensor t;
  t.dtype = dt;
  t.shape = std::move(shape);
  t.strides = std::move(strides);
  t.storage_offset = offset;
  t.storage = Bytes::from_vector(std::move(data));
  return t;
}

// The row-major bytes by the definition: element i's multi-index -> storage offset.
std::vector<uint8_t> naive_bytes(const Tensor& t) {
  std::vector<uint8_t> out;
  int64_t n = t.numel();
  size_t es = t.element_size();
  for (int64_t i = 0; i < n; ++i) {
    int64_t rem = i, off = t.storage_offset;
    for (size_t d = t.shape.size(); d-- > 0;) {
      off += (rem % t.shape[d]) * t.strides[d];
      rem /= t.shape[d];
    }
    const uint8_t* p = t.storage.data() + off * es;
    out.insert(out.end(), p, p + es);
  }
  return out;
}

// README's checksum, literally.
uint64_t naive_checksum(const std::vector<uint8_t>& b) {
  uint64_t h = 0;
  for (size_t i = 0; i < b.size(); i += 8) {
    uint64_t w = 0;
    for (size_t k = 0; k < 8 && i + k < b.size(); ++k) w |= static_cast<uint64_t>(b[i + k]) << (8 * k);
    h = h * kChecksumMultiplier + w;
  }
  return h * kChecksumMultiplier + b.size();
}

TEST(Tensor, Contiguity) {
  EXPECT_TRUE(make(DType::Float32, {2, 3}, {3, 1}, 0, 24).is_contiguous());
  EXPECT_FALSE(make(DType::Float32, {2, 3}, {1, 2}, 0, 24).is_contiguous());
  EXPECT_TRUE(
      make(DType::Float32, {2, 1, 3}, {3, 99, 1}, 0, 24).is_contiguous());    // size-1 dims do not count
  EXPECT_TRUE(make(DType::Float32, {0, 3}, {7, 7}, 0, 0).is_contiguous());    // empty
  EXPECT_TRUE(make(DType::Float32, {}, {}, 5, 24).is_contiguous());           // 0-d
  EXPECT_FALSE(make(DType::Float32, {4, 3}, {0, 1}, 0, 12).is_contiguous());  // expanded
}

TEST(Tensor, Bounds) {
  EXPECT_EQ(check_bounds(make(DType::Float32, {2, 3}, {3, 1}, 0, 24)), "");
  EXPECT_EQ(check_bounds(make(DType::Float32, {2, 3}, {3, 1}, 1, 24)),
            "needs 28 bytes of storage but its storage has 24");
  EXPECT_EQ(check_bounds(make(DType::Float32, {0, 3}, {3, 1}, 1000, 0)),
            "");  // empty tensors may point anywhere
  EXPECT_EQ(check_bounds(make(DType::Int8, {2}, {-1}, 1, 2)), "has a negative stride -1");
  EXPECT_EQ(check_bounds(make(DType::Int8, {-2}, {1}, 0, 2)), "has a negative size -2");
  EXPECT_EQ(check_bounds(make(DType::Int8, {2}, {1}, -1, 2)), "has a negative storage offset -1");
  EXPECT_EQ(check_bounds(make(DType::Int8, {1LL << 40, 1LL << 40}, {1, 1}, 0, 2)),
            "has more elements than fit in 64 bits");
  EXPECT_EQ(check_bounds(make(DType::Float64, {1LL << 61}, {1}, 0, 2)), "has more bytes than fit in 64 bits");
  EXPECT_EQ(check_bounds(make(DType::Int8, {3}, {1LL << 62}, 0, 2)), "addresses elements beyond 64 bits");
  Tensor t = make(DType::Int8, {2}, {1}, 0, 2);
  t.strides.push_back(1);
  EXPECT_EQ(check_bounds(t), "has 1 sizes but 2 strides");
}

TEST(Tensor, RowMajorTraversalMatchesTheDefinition) {
  std::mt19937 rng(42);
  for (int iter = 0; iter < 300; ++iter) {
    DType dt = std::vector<DType>{DType::Int8, DType::BFloat16, DType::Float32, DType::Complex128}[rng() % 4];
    size_t nd = rng() % 5;
    std::vector<int64_t> shape(nd), strides(nd);
    int64_t extent = 1;
    for (size_t d = 0; d < nd; ++d) {
      shape[d] = rng() % 5 + (rng() % 8 == 0 ? 60 : 0);
      strides[d] = rng() % 4 == 0 ? 0 : rng() % 70;
      extent += (shape[d] ? shape[d] - 1 : 0) * strides[d];
    }
    if (rng() % 3 == 0) {  // often contiguous or contiguous in the inner dims
      int64_t s = 1;
      size_t first = nd ? rng() % nd : 0;
      for (size_t d = nd; d-- > first;) strides[d] = s, s *= std::max<int64_t>(shape[d], 1);
      extent = 1;
      for (size_t d = 0; d < nd; ++d) extent += (shape[d] ? shape[d] - 1 : 0) * strides[d];
    }
    int64_t offset = rng() % 3;
    Tensor t = make(dt, shape, strides, offset, (extent + offset) * element_size(dt));
    ASSERT_EQ(check_bounds(t), "");
    std::vector<uint8_t> want = naive_bytes(t);
    Bytes got = t.contiguous_bytes();
    ASSERT_EQ(std::vector<uint8_t>(got.data(), got.data() + got.size()), want) << "iteration " << iter;
    std::vector<uint8_t> pieces;
    t.for_each_span([&](const uint8_t* p, size_t n) { pieces.insert(pieces.end(), p, p + n); }, 48);
    ASSERT_EQ(pieces, want) << "iteration " << iter;
    ASSERT_EQ(checksum(t), naive_checksum(want)) << "iteration " << iter;
  }
}

TEST(Tensor, ContiguousBytesAreAView) {
  Tensor t = make(DType::Float32, {2, 3}, {3, 1}, 2, 40);
  Bytes b = t.contiguous_bytes();
  EXPECT_EQ(b.data(), t.storage.data() + 8);
  EXPECT_EQ(b.size(), 24u);
}

TEST(Checksum, DefinitionOnSmallInputs) {
  // Hand-checked values: an empty tensor hashes to 0; one byte b gives b*K + 1.
  EXPECT_EQ(checksum(make(DType::UInt8, {0}, {1}, 0, 0)), 0u);
  Tensor one = make(DType::UInt8, {1}, {1}, 0, 1);
  EXPECT_EQ(checksum(one), one.storage.data()[0] * kChecksumMultiplier + 1);
  for (size_t n = 0; n < 80; ++n) {
    Tensor t = make(DType::Int8, {static_cast<int64_t>(n)}, {1}, 0, n);
    EXPECT_EQ(checksum(t), naive_checksum(naive_bytes(t))) << n;
  }
}

TEST(Checksum, ParallelSegmentsEqualTheSerialHash) {
  // 40 MB plus an odd tail: split into 8 MB segments across threads, recombined.
  std::vector<NamedTensor> ts;
  ts.push_back({"big", make(DType::Int8, {(40 << 20) + 13}, {1}, 0, (40 << 20) + 13)});
  ts.push_back({"small", make(DType::Float32, {3, 5}, {1, 3}, 0, 60)});
  ts.push_back({"big2", make(DType::Float32, {(5 << 20) + 1}, {1}, 1, ((5 << 20) + 2) * 4)});
  for (unsigned threads : {1u, 2u, 5u}) {
    std::vector<uint64_t> got = checksums(ts, threads);
    ASSERT_EQ(got.size(), 3u);
    for (size_t i = 0; i < ts.size(); ++i)
      EXPECT_EQ(got[i], checksum(ts[i].tensor)) << ts[i].name << " " << threads;
  }
  EXPECT_EQ(checksum(ts[0].tensor), naive_checksum(naive_bytes(ts[0].tensor)));
}

TEST(DType, TableLookups) {
  size_t n;
  const DTypeInfo* all = all_dtypes(&n);
  for (size_t i = 0; i < n; ++i) {
    EXPECT_EQ(static_cast<size_t>(all[i].dtype), i);
    EXPECT_EQ(dtype_from_name(all[i].name), all[i].dtype);
    if (!all[i].safetensors.empty()) {
      EXPECT_EQ(dtype_from_safetensors(all[i].safetensors), all[i].dtype);
    }
    if (!all[i].storage_class.empty()) {
      EXPECT_EQ(dtype_from_storage_class(all[i].storage_class), all[i].dtype);
    }
  }
  EXPECT_EQ(dtype_from_name("half"), DType::Float16);
  EXPECT_EQ(dtype_from_safetensors("F4"), std::nullopt);
  EXPECT_EQ(element_size(DType::Complex128), 16u);
}

}  // namespace
}  // namespace onnxify::weights
