// Folding kernels for constants and elementwise ops (unary, binary with numpy broadcasting,
// variadic, Where, Cast). Semantics follow the ONNX operator specification.
#include <cmath>
#include <cstring>
#include <limits>

#include "passes/kernels/array.h"
#include "passes/kernels/kernels.h"

namespace onnxify::passes::kernels {

using ir::Attribute;
using ir::AttrKind;
using ir::ElementType;
using ir::Node;
using ir::Tensor;
using Out = std::optional<std::vector<Tensor>>;

namespace {

Out one(Tensor t) { return std::vector<Tensor>{std::move(t)}; }

bool too_big(ElementType t, const std::vector<int64_t>& shape, const Limits& l) {
  return ir::storage_bytes(t, product(shape)) > l.max_bytes;
}

// Integer arithmetic wraps (two's complement), never overflows in C++ terms.
int64_t wrap_add(int64_t a, int64_t b) {
  return static_cast<int64_t>(static_cast<uint64_t>(a) + static_cast<uint64_t>(b));
}
int64_t wrap_sub(int64_t a, int64_t b) {
  return static_cast<int64_t>(static_cast<uint64_t>(a) - static_cast<uint64_t>(b));
}
int64_t wrap_mul(int64_t a, int64_t b) {
  return static_cast<int64_t>(static_cast<uint64_t>(a) * static_cast<uint64_t>(b));
}

}  // namespace

// Constant: value, or one of the value_* shorthands.
Out k_constant(const Node& node, const std::vector<const Tensor*>&, const Limits&) {
  for (const auto& [name, a] : node.attrs()) {
    if (name == "value" && a.kind() == AttrKind::Tensor) return one(a.t());
    if (name == "value_float" && a.kind() == AttrKind::Float)
      return one(Tensor::from_values<float>(ElementType::Float32, {}, {a.f()}));
    if (name == "value_floats" && a.kind() == AttrKind::Floats)
      return one(Tensor::from_values<float>(ElementType::Float32, {static_cast<int64_t>(a.floats().size())},
                                            a.floats()));
    if (name == "value_int" && a.kind() == AttrKind::Int) return one(Tensor::scalar_int64(a.i()));
    if (name == "value_ints" && a.kind() == AttrKind::Ints) return one(Tensor::vector_int64(a.ints()));
    if (name == "value_string" && a.kind() == AttrKind::String) return one(Tensor::strings({}, {a.s()}));
    if (name == "value_strings" && a.kind() == AttrKind::Strings)
      return one(Tensor::strings({static_cast<int64_t>(a.strings().size())}, a.strings()));
  }
  return std::nullopt;
}

Out k_identity(const Node&, const std::vector<const Tensor*>& in, const Limits&) {
  if (in.empty() || !in[0]) return std::nullopt;
  return one(*in[0]);
}

Out k_unary(const Node& node, const std::vector<const Tensor*>& in, const Limits&) {
  if (in.size() != 1 || !in[0]) return std::nullopt;
  auto x = load(*in[0]);
  if (!x) return std::nullopt;
  const std::string& op = node.op_type();
  // The activations' attributes, with ONNX's defaults (float attributes, as ONNX Runtime reads them).
  const double alpha = node.attr_float("alpha", op == "LeakyRelu"        ? 0.01f
                                                 : op == "HardSigmoid" ? 0.2f
                                                 : op == "Selu"        ? 1.67326319217681884765625f
                                                                       : 1.0f);
  const double beta = node.attr_float("beta", 0.5f);
  const double gamma = node.attr_float("gamma", 1.05070102214813232421875f);
  if (x->is_float()) {
    for (double& v : x->f) {
      if (op == "LeakyRelu")
        v = v >= 0 ? v : alpha * v;
      else if (op == "Elu")
        v = v >= 0 ? v : alpha * std::expm1(v);
      else if (op == "Celu")
        v = std::max(0.0, v) + std::min(0.0, alpha * std::expm1(v / alpha));
      else if (op == "Selu")
        v = gamma * (v > 0 ? v : alpha * std::expm1(v));
      else if (op == "Softplus")
        v = v > 20 ? v : std::log1p(std::exp(v));
      else if (op == "Softsign")
        v = v / (1 + std::fabs(v));
      else if (op == "HardSigmoid")
        v = std::max(0.0, std::min(1.0, alpha * v + beta));
      else if (op == "ThresholdedRelu")
        v = v > alpha ? v : 0.0;
      else if (op == "Neg")
        v = -v;
      else if (op == "Abs")
        v = std::fabs(v);
      else if (op == "Sqrt")
        v = std::sqrt(v);
      else if (op == "Exp")
        v = std::exp(v);
      else if (op == "Log")
        v = std::log(v);
      else if (op == "Reciprocal")
        v = 1.0 / v;
      else if (op == "Floor")
        v = std::floor(v);
      else if (op == "Ceil")
        v = std::ceil(v);
      else if (op == "Round")
        v = std::nearbyint(v);  // half to even
      else if (op == "Relu")
        v = v > 0 ? v : 0.0;
      else if (op == "Sigmoid")
        v = 1.0 / (1.0 + std::exp(-v));
      else if (op == "Tanh")
        v = std::tanh(v);
      else if (op == "Sin")
        v = std::sin(v);
      else if (op == "Cos")
        v = std::cos(v);
      else if (op == "Erf")
        v = std::erf(v);
      else if (op == "Tan")
        v = std::tan(v);
      else if (op == "Asin")
        v = std::asin(v);
      else if (op == "Acos")
        v = std::acos(v);
      else if (op == "Atan")
        v = std::atan(v);
      else if (op == "Sinh")
        v = std::sinh(v);
      else if (op == "Cosh")
        v = std::cosh(v);
      else if (op == "Asinh")
        v = std::asinh(v);
      else if (op == "Acosh")
        v = std::acosh(v);
      else if (op == "Atanh")
        v = std::atanh(v);
      else if (op == "Sign")
        v = v > 0 ? 1.0 : (v < 0 ? -1.0 : v);
      else
        return std::nullopt;
    }
    return one(store(*x));
  }
  for (int64_t& v : x->i) {
    if (op == "Neg")
      v = wrap_sub(0, v);
    else if (op == "Abs")
      v = v < 0 ? wrap_sub(0, v) : v;
    else if (op == "Relu")
      v = v > 0 ? v : 0;
    else if (op == "Sign")
      v = v > 0 ? 1 : (v < 0 ? -1 : 0);
    else if (op == "Not" && x->dtype == ElementType::Bool)
      v = !v;
    else
      return std::nullopt;
  }
  return one(store(*x));
}

namespace {

bool is_compare(const std::string& op) {
  return op == "Equal" || op == "Less" || op == "LessOrEqual" || op == "Greater" || op == "GreaterOrEqual";
}

template <class T>
bool compare(const std::string& op, T a, T b) {
  if (op == "Equal") return a == b;
  if (op == "Less") return a < b;
  if (op == "LessOrEqual") return a <= b;
  if (op == "Greater") return a > b;
  return a >= b;
}

std::optional<double> float_op(const std::string& op, double a, double b, int64_t fmod_attr) {
  if (op == "Add") return a + b;
  if (op == "Sub") return a - b;
  if (op == "Mul") return a * b;
  if (op == "Div") return a / b;
  if (op == "Pow") return std::pow(a, b);
  if (op == "Mod") {
    if (fmod_attr != 1) return std::nullopt;  // ONNX requires fmod=1 for floating point
    return std::fmod(a, b);
  }
  if (op == "Min") return std::isnan(a) || std::isnan(b) ? NAN : std::min(a, b);
  if (op == "Max") return std::isnan(a) || std::isnan(b) ? NAN : std::max(a, b);
  if (op == "Sum") return a + b;
  return std::nullopt;
}

std::optional<int64_t> int_op(const std::string& op, int64_t a, int64_t b, int64_t fmod_attr) {
  if (op == "Add" || op == "Sum") return wrap_add(a, b);
  if (op == "Sub") return wrap_sub(a, b);
  if (op == "Mul") return wrap_mul(a, b);
  if (op == "Div") {
    if (b == 0 || (a == INT64_MIN && b == -1)) return std::nullopt;
    return a / b;  // truncates toward zero, as ONNX integer Div does
  }
  if (op == "Mod") {
    if (b == 0 || (a == INT64_MIN && b == -1)) return std::nullopt;
    int64_t r = a % b;                                             // fmod=1: the sign of the dividend
    if (fmod_attr == 0 && r != 0 && ((r < 0) != (b < 0))) r += b;  // fmod=0: the sign of the divisor
    return r;
  }
  if (op == "Pow") {
    if (b < 0) return std::nullopt;
    int64_t r = 1;
    for (int64_t k = 0; k < b && k < 64; ++k) r = wrap_mul(r, a);
    return b >= 64 && a != 0 && a != 1 && a != -1 ? std::nullopt : std::optional<int64_t>(r);
  }
  if (op == "Min") return std::min(a, b);
  if (op == "Max") return std::max(a, b);
  if (op == "And") return static_cast<int64_t>(a && b);
  if (op == "Or") return static_cast<int64_t>(a || b);
  if (op == "Xor") return static_cast<int64_t>((a != 0) != (b != 0));
  return std::nullopt;
}

// out = a OP b with broadcasting; `result` is the output element type.
std::optional<Array> binary(const std::string& op, const Array& a, const Array& b, ElementType result,
                            int64_t fmod_attr, const Limits& limits) {
  auto shape = broadcast({a.shape, b.shape});
  if (!shape || too_big(result, *shape, limits)) return std::nullopt;
  auto ia = broadcast_index(a.shape, *shape), ib = broadcast_index(b.shape, *shape);
  Array out = make(result, *shape);
  size_t n = ia.size();
  bool cmp = is_compare(op);
  for (size_t k = 0; k < n; ++k) {
    size_t x = static_cast<size_t>(ia[k]), y = static_cast<size_t>(ib[k]);
    if (cmp) {
      out.i[k] = a.is_float() ? compare(op, a.f[x], b.is_float() ? b.f[y] : static_cast<double>(b.i[y]))
                              : compare(op, a.i[x], b.i[y]);
    } else if (a.is_float()) {
      double bv = b.is_float() ? b.f[y] : static_cast<double>(b.i[y]);
      auto r = float_op(op, a.f[x], bv, fmod_attr);
      if (!r) return std::nullopt;
      out.f[k] = *r;
    } else if (b.is_float()) {  // integer base, float exponent (Pow)
      if (op != "Pow") return std::nullopt;
      double r = std::pow(static_cast<double>(a.i[x]), b.f[y]);
      if (!std::isfinite(r) || std::fabs(r) > 9.2e18) return std::nullopt;
      out.i[k] = static_cast<int64_t>(r);
    } else {
      auto r = int_op(op, a.i[x], b.i[y], fmod_attr);
      if (!r) return std::nullopt;
      out.i[k] = *r;
    }
  }
  return out;
}

}  // namespace

Out k_binary(const Node& node, const std::vector<const Tensor*>& in, const Limits& limits) {
  if (in.size() != 2 || !in[0] || !in[1]) return std::nullopt;
  auto a = load(*in[0]), b = load(*in[1]);
  if (!a || !b) return std::nullopt;
  const std::string& op = node.op_type();
  if (op != "Pow" && a->dtype != b->dtype) return std::nullopt;
  ElementType result = is_compare(op) ? ElementType::Bool : a->dtype;
  auto out = binary(op, *a, *b, result, node.attr_int("fmod", 0), limits);
  if (!out) return std::nullopt;
  return one(store(*out));
}

Out k_variadic(const Node& node, const std::vector<const Tensor*>& in, const Limits& limits) {
  if (in.empty()) return std::nullopt;
  std::optional<Array> acc;
  for (const Tensor* t : in) {
    if (!t) return std::nullopt;
    auto x = load(*t);
    if (!x || (acc && x->dtype != acc->dtype)) return std::nullopt;
    if (!acc) {
      acc = std::move(x);
      continue;
    }
    acc = binary(node.op_type(), *acc, *x, acc->dtype, 0, limits);
    if (!acc) return std::nullopt;
  }
  return one(store(*acc));
}

Out k_where(const Node&, const std::vector<const Tensor*>& in, const Limits& limits) {
  if (in.size() != 3 || !in[0] || !in[1] || !in[2]) return std::nullopt;
  auto c = load(*in[0]), x = load(*in[1]), y = load(*in[2]);
  if (!c || !x || !y || c->dtype != ElementType::Bool || x->dtype != y->dtype) return std::nullopt;
  auto shape = broadcast({c->shape, x->shape, y->shape});
  if (!shape || too_big(x->dtype, *shape, limits)) return std::nullopt;
  auto ic = broadcast_index(c->shape, *shape), ix = broadcast_index(x->shape, *shape),
       iy = broadcast_index(y->shape, *shape);
  Array out = make(x->dtype, *shape);
  for (size_t k = 0; k < ic.size(); ++k) {
    bool take_x = c->i[static_cast<size_t>(ic[k])] != 0;
    if (out.is_float())
      out.f[k] = take_x ? x->f[static_cast<size_t>(ix[k])] : y->f[static_cast<size_t>(iy[k])];
    else
      out.i[k] = take_x ? x->i[static_cast<size_t>(ix[k])] : y->i[static_cast<size_t>(iy[k])];
  }
  return one(store(out));
}

namespace {

// Range of an integer element type, for casts from float (out of range is undefined in ONNX).
std::pair<double, double> int_range(ElementType t) {
  switch (t) {
    case ElementType::Int8:
      return {-128.0, 127.0};
    case ElementType::Int16:
      return {-32768.0, 32767.0};
    case ElementType::Int32:
      return {-2147483648.0, 2147483647.0};
    case ElementType::UInt8:
      return {0.0, 255.0};
    case ElementType::UInt16:
      return {0.0, 65535.0};
    case ElementType::UInt32:
      return {0.0, 4294967295.0};
    default:
      return {-9223372036854775808.0, 9223372036854774784.0};
  }
}

}  // namespace

Out k_cast(const Node& node, const std::vector<const Tensor*>& in, const Limits&) {
  if (in.empty() || !in[0]) return std::nullopt;
  std::optional<ElementType> to;
  if (node.op_type() == "CastLike") {
    if (in.size() < 2 || !in[1]) return std::nullopt;
    to = in[1]->dtype();
  } else {
    to = ir::element_type_from_onnx(static_cast<int>(node.attr_int("to", 0)));
  }
  if (!to || !numeric_ok(*to)) return std::nullopt;
  auto x = load(*in[0]);
  if (!x) return std::nullopt;
  Array out = make(*to, x->shape);
  size_t n = static_cast<size_t>(x->numel());
  for (size_t k = 0; k < n; ++k) {
    if (out.is_float()) {
      out.f[k] = x->is_float() ? x->f[k] : static_cast<double>(x->i[k]);
    } else if (*to == ElementType::Bool) {
      out.i[k] = x->is_float() ? x->f[k] != 0.0 : x->i[k] != 0;
    } else if (x->is_float()) {
      double v = std::trunc(x->f[k]);
      auto [lo, hi] = int_range(*to);
      if (!std::isfinite(v) || v < lo || v > hi) return std::nullopt;
      out.i[k] = static_cast<int64_t>(v);
    } else {
      out.i[k] = x->i[k];  // store() wraps to the target width
    }
  }
  return one(store(out));
}

// Clip with optional min/max inputs (opset 11+) or attributes (older): min(max(x, lo), hi), so
// lo > hi gives hi everywhere (as PyTorch's clamp); NaN stays NaN.
Out k_clip(const Node& node, const std::vector<const Tensor*>& in, const Limits&) {
  if (in.empty() || !in[0]) return std::nullopt;
  auto x = load(*in[0]);
  if (!x || x->dtype == ElementType::Bool) return std::nullopt;
  auto bound = [&](size_t i, const char* attr, double dflt) -> std::optional<double> {
    if (i < in.size() && in[i]) {
      if (in[i]->numel() != 1 || in[i]->dtype() != in[0]->dtype()) return std::nullopt;
      return ir::is_float(in[i]->dtype()) ? in[i]->float_at(0) : static_cast<double>(in[i]->int_at(0));
    }
    if (i < node.num_inputs() && node.input(i)) return std::nullopt;  // given but not constant
    return static_cast<double>(node.attr_float(attr, static_cast<float>(dflt)));
  };
  const double inf = std::numeric_limits<double>::infinity();
  auto lo = bound(1, "min", -inf), hi = bound(2, "max", inf);
  if (!lo || !hi) return std::nullopt;
  if (x->is_float()) {
    for (double& v : x->f)
      if (!std::isnan(v)) v = std::min(std::max(v, *lo), *hi);
  } else {
    for (int64_t& v : x->i) {
      double d = std::min(std::max(static_cast<double>(v), *lo), *hi);
      v = d == static_cast<double>(v) ? v : static_cast<int64_t>(d);
    }
  }
  return one(store(*x));
}

}  // namespace onnxify::passes::kernels
