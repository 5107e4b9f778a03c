// Target profiles: what ONNX each backend accepts. One profile per file (onnxruntime.cpp,
// tensorrt.cpp, generic.cpp), each a TargetProfile object naming
//   * the opsets it accepts,
//   * which coarse ops it prefers for each composite op (granularity),
//   * its capabilities the lowering rules branch on (MaxPool's Indices output, MaxUnpool, 1-d
//     pooling, cubic/antialiased Resize, ...),
//   * its pass pipeline (fusions) and
//   * a node check: "" when the backend accepts an ONNX node, else why not. check_target() runs it
//     over the lowered graph, so a node the backend would reject is an error with its source line.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "ir/graph.h"

namespace onnxify::targets {

struct TargetContext {
  int opset = 17;
  int trt_major = 10;  // TensorRT version (tensorrt only)
  int trt_minor = 15;
};

struct Capabilities {
  bool maxpool_indices = true;   // MaxPool's second output (whole-tensor indices)
  bool maxunpool = true;         // MaxUnpool
  bool pool_1d = true;           // 1-d MaxPool / AveragePool
  bool pool_dilation = true;     // MaxPool with dilations > 1
  bool pool_ceil_mode = true;    // ceil_mode with PyTorch's rule (no window starts in the right pad)
  bool resize_cubic = true;      // Resize mode "cubic"
  bool resize_antialias = true;  // Resize antialias = 1 (opset >= 18)
  bool int64 = true;             // int64 tensors (false: older TensorRT, which wants int32)
};

struct TargetProfile {
  std::string_view name;
  std::string_view summary;
  int (*min_opset)(const TargetContext&);
  int (*max_opset)(const TargetContext&);
  Capabilities (*capabilities)(const TargetContext&);
  // Whether the target prefers the coarse ONNX op `onnx_op` for composite op `composite` (asked only
  // when the opset has the op).
  bool (*prefers_coarse)(std::string_view composite, std::string_view onnx_op, const TargetContext&);
  // "" when the target accepts `node` (an ONNX-domain node), else the reason it does not.
  std::string (*check_node)(const ir::Node& node, const TargetContext&);
  // Passes run after the composite ops are expanded (src/passes/ registry names).
  std::vector<std::string> pipeline;
};

const std::vector<const TargetProfile*>& all_targets();
const TargetProfile* find_target(std::string_view name);

// The profiles (one file each).
extern const TargetProfile kOnnxRuntime;
extern const TargetProfile kTensorRT;
extern const TargetProfile kGeneric;

// The pass pipeline every target starts from (fold, cse, the fusions, dce).
std::vector<std::string> standard_pipeline();

}  // namespace onnxify::targets
