// generic: plain standard ONNX at the requested opset. Every standard op is accepted; a composite op
// becomes its coarse ONNX op whenever the opset defines one (LayerNormalization from 17, Gelu from
// 20, ...), except SiLU: ONNX's Swish (opset 24) is a function ONNX Runtime 1.30 fails to expand at
// opsets 25 and 26, and Sigmoid + Mul costs one node more, so `--keep silu` asks for it explicitly.
#include "onnx/targets/target.h"

namespace onnxify::targets {

namespace {

int min_opset(const TargetContext&) { return 13; }
int max_opset(const TargetContext&) { return 26; }
Capabilities capabilities(const TargetContext&) { return Capabilities{}; }
bool prefers(std::string_view composite, std::string_view, const TargetContext&) {
  return composite != "silu";
}
std::string check(const ir::Node&, const TargetContext&) { return ""; }

}  // namespace

const TargetProfile kGeneric{"generic",     "plain standard ONNX at the requested opset",
                             &min_opset,    &max_opset,
                             &capabilities, &prefers,
                             &check,        standard_pipeline()};

}  // namespace onnxify::targets
