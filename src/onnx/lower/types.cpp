// infer_type(): the type of an ONNX op's first output from its inputs' types, attributes and
// constant inputs, in DimExprs (so symbolic dims flow through). Covers the ops the lowering rules
// and passes emit; anything else is left unknown (the writer then omits its value_info, which ONNX
// allows). Not a general ONNX shape inference: when an answer would need a guess, it is unknown.
#include <algorithm>
#include <limits>

#include "onnx/lower/builder.h"

namespace onnxify::lowering {

namespace {

using ir::DimExpr;
using ir::ElementType;
using ir::Node;
using ir::Type;

const Type* in_type(const Node& n, size_t i) {
  const ir::Value* v = n.input(i);
  return v && v->type().is_tensor() ? &v->type() : nullptr;
}

bool ranked(const Type* t) { return t && t->has_rank(); }

std::optional<DimExpr> broadcast_dim(DimExpr a, DimExpr b) {
  if (a == b) return a;
  if (a.is_const() && a.value() == 1) return b;
  if (b.is_const() && b.value() == 1) return a;
  if (a.is_const() && !b.is_const()) return a;  // b must be a (or 1)
  if (b.is_const() && !a.is_const()) return b;
  return std::nullopt;
}

std::optional<std::vector<DimExpr>> broadcast(const std::vector<const Type*>& ts) {
  size_t r = 0;
  for (const Type* t : ts) {
    if (!ranked(t)) return std::nullopt;
    r = std::max(r, t->rank());
  }
  std::vector<DimExpr> out(r, DimExpr(1));
  for (const Type* t : ts) {
    size_t off = r - t->rank();
    for (size_t i = 0; i < t->rank(); ++i) {
      auto d = broadcast_dim(out[off + i], t->dim(i));
      out[off + i] = d ? *d : DimExpr::unknown();
    }
  }
  return out;
}

int64_t norm_axis(int64_t a, size_t r) { return a < 0 ? a + static_cast<int64_t>(r) : a; }

Type tensor(ElementType e, std::vector<DimExpr> dims) { return Type::tensor(e, std::move(dims)); }

bool one_of(const std::string& op, std::initializer_list<const char*> names) {
  for (const char* n : names)
    if (op == n) return true;
  return false;
}

// Slice length along one axis, for constant start/end/step.
DimExpr slice_len(DimExpr d, int64_t s, int64_t e, int64_t step) {
  constexpr int64_t kBig = std::numeric_limits<int64_t>::max() / 4;
  if (d.is_const()) {
    int64_t n = d.value();
    // ONNX Slice: negative positions count from the end; positive steps clamp to [0, n], negative
    // steps clamp start to [0, n - 1] and end to [-1, n - 1].
    auto norm = [&](int64_t v, int64_t lo, int64_t hi) {
      if (v < 0) v = v < -kBig ? lo : v + n;
      return std::clamp<int64_t>(v, lo, hi);
    };
    if (step > 0) {
      int64_t a = norm(s, 0, n), b = norm(e, 0, n);
      return DimExpr(b > a ? (b - a + step - 1) / step : 0);
    }
    int64_t a = norm(s, 0, n - 1), b = norm(e, -1, n - 1);
    return DimExpr(a > b ? (a - b + (-step) - 1) / (-step) : 0);
  }
  if (step != 1) return DimExpr::unknown();
  DimExpr start = s >= 0 ? ir::min(d, DimExpr(s)) : ir::max(DimExpr(0), d + DimExpr(s));
  DimExpr end = e >= kBig ? d : (e >= 0 ? ir::min(d, DimExpr(e)) : ir::max(DimExpr(0), d + DimExpr(e)));
  return ir::max(DimExpr(0), end - start);
}

Type reduce_type(const Node& n, const Type& x, std::vector<int64_t> axes, bool have_axes) {
  bool keep = n.attr_int("keepdims", 1) != 0;
  std::vector<bool> red(x.rank(), false);
  if (!have_axes || axes.empty()) {
    if (n.attr_int("noop_with_empty_axes", 0) && have_axes) return x;
    std::fill(red.begin(), red.end(), true);
  }
  for (int64_t a : axes) {
    int64_t k = norm_axis(a, x.rank());
    if (k < 0 || k >= static_cast<int64_t>(x.rank())) return Type();
    red[static_cast<size_t>(k)] = true;
  }
  std::vector<DimExpr> d;
  for (size_t i = 0; i < x.rank(); ++i) {
    if (!red[i])
      d.push_back(x.dim(i));
    else if (keep)
      d.push_back(DimExpr(1));
  }
  return tensor(x.elem(), d);
}

}  // namespace

Type infer_type(const Node& n) {
  if (!n.domain().empty()) return Type();
  const std::string& op = n.op_type();
  const Type* x = in_type(n, 0);

  if (one_of(op, {"Relu",
                  "Sigmoid",
                  "Tanh",
                  "Exp",
                  "Log",
                  "Sqrt",
                  "Neg",
                  "Abs",
                  "Erf",
                  "Softplus",
                  "HardSigmoid",
                  "HardSwish",
                  "Mish",
                  "Gelu",
                  "Swish",
                  "Reciprocal",
                  "Floor",
                  "Ceil",
                  "Round",
                  "Identity",
                  "Softmax",
                  "LogSoftmax",
                  "LayerNormalization",
                  "GroupNormalization",
                  "InstanceNormalization",
                  "RMSNormalization",
                  "RotaryEmbedding",
                  "BatchNormalization",
                  "Sin",
                  "Cos",
                  "Elu",
                  "LeakyRelu",
                  "Selu",
                  "Celu",
                  "Clip",
                  "Trilu",
                  "CumSum",
                  "Dropout",
                  "Sign",
                  "ThresholdedRelu",
                  "Softsign",
                  "ScatterElements",
                  "ScatterND",
                  "LpNormalization",
                  "MeanVarianceNormalization"}))
    return x ? *x : Type();
  if (one_of(op, {"Add", "Sub", "Mul", "Div", "Pow", "Mod", "Max", "Min", "Sum", "Mean", "PRelu"})) {
    std::vector<const Type*> ts;
    for (size_t i = 0; i < n.num_inputs(); ++i) ts.push_back(in_type(n, i));
    auto b = broadcast(ts);
    return b && x ? tensor(x->elem(), *b) : Type();
  }
  if (one_of(op, {"Equal", "Less", "Greater", "LessOrEqual", "GreaterOrEqual", "And", "Or", "Xor"})) {
    auto b = broadcast({in_type(n, 0), in_type(n, 1)});
    return b ? tensor(ElementType::Bool, *b) : Type();
  }
  if (op == "Not" || op == "IsNaN" || op == "IsInf")
    return ranked(x) ? tensor(ElementType::Bool, x->dims()) : Type();
  if (op == "Where") {
    auto b = broadcast({in_type(n, 0), in_type(n, 1), in_type(n, 2)});
    const Type* v = in_type(n, 1);
    return b && v ? tensor(v->elem(), *b) : Type();
  }
  if (!ranked(x) && op != "Range" && op != "ConstantOfShape" && op != "Concat") return Type();

  if (op == "Cast") {
    auto to = ir::element_type_from_onnx(static_cast<int>(n.attr_int("to", 0)));
    return to ? tensor(*to, x->dims()) : Type();
  }
  if (op == "CastLike") {
    const Type* t = in_type(n, 1);
    return t ? tensor(t->elem(), x->dims()) : Type();
  }
  if (op == "Shape") {
    int64_t r = static_cast<int64_t>(x->rank());
    int64_t s = std::clamp<int64_t>(norm_axis(n.attr_int("start", 0), x->rank()), 0, r);
    int64_t e = std::clamp<int64_t>(norm_axis(n.attr_int("end", r), x->rank()), 0, r);
    return tensor(ElementType::Int64, {DimExpr(std::max<int64_t>(0, e - s))});
  }
  if (op == "Size") return tensor(ElementType::Int64, {});
  if (op == "MatMul") {
    const Type* y = in_type(n, 1);
    if (!ranked(y) || x->rank() < 1 || y->rank() < 1) return Type();
    std::vector<DimExpr> a = x->dims(), b = y->dims();
    bool va = a.size() == 1, vb = b.size() == 1;
    if (va) a.insert(a.begin(), DimExpr(1));
    if (vb) b.push_back(DimExpr(1));
    Type ta = tensor(x->elem(), std::vector<DimExpr>(a.begin(), a.end() - 2));
    Type tb = tensor(x->elem(), std::vector<DimExpr>(b.begin(), b.end() - 2));
    auto batch = broadcast({&ta, &tb});
    if (!batch) return Type();
    if (!va) batch->push_back(a[a.size() - 2]);
    if (!vb) batch->push_back(b.back());
    return tensor(x->elem(), *batch);
  }
  if (op == "Gemm") {
    const Type* y = in_type(n, 1);
    if (!ranked(y) || x->rank() != 2 || y->rank() != 2) return Type();
    DimExpr m = n.attr_int("transA", 0) ? x->dim(1) : x->dim(0);
    DimExpr k = n.attr_int("transB", 0) ? y->dim(0) : y->dim(1);
    return tensor(x->elem(), {m, k});
  }
  if (op == "Transpose") {
    std::vector<int64_t> perm = n.attr_ints("perm");
    std::vector<DimExpr> d;
    if (perm.empty())
      for (size_t i = x->rank(); i-- > 0;) d.push_back(x->dim(i));
    else
      for (int64_t p : perm) {
        if (p < 0 || p >= static_cast<int64_t>(x->rank())) return Type();
        d.push_back(x->dim(static_cast<size_t>(p)));
      }
    return tensor(x->elem(), d);
  }
  if (op == "Unsqueeze") {
    auto axes = Builder::const_ints(n.input(1));
    if (!axes) return Type();
    size_t r = x->rank() + axes->size();
    std::vector<bool> ins(r, false);
    for (int64_t a : *axes) {
      int64_t k = norm_axis(a, r);
      if (k < 0 || k >= static_cast<int64_t>(r)) return Type();
      ins[static_cast<size_t>(k)] = true;
    }
    std::vector<DimExpr> d;
    size_t j = 0;
    for (size_t i = 0; i < r; ++i) d.push_back(ins[i] ? DimExpr(1) : x->dim(j++));
    return tensor(x->elem(), d);
  }
  if (op == "Squeeze") {
    std::vector<bool> drop(x->rank(), false);
    if (n.input(1)) {
      auto axes = Builder::const_ints(n.input(1));
      if (!axes) return Type();
      for (int64_t a : *axes) {
        int64_t k = norm_axis(a, x->rank());
        if (k < 0 || k >= static_cast<int64_t>(x->rank())) return Type();
        drop[static_cast<size_t>(k)] = true;
      }
    } else {
      for (size_t i = 0; i < x->rank(); ++i) {
        if (!x->dim(i).is_const()) return Type();
        drop[i] = x->dim(i).value() == 1;
      }
    }
    std::vector<DimExpr> d;
    for (size_t i = 0; i < x->rank(); ++i)
      if (!drop[i]) d.push_back(x->dim(i));
    return tensor(x->elem(), d);
  }
  if (op == "Reshape") {
    auto shape = Builder::const_ints(n.input(1));
    if (!shape) {
      const Type* st = in_type(n, 1);
      if (ranked(st) && st->rank() == 1 && st->dim(0).is_const())
        return tensor(x->elem(),
                      std::vector<DimExpr>(static_cast<size_t>(st->dim(0).value()), DimExpr::unknown()));
      return Type();
    }
    std::vector<DimExpr> d;
    int infer = -1;
    DimExpr known(1);
    for (size_t i = 0; i < shape->size(); ++i) {
      int64_t s = (*shape)[i];
      if (s == 0 && !n.attr_int("allowzero", 0)) {
        if (i >= x->rank()) return Type();
        d.push_back(x->dim(i));
      } else if (s == -1) {
        infer = static_cast<int>(i);
        d.push_back(DimExpr(1));
        continue;
      } else {
        d.push_back(DimExpr(s));
      }
      known = known * d.back();
    }
    if (infer >= 0) {
      DimExpr total = x->numel();
      DimExpr q = ir::floor_div(total, known);
      d[static_cast<size_t>(infer)] = (q * known == total) ? q : DimExpr::unknown();
    }
    return tensor(x->elem(), d);
  }
  if (op == "Flatten") {
    int64_t axis = norm_axis(n.attr_int("axis", 1), x->rank());
    DimExpr a(1), b(1);
    for (size_t i = 0; i < x->rank(); ++i) (static_cast<int64_t>(i) < axis ? a : b) *= x->dim(i);
    return tensor(x->elem(), {a, b});
  }
  if (op == "Concat") {
    const Type* first = nullptr;
    for (size_t i = 0; i < n.num_inputs(); ++i)
      if (ranked(in_type(n, i))) first = in_type(n, i);
    if (!first) return Type();
    size_t r = first->rank();
    int64_t axis = norm_axis(n.attr_int("axis", 0), r);
    if (axis < 0 || axis >= static_cast<int64_t>(r)) return Type();
    std::vector<DimExpr> d = first->dims();
    DimExpr sum(0);
    for (size_t i = 0; i < n.num_inputs(); ++i) {
      const Type* t = in_type(n, i);
      if (!ranked(t) || t->rank() != r) return Type();
      sum += t->dim(static_cast<size_t>(axis));
    }
    d[static_cast<size_t>(axis)] = sum;
    return tensor(first->elem(), d);
  }
  if (op.rfind("Reduce", 0) == 0) {
    if (n.input(1)) {
      auto axes = Builder::const_ints(n.input(1));
      return axes ? reduce_type(n, *x, *axes, true) : Type();
    }
    const ir::Attribute* a = n.attr("axes");
    return reduce_type(n, *x, a ? a->ints() : std::vector<int64_t>{}, a != nullptr);
  }
  if (op == "ArgMax" || op == "ArgMin") {
    Type t = reduce_type(n, *x, {n.attr_int("axis", 0)}, true);
    return t.is_tensor() ? tensor(ElementType::Int64, t.dims()) : Type();
  }
  if (op == "Gather") {
    const Type* idx = in_type(n, 1);
    if (!ranked(idx)) return Type();
    int64_t axis = norm_axis(n.attr_int("axis", 0), x->rank());
    std::vector<DimExpr> d;
    for (int64_t i = 0; i < axis; ++i) d.push_back(x->dim(static_cast<size_t>(i)));
    for (DimExpr e : idx->dims()) d.push_back(e);
    for (size_t i = static_cast<size_t>(axis) + 1; i < x->rank(); ++i) d.push_back(x->dim(i));
    return tensor(x->elem(), d);
  }
  if (op == "GatherElements") {
    const Type* idx = in_type(n, 1);
    return ranked(idx) ? tensor(x->elem(), idx->dims()) : Type();
  }
  if (op == "Slice") {
    auto starts = Builder::const_ints(n.input(1)), ends = Builder::const_ints(n.input(2));
    if (!starts || !ends || starts->size() != ends->size()) return Type();
    std::vector<int64_t> axes, steps(starts->size(), 1);
    if (n.input(3)) {
      auto a = Builder::const_ints(n.input(3));
      if (!a) return Type();
      axes = *a;
    } else {
      for (size_t i = 0; i < starts->size(); ++i) axes.push_back(static_cast<int64_t>(i));
    }
    if (n.input(4)) {
      auto s = Builder::const_ints(n.input(4));
      if (!s) return Type();
      steps = *s;
    }
    std::vector<DimExpr> d = x->dims();
    for (size_t i = 0; i < axes.size(); ++i) {
      int64_t a = norm_axis(axes[i], x->rank());
      if (a < 0 || a >= static_cast<int64_t>(x->rank()) || steps[i] == 0) return Type();
      d[static_cast<size_t>(a)] = slice_len(d[static_cast<size_t>(a)], (*starts)[i], (*ends)[i], steps[i]);
    }
    return tensor(x->elem(), d);
  }
  if (op == "Expand") {
    auto shape = Builder::const_ints(n.input(1));
    if (!shape) return Type();
    std::vector<DimExpr> sd;
    for (int64_t s : *shape) sd.push_back(DimExpr(s));
    Type st = tensor(x->elem(), sd);
    auto b = broadcast({x, &st});
    return b ? tensor(x->elem(), *b) : Type();
  }
  if (op == "Tile") {
    auto rep = Builder::const_ints(n.input(1));
    if (!rep || rep->size() != x->rank()) return Type();
    std::vector<DimExpr> d;
    for (size_t i = 0; i < x->rank(); ++i) d.push_back(x->dim(i) * DimExpr((*rep)[i]));
    return tensor(x->elem(), d);
  }
  if (op == "Pad") {
    auto pads = Builder::const_ints(n.input(1));
    if (!pads || pads->size() != 2 * x->rank() || n.input(3)) return Type();
    std::vector<DimExpr> d;
    for (size_t i = 0; i < x->rank(); ++i)
      d.push_back(x->dim(i) + DimExpr((*pads)[i] + (*pads)[i + x->rank()]));
    return tensor(x->elem(), d);
  }
  if (op == "ConstantOfShape") {
    auto shape = Builder::const_ints(n.input(0));
    ElementType e = ElementType::Float32;
    if (const ir::Attribute* v = n.attr("value"); v && v->kind() == ir::AttrKind::Tensor) e = v->t().dtype();
    if (!shape) return Type();
    std::vector<DimExpr> d;
    for (int64_t s : *shape) d.push_back(DimExpr(s));
    return tensor(e, d);
  }
  if (op == "Range") {
    const Type* t = in_type(n, 0);
    return t ? tensor(t->elem(), {DimExpr::unknown()}) : Type();
  }
  if (op == "OneHot") {
    const Type* vals = in_type(n, 2);
    auto depth = Builder::const_ints(n.input(1));
    if (!vals) return Type();
    std::vector<DimExpr> d = x->dims();
    int64_t axis = n.attr_int("axis", -1);
    size_t pos = static_cast<size_t>(axis < 0 ? axis + static_cast<int64_t>(d.size()) + 1 : axis);
    d.insert(d.begin() + static_cast<std::ptrdiff_t>(std::min(pos, d.size())),
             depth && depth->size() == 1 ? DimExpr((*depth)[0]) : DimExpr::unknown());
    return tensor(vals->elem(), d);
  }
  if (op == "DepthToSpace" || op == "SpaceToDepth") {
    int64_t b = n.attr_int("blocksize", 1);
    if (x->rank() != 4) return Type();
    if (op == "DepthToSpace")
      return tensor(x->elem(), {x->dim(0), ir::floor_div(x->dim(1), DimExpr(b * b)), x->dim(2) * DimExpr(b),
                                x->dim(3) * DimExpr(b)});
    return tensor(x->elem(), {x->dim(0), x->dim(1) * DimExpr(b * b), ir::floor_div(x->dim(2), DimExpr(b)),
                              ir::floor_div(x->dim(3), DimExpr(b))});
  }
  if (op == "TopK") {
    auto k = Builder::const_ints(n.input(1));
    std::vector<DimExpr> d = x->dims();
    int64_t axis = norm_axis(n.attr_int("axis", -1), x->rank());
    d[static_cast<size_t>(axis)] = k && k->size() == 1 ? DimExpr((*k)[0]) : DimExpr::unknown();
    return tensor(x->elem(), d);
  }
  if (op == "Attention") {
    const Type* v = in_type(n, 2);
    if (!ranked(v) || x->rank() != v->rank()) return Type();
    std::vector<DimExpr> d = x->dims();
    d.back() = v->dims().back();
    return tensor(x->elem(), d);
  }
  if (op == "GridSample") {
    const Type* g = in_type(n, 1);
    if (!ranked(g) || g->rank() != x->rank()) return Type();
    std::vector<DimExpr> d = {x->dim(0), x->dim(1)};
    for (size_t i = 1; i + 1 < g->rank(); ++i) d.push_back(g->dim(i));
    return tensor(x->elem(), d);
  }
  if (op == "Resize") {
    if (auto sizes = Builder::const_ints(n.input(3)); sizes && sizes->size() == x->rank()) {
      std::vector<DimExpr> d;
      for (int64_t s : *sizes) d.push_back(DimExpr(s));
      return tensor(x->elem(), d);
    }
    return tensor(x->elem(), std::vector<DimExpr>(x->rank(), DimExpr::unknown()));
  }
  return Type();
}

}  // namespace onnxify::lowering
