// What the fusion passes ask of a value while they match a pattern (shared by cancel_transpose_reshape,
// fuse_pad, fuse_rotary): small, header-only queries on the IR.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "ir/graph.h"

namespace onnxify::passes {

// The values of an int64 initializer (a Reshape's shape, a Pad's pads, a Slice's starts), or nullopt
// when v is not one.
inline std::optional<std::vector<int64_t>> const_ints(const ir::Value* v) {
  if (!v || !v->initializer()) return std::nullopt;
  const ir::Tensor& t = *v->initializer();
  if (t.dtype() != ir::ElementType::Int64) return std::nullopt;
  std::vector<int64_t> out;
  for (int64_t i = 0; i < t.numel(); ++i) out.push_back(t.int_at(i));
  return out;
}

}  // namespace onnxify::passes
