// onnxruntime: ONNX Runtime 1.30 (CPU). It runs every standard op at opsets 13..26 (function ops it
// has no kernel for are expanded at load time), so coarse ops are preferred wherever the opset has
// them: one kernel where ORT has one, and no loss where it expands the function. Known exception,
// checked below: Swish (opset 24) fails to load at opsets 25 and 26 ("Could not find an
// implementation for Swish(24)"), so SiLU stays Sigmoid + Mul unless kept explicitly at opset 24; and
// it has no kernel for the random ops' version 22 (RandomNormal/Uniform and their Like forms), so a
// model that draws random values in forward needs opset 21 or lower.
#include <fmt/core.h>

#include "onnx/targets/target.h"

namespace onnxify::targets {

namespace {

int min_opset(const TargetContext&) { return 13; }
int max_opset(const TargetContext&) { return 26; }
Capabilities capabilities(const TargetContext&) { return Capabilities{}; }
bool prefers(std::string_view composite, std::string_view, const TargetContext&) {
  return composite != "silu";
}

std::string check(const ir::Node& n, const TargetContext& ctx) {
  if (n.is("Swish") && ctx.opset > 24)
    return fmt::format(
        "ONNX Runtime 1.30 cannot load Swish at opset {} (it fails to expand the function); "
        "use opset 24 or decompose silu",
        ctx.opset);
  if (ctx.opset >= 22 && (n.is("RandomNormal") || n.is("RandomUniform") || n.is("RandomNormalLike") ||
                          n.is("RandomUniformLike")))
    return fmt::format(
        "ONNX Runtime 1.30 has no kernel for {} at opset {} (its version 22); export at --opset 21 or lower",
        n.op_type(), ctx.opset);
  return "";
}

}  // namespace

const TargetProfile kOnnxRuntime{
    "onnxruntime", "ONNX Runtime 1.30: every standard op, coarse ops where the opset has them",
    &min_opset,    &max_opset,
    &capabilities, &prefers,
    &check,        standard_pipeline()};

}  // namespace onnxify::targets
