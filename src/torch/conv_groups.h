// Convolutions whose `groups` is only known when the model runs (conv_groups.cpp).
//
// ONNX Conv/ConvTranspose take `group` as a static attribute; StyleGAN2-style modulated convolution
// folds the batch into the channels and passes groups=N. These record the grouped convolution as a
// batched MatMul over unfolded patches instead (see conv_groups.cpp for why).
#pragma once

#include <vector>

#include "torch/ops.h"

namespace onnxify::torch {

// x: a batched input [B, C, S...] (value `xv`, dtype of w); w: [O, C/G, k...]; pads: begins then
// ends, one per spatial dim. Returns [B, O, S'...] (bias added when given) and sets *shape.
ir::Value* conv_runtime_groups(OpCall& c, ir::Value* xv, const std::vector<ir::DimExpr>& xs, TensorObj* w,
                               TensorObj* bias, ir::DimExpr groups, const std::vector<int64_t>& stride,
                               const std::vector<int64_t>& pads, const std::vector<int64_t>& dilation,
                               std::vector<ir::DimExpr>* shape);

// The transposed form: x [B, C, S...], w [C, O/G, k...] (PyTorch's layout); padding per spatial dim.
ir::Value* conv_transpose_runtime_groups(OpCall& c, ir::Value* xv, const std::vector<ir::DimExpr>& xs,
                                         TensorObj* w, TensorObj* bias, ir::DimExpr groups,
                                         const std::vector<int64_t>& stride, const std::vector<int64_t>& padding,
                                         const std::vector<int64_t>& outpad, const std::vector<int64_t>& dilation,
                                         std::vector<ir::DimExpr>* shape);

}  // namespace onnxify::torch
