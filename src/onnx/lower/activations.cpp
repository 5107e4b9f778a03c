// Elementwise activations: gelu, silu, mish, hardswish, hardsigmoid, softplus.
//
// Coarse ops where the opset has them (Gelu 20, Swish 24, Mish 18, HardSwish 14, HardSigmoid and
// Softplus always); decompositions are written in the node order ONNX Runtime's fusions match, so a
// decomposed graph still runs as one kernel there (tests/onnx/lower/ort_fusion_test.py checks the
// optimized graph): GeluFusion (Div, Erf, Add, Mul, Mul) and QuickGelu (x * Sigmoid(x)). The tanh
// form is the FastGelu pattern, which ONNX Runtime fuses only for its GPU providers.
#include <cmath>

#include "onnx/lower/lower.h"

namespace onnxify::lowering {

using ir::Node;
using ir::Value;

void lower_gelu(Node& n, Builder& b, Context& ctx, std::vector<Value*>& out) {
  Value* x = n.input(0);
  std::string approx = ir::attr_s(n, "approximate");
  if (ctx.coarse(n, "Gelu", 20)) {
    out = {b.op("Gelu", {x}, Attrs().s("approximate", approx))};
    return;
  }
  Value* inner;
  if (approx == "none") {
    // x * 0.5 * (1 + erf(x / sqrt(2)))
    Value* e = b.op("Erf", {b.op("Div", {x, fconst(b, std::sqrt(2.0), x)})});
    inner = b.op("Add", {e, fconst(b, 1.0, x)});
  } else {
    // 0.5 * x * (1 + tanh(sqrt(2 / pi) * (x + 0.044715 * x^3)))
    Value* cube = b.op("Pow", {x, fconst(b, 3.0, x)});
    Value* s = b.op("Add", {x, b.op("Mul", {cube, fconst(b, 0.044715, x)})});
    Value* t = b.op("Tanh", {b.op("Mul", {s, fconst(b, std::sqrt(2.0 / M_PI), x)})});
    inner = b.op("Add", {t, fconst(b, 1.0, x)});
  }
  out = {b.op("Mul", {b.op("Mul", {x, inner}), fconst(b, 0.5, x)})};
}

void lower_silu(Node& n, Builder& b, Context& ctx, std::vector<Value*>& out) {
  Value* x = n.input(0);
  if (ctx.coarse(n, "Swish", 24)) {
    out = {b.op("Swish", {x}, Attrs().f("alpha", 1.0f))};
    return;
  }
  out = {b.op("Mul", {x, b.op("Sigmoid", {x})})};
}

void lower_mish(Node& n, Builder& b, Context& ctx, std::vector<Value*>& out) {
  Value* x = n.input(0);
  if (ctx.coarse(n, "Mish", 18)) {
    out = {b.op("Mish", {x})};
    return;
  }
  out = {b.op("Mul", {x, b.op("Tanh", {b.op("Softplus", {x})})})};
}

// relu6(x + 3) / 6 == clip(x / 6 + 0.5, 0, 1): ONNX's HardSigmoid with alpha 1/6, beta 0.5.
Value* hard_sigmoid(Builder& b, Value* x) {
  return b.op("HardSigmoid", {x}, Attrs().f("alpha", 1.0f / 6).f("beta", 0.5f));
}

void lower_hardswish(Node& n, Builder& b, Context& ctx, std::vector<Value*>& out) {
  Value* x = n.input(0);
  if (ctx.coarse(n, "HardSwish", 14)) {
    out = {b.op("HardSwish", {x})};
    return;
  }
  out = {b.op("Mul", {x, hard_sigmoid(b, x)})};
}

void lower_hardsigmoid(Node& n, Builder& b, Context& ctx, std::vector<Value*>& out) {
  Value* x = n.input(0);
  if (ctx.coarse(n, "HardSigmoid", 6)) {
    out = {hard_sigmoid(b, x)};
    return;
  }
  Value* c = b.op("Clip", {b.op("Add", {x, fconst(b, 3.0, x)}), fconst(b, 0.0, x), fconst(b, 6.0, x)});
  out = {b.op("Div", {c, fconst(b, 6.0, x)})};
}

// PyTorch: log1p(exp(beta * x)) / beta, and x itself where beta * x > threshold. Past threshold 15
// the two agree to float32 rounding (log1p(exp(-t)) < half an ulp of t), so only a smaller threshold
// needs the Where.
void lower_softplus(Node& n, Builder& b, Context& ctx, std::vector<Value*>& out) {
  Value* x = n.input(0);
  float beta = ir::attr_f(n, "beta"), threshold = ir::attr_f(n, "threshold");
  Value* bx = beta == 1.0f ? x : b.op("Mul", {x, fconst(b, beta, x)});
  Value* sp;
  if (ctx.coarse(n, "Softplus", 1)) {
    sp = b.op("Softplus", {bx});
  } else {
    // The overflow-free form: max(t, 0) + log(1 + exp(-|t|)).
    Value* tail =
        b.op("Log", {b.op("Add", {b.op("Exp", {b.op("Neg", {b.op("Abs", {bx})})}), fconst(b, 1.0, x)})});
    sp = b.op("Add", {b.op("Relu", {bx}), tail});
  }
  Value* y = beta == 1.0f ? sp : b.op("Div", {sp, fconst(b, beta, x)});
  if (threshold < 15.0f) y = b.op("Where", {b.op("Greater", {bx, fconst(b, threshold, x)}), x, y});
  out = {y};
}

}  // namespace onnxify::lowering
