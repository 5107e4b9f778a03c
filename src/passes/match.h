// What the fusion passes ask of a value while they match a pattern (shared by cancel_transpose_reshape,
// sink_transpose, fuse_pad, fuse_rotary, and --layout's Transposes): small, header-only queries on the IR.
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

// A Transpose's permutation: its `perm` attribute, or the reversal ONNX gives when there is none
// (which needs the input's rank); nullopt when neither is known.
inline std::optional<std::vector<int64_t>> transpose_perm(const ir::Node& t) {
  std::vector<int64_t> p = t.attr_ints("perm");
  if (!p.empty()) return p;
  const ir::Type& x = t.input(0)->type();
  if (!x.is_tensor() || !x.has_rank()) return std::nullopt;
  for (size_t i = x.rank(); i-- > 0;) p.push_back(static_cast<int64_t>(i));
  return p;
}

// Transpose(Transpose(x, p), q) is Transpose(x, compose(p, q)).
inline std::vector<int64_t> compose(const std::vector<int64_t>& p, const std::vector<int64_t>& q) {
  std::vector<int64_t> r;
  for (int64_t i : q) r.push_back(p[static_cast<size_t>(i)]);
  return r;
}

// The permutation that undoes p.
inline std::vector<int64_t> inverse_perm(const std::vector<int64_t>& p) {
  std::vector<int64_t> inv(p.size());
  for (size_t i = 0; i < p.size(); ++i) inv[static_cast<size_t>(p[i])] = static_cast<int64_t>(i);
  return inv;
}

// The type Transpose(perm p) gives a tensor of type t: dim i of the result is dim p[i] of t.
inline ir::Type transposed_type(const ir::Type& t, const std::vector<int64_t>& p) {
  std::vector<ir::DimExpr> dims;
  for (int64_t i : p) dims.push_back(t.dims()[static_cast<size_t>(i)]);
  return ir::Type::tensor(t.elem(), std::move(dims));
}

}  // namespace onnxify::passes
