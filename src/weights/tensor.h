// A tensor read from a checkpoint: dtype, shape, strides and an offset into a storage, exactly as
// torch.Tensor.set_(storage, offset, size, stride) describes it. The storage is a zero-copy Bytes
// view into the mapped file (or an owned buffer for a deflated zip record), so a tensor costs
// nothing until its bytes are read, and tied weights share one storage.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <vector>

#include "support/bytes.h"
#include "weights/dtype.h"

namespace onnxify::weights {

struct Tensor {
  DType dtype = DType::Float32;
  std::vector<int64_t> shape;
  std::vector<int64_t> strides;  // in elements, as torch counts them
  int64_t storage_offset = 0;    // in elements
  Bytes storage;                 // the whole storage this tensor views

  int64_t numel() const;
  size_t element_size() const { return weights::element_size(dtype); }
  size_t nbytes() const { return static_cast<size_t>(numel()) * element_size(); }
  // torch's rule: strides of size-1 dims do not matter; an empty tensor is contiguous.
  bool is_contiguous() const;

  // The logical elements in row-major order as little-endian bytes: a zero-copy view when the
  // tensor is contiguous, else a gathered copy.
  Bytes contiguous_bytes() const;

  // Calls fn on the row-major bytes in order, in pieces: zero-copy runs of the storage when the
  // innermost dims are contiguous, else gathered through a buffer of at most `buffer_bytes`.
  // Memory stays bounded whatever the tensor's size.
  void for_each_span(const std::function<void(const uint8_t*, size_t)>& fn,
                     size_t buffer_bytes = size_t{1} << 20) const;
};

// Checks that every element the tensor addresses lies inside its storage (overflow-safe).
// Returns "" when it fits, else a one-line reason.
std::string check_bounds(const Tensor& t);

}  // namespace onnxify::weights
