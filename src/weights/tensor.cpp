#include "weights/tensor.h"

#include <fmt/core.h>

#include <algorithm>
#include <cstring>
#include <string>

namespace onnxify::weights {

int64_t Tensor::numel() const {
  int64_t n = 1;
  for (int64_t d : shape) n *= d;  // check_bounds() proved the product fits
  return n;
}

bool Tensor::is_contiguous() const {
  for (int64_t d : shape)
    if (d == 0) return true;
  int64_t expected = 1;
  for (size_t i = shape.size(); i-- > 0;) {
    if (shape[i] == 1) continue;
    if (strides[i] != expected) return false;
    expected *= shape[i];
  }
  return true;
}

std::string check_bounds(const Tensor& t) {
  if (t.shape.size() != t.strides.size())
    return fmt::format("has {} sizes but {} strides", t.shape.size(), t.strides.size());
  if (t.storage_offset < 0) return fmt::format("has a negative storage offset {}", t.storage_offset);
  int64_t numel = 1;
  for (size_t i = 0; i < t.shape.size(); ++i) {
    if (t.shape[i] < 0) return fmt::format("has a negative size {}", t.shape[i]);
    if (t.strides[i] < 0) return fmt::format("has a negative stride {}", t.strides[i]);
    if (__builtin_mul_overflow(numel, t.shape[i], &numel)) return "has more elements than fit in 64 bits";
  }
  int64_t nbytes;
  if (__builtin_mul_overflow(numel, static_cast<int64_t>(t.element_size()), &nbytes))
    return "has more bytes than fit in 64 bits";
  if (numel == 0) return "";  // torch lets an empty tensor point anywhere
  // The last element's index: offset + sum((size - 1) * stride).
  int64_t last = t.storage_offset;
  for (size_t i = 0; i < t.shape.size(); ++i) {
    int64_t step;
    if (__builtin_mul_overflow(t.shape[i] - 1, t.strides[i], &step) ||
        __builtin_add_overflow(last, step, &last))
      return "addresses elements beyond 64 bits";
  }
  int64_t end_bytes;
  if (__builtin_add_overflow(last, int64_t{1}, &end_bytes) ||
      __builtin_mul_overflow(end_bytes, static_cast<int64_t>(t.element_size()), &end_bytes))
    return "addresses elements beyond 64 bits";
  if (static_cast<uint64_t>(end_bytes) > t.storage.size())
    return fmt::format("needs {} bytes of storage but its storage has {}", end_bytes, t.storage.size());
  return "";
}

namespace {

// Copies `count` elements of `es` bytes, `stride_bytes` apart, into `dst` (the gather's hot loop;
// fixed sizes let the compiler use plain loads and stores).
template <size_t N>
void gather_fixed(uint8_t* dst, const uint8_t* src, int64_t count, int64_t stride_bytes) {
  for (int64_t j = 0; j < count; ++j) std::memcpy(dst + j * N, src + j * stride_bytes, N);
}

void gather(uint8_t* dst, const uint8_t* src, int64_t count, int64_t stride_bytes, size_t run_bytes) {
  switch (run_bytes) {
    case 1:
      return gather_fixed<1>(dst, src, count, stride_bytes);
    case 2:
      return gather_fixed<2>(dst, src, count, stride_bytes);
    case 4:
      return gather_fixed<4>(dst, src, count, stride_bytes);
    case 8:
      return gather_fixed<8>(dst, src, count, stride_bytes);
    case 16:
      return gather_fixed<16>(dst, src, count, stride_bytes);
    default:
      for (int64_t j = 0; j < count; ++j) std::memcpy(dst + j * run_bytes, src + j * stride_bytes, run_bytes);
  }
}

}  // namespace

void Tensor::for_each_span(const std::function<void(const uint8_t*, size_t)>& fn, size_t buffer_bytes) const {
  int64_t n = numel();
  if (n == 0) return;
  const size_t es = element_size();
  const uint8_t* base = storage.data() + static_cast<size_t>(storage_offset) * es;
  if (is_contiguous()) {
    fn(base, static_cast<size_t>(n) * es);
    return;
  }
  // The innermost dims that are laid out contiguously form one run of bytes; the outer dims are
  // walked with an odometer. k = number of outer dims.
  size_t k = shape.size();
  int64_t run_elems = 1;
  while (k > 0 && (shape[k - 1] == 1 || strides[k - 1] == run_elems)) {
    run_elems *= shape[k - 1];
    --k;
  }
  const size_t run_bytes = static_cast<size_t>(run_elems) * es;
  // The innermost outer dim is walked in a tight loop; the rest by the odometer.
  const int64_t inner_count = shape[k - 1];
  const int64_t inner_stride = strides[k - 1] * static_cast<int64_t>(es);
  std::vector<int64_t> idx(k - 1, 0);
  const bool direct = run_bytes >= 256;  // long runs are passed straight from the storage
  std::vector<uint8_t> buf;
  size_t used = 0;
  if (!direct) buf.resize(std::max(buffer_bytes, run_bytes));
  int64_t offset_bytes = 0;
  for (;;) {
    const uint8_t* row = base + offset_bytes;
    if (direct) {
      for (int64_t j = 0; j < inner_count; ++j) fn(row + j * inner_stride, run_bytes);
    } else {
      int64_t done = 0;
      while (done < inner_count) {
        int64_t fit = static_cast<int64_t>((buf.size() - used) / run_bytes);
        if (fit == 0) {
          fn(buf.data(), used);
          used = 0;
          continue;
        }
        int64_t take = std::min(fit, inner_count - done);
        gather(buf.data() + used, row + done * inner_stride, take, inner_stride, run_bytes);
        used += static_cast<size_t>(take) * run_bytes;
        done += take;
      }
    }
    // Advance the odometer over dims 0 .. k-2.
    size_t d = idx.size();
    for (; d > 0; --d) {
      size_t i = d - 1;
      offset_bytes += strides[i] * static_cast<int64_t>(es);
      if (++idx[i] < shape[i]) break;
      offset_bytes -= shape[i] * strides[i] * static_cast<int64_t>(es);
      idx[i] = 0;
    }
    if (d == 0) break;
  }
  if (used) fn(buf.data(), used);
}

Bytes Tensor::contiguous_bytes() const {
  const size_t es = element_size();
  if (numel() == 0) return Bytes();
  if (is_contiguous()) return storage.slice(static_cast<size_t>(storage_offset) * es, nbytes());
  std::vector<uint8_t> out;
  out.reserve(nbytes());
  for_each_span([&](const uint8_t* p, size_t len) { out.insert(out.end(), p, p + len); });
  return Bytes::from_vector(std::move(out));
}

}  // namespace onnxify::weights
