// Small CPU kernels for constant folding (DESIGN.md decision 1: the only numeric work is folding
// small values). Not a tensor library: row-major loops over values held as double (float types) or
// int64 (integer and bool types), written back in the element type with ONNX's semantics (integer
// Div truncates, Mod follows `fmod`, Cast truncates toward zero, integer arithmetic wraps).
//
// A kernel returns the node's outputs, or nullopt when it cannot fold this instance (an element
// type it does not handle, division by zero, an out-of-range index, a cast whose result ONNX leaves
// undefined, ...): fold then leaves the node alone. Inputs are null for omitted optional inputs.
#pragma once

#include <optional>
#include <string_view>
#include <vector>

#include "ir/graph.h"

namespace onnxify::passes::kernels {

struct Limits {
  int opset = 17;
  size_t max_bytes = 64 << 10;  // kernels give up early when an output would be larger
};

using Kernel = std::optional<std::vector<ir::Tensor>> (*)(const ir::Node& node,
                                                          const std::vector<const ir::Tensor*>& inputs,
                                                          const Limits& limits);

#define ONNXIFY_KERNEL(op, fn)               \
  std::optional<std::vector<ir::Tensor>> fn( \
      const ir::Node& node, const std::vector<const ir::Tensor*>& inputs, const Limits& limits);
#include "passes/kernels/kernels.def"
#undef ONNXIFY_KERNEL

// The kernel for an ONNX-domain op, or null.
Kernel find_kernel(const ir::Node& node);

// ONNX Unique's four outputs for a tensor (axis: none flattens it), shared by its kernel and by
// torch.unique of a conversion-time constant, whose count of values must be a static size.
std::optional<std::vector<ir::Tensor>> unique_values(const ir::Tensor& x, std::optional<int64_t> axis, bool sorted);

}  // namespace onnxify::passes::kernels
