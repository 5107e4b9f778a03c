// Pooling pieces shared by pooling.cpp, unpool.cpp and adaptive.cpp.
#pragma once

#include <vector>

#include "onnx/lower/lower.h"

namespace onnxify::lowering {

struct PoolSpec {
  std::vector<int64_t> k, s, p, d;  // kernel, stride, padding (both sides), dilation
  bool ceil_mode = false;
  size_t spatial() const { return k.size(); }
  int64_t window() const;  // elements per window
};

// Reads kernel_size / stride / padding / dilation / ceil_mode of a pooling composite (absent
// stride = kernel_size, absent padding = 0, absent dilation = 1).
PoolSpec read_pool_spec(const ir::Node& n, bool has_dilation);

// Output sizes of a batched (N, C, *spatial) input; `ceil_matters` is false when every size is
// static and ceil_mode gives the same sizes as floor mode (then ceil_mode can be dropped).
std::vector<Int> pool_out_sizes(Builder& b, ir::Value* xb, const PoolSpec& ps, bool* ceil_matters);

// Every pooling window as one slice: the K = prod(kernel) strided slices of the padded input,
// stacked along a new axis 2: (N, C, K, *out). Windows are in PyTorch's scan order (row-major over
// the kernel). `pad_value` fills the padding.
ir::Value* window_stack(Builder& b, ir::Value* xb, const PoolSpec& ps, const std::vector<Int>& out,
                        double pad_value);

// PyTorch's per-plane max-pool indices from the ArgMax `arg` (N, C, *out) over window_stack.
ir::Value* window_indices(Builder& b, ir::Value* xb, ir::Value* arg, const PoolSpec& ps,
                          const std::vector<Int>& out);

// 1-D [0, n) as int64: a constant when n is static.
ir::Value* iota(Builder& b, const Int& n);

// Adaptive average pooling of a batched input to `out` (interpolate's "area" mode uses it too).
ir::Value* adaptive_avg_pool_to(Builder& b, Context& ctx, ir::Value* xb, const std::vector<Int>& out);

// Applies an (m, n) matrix along `axis` of x (size n there): the linear map of one axis, for
// separable resampling (adaptive averages, interpolation matrices).
ir::Value* matmul_axis(Builder& b, ir::Value* x, int64_t axis, ir::Value* w, const Int& m);

// The type of a batched pooling result (N, C, *out).
ir::Type pooled_type(ir::Value* xb, const std::vector<Int>& out, ir::ElementType e);

}  // namespace onnxify::lowering
