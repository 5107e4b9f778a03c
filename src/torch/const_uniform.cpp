// Uniform values (DESIGN.md decision 1, extended): a tensor whose size is symbolic can still have a
// value known at conversion time when every element is the same. `torch.ones(B, N)`, `~mask` of it,
// `(mask == 0)`, then `.any()`: Python branches on such values (timm's gemma4 ViT builds an
// attention mask only `if padding_positions.any()`; transformers checks `torch.all(mask == 1)`), and
// eager decides them the same way for every input, so the export must too instead of keeping both
// sides (which may not even join: a tensor in one, None in the other).
//
// The analysis runs when const_eval's Evaluator gives up. It follows the IR producers of a value and
// returns the set of scalars every element may equal: one candidate in the common case, two where an
// empty extent gives a reduction its identity (ReduceMax of ones over a size that may be 0 is 1 or,
// empty, the type's lowest value); a Cast to bool may merge them again. Each rule is the op's own
// semantics on one element: elementwise ops run the fold kernels on rank-0 operands, data movement
// keeps the value, reductions keep it (or give their identity on an empty extent).
#include <fmt/core.h>

#include <cmath>
#include <limits>
#include <unordered_map>
#include <unordered_set>

#include "passes/kernels/array.h"
#include "passes/kernels/kernels.h"
#include "passes/passes.h"
#include "torch/ops.h"

namespace onnxify::torch {

namespace {

namespace k = passes::kernels;

using Candidates = std::vector<ir::Tensor>;  // rank 0, distinct

// Ops whose every output element is a function of the elements at the same (broadcast) position.
bool elementwise(std::string_view op) {
  static const std::unordered_set<std::string_view> ops = {
      "Abs", "Neg", "Not", "Sign", "Floor", "Ceil", "Round", "Reciprocal", "Sqrt", "Exp", "Log", "Relu",
      "Sigmoid", "Tanh", "Erf", "Sin", "Cos", "IsNaN", "IsInf", "Cast", "CastLike", "Identity", "Add", "Sub",
      "Mul", "Div", "Pow", "Mod", "Max", "Min", "Equal", "Less", "Greater", "LessOrEqual", "GreaterOrEqual",
      "And", "Or", "Xor", "BitwiseAnd", "BitwiseOr", "BitwiseXor", "BitwiseNot", "Where", "Clip"};
  return ops.count(op) > 0;
}

// Ops that only move, repeat or drop elements of input 0 (the other inputs are shapes and indices).
bool data_movement(std::string_view op) {
  static const std::unordered_set<std::string_view> ops = {
      "Reshape", "Expand", "Unsqueeze", "Squeeze", "Flatten", "Transpose", "Slice", "Tile", "Gather",
      "GatherElements", "GatherND", "DepthToSpace", "SpaceToDepth", "Compress", "Trilu"};
  return ops.count(op) > 0;
}

bool same(const ir::Tensor& a, const ir::Tensor& b) {
  auto x = k::load(a), y = k::load(b);
  if (!x || !y || x->dtype != y->dtype) return false;
  return x->is_float() ? (x->f == y->f || (std::isnan(x->f[0]) && std::isnan(y->f[0]))) : x->i == y->i;
}

void add(Candidates& c, ir::Tensor t) {
  for (const ir::Tensor& e : c)
    if (same(e, t)) return;
  c.push_back(std::move(t));
}

// The single value of a tensor all of whose elements are equal.
std::optional<ir::Tensor> all_equal(const ir::Tensor& t) {
  auto a = k::load(t);
  if (!a || a->numel() == 0) return std::nullopt;
  k::Array one = k::make(a->dtype, {});
  if (a->is_float()) {
    for (double x : a->f)
      if (!(x == a->f[0])) return std::nullopt;
    one.f = {a->f[0]};
  } else {
    for (int64_t x : a->i)
      if (x != a->i[0]) return std::nullopt;
    one.i = {a->i[0]};
  }
  return k::store(one);
}

// What ReduceMax/ReduceMin give over an empty extent: the type's lowest/highest value.
std::optional<ir::Tensor> empty_reduction(const std::string& op, ir::ElementType t) {
  k::Array a = k::make(t, {});
  if (!k::numeric_ok(t)) return std::nullopt;
  bool max = op == "ReduceMax";
  if (op == "ReduceSum" || op == "ReduceProd") {
    int64_t id = op == "ReduceSum" ? 0 : 1;
    if (a.is_float())
      a.f = {static_cast<double>(id)};
    else
      a.i = {id};
  } else if (op != "ReduceMax" && op != "ReduceMin") {
    return std::nullopt;
  } else if (a.is_float()) {
    a.f = {max ? -std::numeric_limits<double>::infinity() : std::numeric_limits<double>::infinity()};
  } else {
    const auto& in = ir::info(t);
    bool is_signed = in.category == ir::ElementCategory::Int;
    if (in.category == ir::ElementCategory::Bool) {
      a.i = {max ? 0 : 1};
    } else if (in.bits >= 64) {
      a.i = {max ? (is_signed ? INT64_MIN : 0) : (is_signed ? INT64_MAX : -1)};
    } else {
      int64_t lo = is_signed ? -(int64_t{1} << (in.bits - 1)) : 0;
      int64_t hi = is_signed ? (int64_t{1} << (in.bits - 1)) - 1 : (int64_t{1} << in.bits) - 1;
      a.i = {max ? lo : hi};
    }
  }
  return k::store(a);
}

class Uniform {
 public:
  explicit Uniform(Torch& T) : T_(T) {}

  std::optional<Candidates> of(const ir::Value* v, int depth = 0) {
    if (!v || depth > kMaxDepth) return std::nullopt;
    if (auto it = memo_.find(v); it != memo_.end()) return it->second;
    auto r = compute(v, depth);
    memo_[v] = r;
    return r;
  }

 private:
  static constexpr int kMaxDepth = 200;  // chains of pure elementwise ops longer than this: give up
  static constexpr size_t kMaxCandidates = 4;

  std::optional<Candidates> compute(const ir::Value* v, int depth) {
    if (T_.opaque.count(v)) return std::nullopt;  // weights, random stand-ins
    if (auto it = T_.known.find(v); it != T_.known.end()) return single(all_equal(*it->second));
    if (v->is_initializer()) return single(all_equal(*v->initializer()));
    const ir::Node* n = v->producer();
    if (!n || v->is_graph_input() || n->has_regions() || passes::nondeterministic(*n)) return std::nullopt;
    const std::string& op = n->op_type();
    if (!n->domain().empty()) return std::nullopt;
    if (op == "ConstantOfShape") {
      const ir::Attribute* a = n->attr("value");
      if (!a) {
        k::Array z = k::make(ir::ElementType::Float32, {});
        z.f = {0.0};
        return Candidates{k::store(z)};
      }
      return single(all_equal(a->t()));
    }
    if (data_movement(op)) return of(n->input(0), depth + 1);
    if (op == "Concat") {
      std::optional<Candidates> all;
      for (const ir::Value* in : n->inputs()) {
        auto c = of(in, depth + 1);
        if (!c) return std::nullopt;
        if (!all) all = Candidates{};
        for (ir::Tensor& t : *c) add(*all, std::move(t));
      }
      return all && all->size() == 1 ? all : std::nullopt;
    }
    if (op.rfind("Reduce", 0) == 0) return reduction(*n, depth);
    if (elementwise(op)) return pointwise(*n, depth);
    return std::nullopt;
  }

  static std::optional<Candidates> single(std::optional<ir::Tensor> t) {
    if (!t) return std::nullopt;
    return Candidates{std::move(*t)};
  }

  std::optional<Candidates> pointwise(const ir::Node& n, int depth) {
    k::Kernel kernel = k::find_kernel(n);
    if (!kernel || n.num_outputs() != 1 || !n.output(0)) return std::nullopt;
    std::vector<Candidates> ins;
    for (const ir::Value* in : n.inputs()) {
      if (!in) {
        ins.push_back(Candidates{});  // an omitted optional input (Clip's bounds)
        continue;
      }
      auto c = of(in, depth + 1);
      if (!c) return std::nullopt;
      ins.push_back(std::move(*c));
    }
    // Every combination of the operands' candidates (a handful at most).
    Candidates out;
    std::vector<size_t> pick(ins.size(), 0);
    k::Limits limits;
    for (;;) {
      std::vector<const ir::Tensor*> args;
      for (size_t i = 0; i < ins.size(); ++i) args.push_back(ins[i].empty() ? nullptr : &ins[i][pick[i]]);
      auto r = kernel(n, args, limits);
      if (!r || r->size() != 1 || (*r)[0].dtype() != n.output(0)->type().elem() || (*r)[0].rank() != 0)
        return std::nullopt;
      add(out, std::move((*r)[0]));
      if (out.size() > kMaxCandidates) return std::nullopt;
      size_t i = 0;
      while (i < ins.size() && (ins[i].empty() || ++pick[i] == ins[i].size())) {
        if (!ins[i].empty()) pick[i] = 0;
        ++i;
      }
      if (i == ins.size()) break;
    }
    return out;
  }

  // A reduction of a uniform tensor is its value (max, min, mean) over a non-empty extent; over an
  // empty one ONNX gives the reduction's identity. When the input may be empty both are candidates.
  std::optional<Candidates> reduction(const ir::Node& n, int depth) {
    const std::string& op = n.op_type();
    if (op != "ReduceMax" && op != "ReduceMin" && op != "ReduceMean" && op != "ReduceSum" && op != "ReduceProd")
      return std::nullopt;
    auto c = of(n.input(0), depth + 1);
    if (!c || !n.output(0)) return std::nullopt;
    const ir::Type& t = n.input(0)->type();
    bool nonempty = t.has_rank();
    if (nonempty)
      for (const ir::DimExpr& d : t.dims()) {
        std::optional<int64_t> lo = d.is_unknown() ? std::nullopt : size_lower_bound(T_, d);
        if (!lo || *lo < 1) nonempty = false;
      }
    Candidates out;
    for (const ir::Tensor& x : *c) {
      auto a = k::load(x);
      if (!a) return std::nullopt;
      double v = a->is_float() ? a->f[0] : static_cast<double>(a->i[0]);
      // Sum and product change with the count unless the value is their identity (or absorbing 0).
      bool keeps = op == "ReduceMax" || op == "ReduceMin" || op == "ReduceMean" ||
                   (op == "ReduceSum" && v == 0) || (op == "ReduceProd" && (v == 1 || (v == 0 && nonempty)));
      if (!keeps) return std::nullopt;
      add(out, x);
    }
    if (!nonempty) {
      auto id = empty_reduction(op, t.elem());
      if (!id) return std::nullopt;  // (ReduceMean of nothing is NaN in PyTorch, undefined in ONNX)
      add(out, std::move(*id));
    }
    for (const ir::Tensor& x : out)
      if (x.dtype() != n.output(0)->type().elem()) return std::nullopt;
    return out;
  }

  Torch& T_;
  std::unordered_map<const ir::Value*, std::optional<Candidates>> memo_;
};

}  // namespace

std::optional<ir::Tensor> uniform_value(Torch& T, const ir::Value* v) {
  Uniform u(T);
  auto c = u.of(v);
  if (!c || c->size() != 1) return std::nullopt;
  return std::move((*c)[0]);
}

}  // namespace onnxify::torch
