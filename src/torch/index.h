// Tensor indexing, PyTorch's rules: x[idx] and x[idx] = y.
//
// An index is an int, a slice (any step > 0), None, Ellipsis, a bool, a list of ints or bools, a
// tensor (integer: gathers along the dim; bool: a mask), or a tuple of those. Basic indexing (ints,
// slices, None, Ellipsis) gives a view (Slice/Gather/Unsqueeze nodes); advanced indexing (tensors and
// lists) gives a copy, with numpy's placement rule for the advanced dims (adjacent advanced indices
// keep their place, separated ones move to the front).
//
// Assignment is functionalized: `x[idx] = y` records ScatterND into a new value of x (indices built
// from the same index, symbolic sizes included), and x's Python object is rebound to it.
#pragma once

#include <optional>
#include <vector>

#include "torch/core.h"

namespace onnxify::torch {

// base[key]. With as_view, the result remembers it is a view of base (writes go back to base).
eval::Value index_get(Torch& T, TensorObj* base, const eval::Value& key, bool as_view = true);
// The value of base after `base[key] = v` (v already has the indexed region's shape or broadcasts
// to it; `v_dtype` is converted to base's dtype).
ir::Value* index_put_value(Torch& T, TensorObj* base, const eval::Value& key, ir::Value* v, DType v_dtype,
                           const std::vector<ir::DimExpr>& v_shape);
// Whether base[key] (basic indexing) is one contiguous block of a contiguous base: leading ints, then
// at most one step-1 slice, then only full slices (conservative: false when unsure).
bool index_keeps_contiguous(Torch& T, TensorObj* base, const eval::Value& key);
// The strides (in elements) of the basic-indexing view base[key] given base's static strides, or
// nullopt when the key has tensors or a size is not static.
std::optional<std::vector<int64_t>> index_view_strides(Torch& T, TensorObj* base, const eval::Value& key,
                                                       const std::vector<int64_t>& base_strides);
// base[key] = value (value: a tensor or a Python number), functionalized.
void index_set(Torch& T, TensorObj* base, const eval::Value& key, const eval::Value& value);

}  // namespace onnxify::torch
