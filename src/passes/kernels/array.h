// Array: a constant's values unpacked for arithmetic (internal to the folding kernels).
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "ir/tensor.h"

namespace onnxify::passes::kernels {

struct Array {
  ir::ElementType dtype = ir::ElementType::Float32;
  std::vector<int64_t> shape;
  std::vector<double> f;   // float element types
  std::vector<int64_t> i;  // integer and bool element types
  bool is_float() const { return ir::is_float(dtype); }
  int64_t numel() const;
};

// nullopt for element types the kernels do not compute on (string, complex, float8, 4-bit, uint64).
std::optional<Array> load(const ir::Tensor& t);
// Stores values in the element type (integers wrap to the width, floats round to the format).
ir::Tensor store(const Array& a);
Array make(ir::ElementType dtype, std::vector<int64_t> shape);

bool numeric_ok(ir::ElementType t);
int64_t product(const std::vector<int64_t>& shape);
// numpy broadcasting of several shapes; nullopt when incompatible.
std::optional<std::vector<int64_t>> broadcast(const std::vector<std::vector<int64_t>>& shapes);
// Flat index into `in_shape` (right-aligned, broadcast) for each flat index of `out_shape`.
std::vector<int64_t> broadcast_index(const std::vector<int64_t>& in_shape,
                                     const std::vector<int64_t>& out_shape);
// The integer values of a small int32/int64 tensor (for shapes, axes, indices).
std::optional<std::vector<int64_t>> int_values(const ir::Tensor* t);
// Normalizes a possibly negative axis; nullopt when out of range.
std::optional<int64_t> norm_axis(int64_t axis, int64_t rank);
// The tensor's bytes viewed with another shape (zero copy).
ir::Tensor reshaped(const ir::Tensor& t, std::vector<int64_t> shape);

}  // namespace onnxify::passes::kernels
