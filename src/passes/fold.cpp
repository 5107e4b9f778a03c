// fold: constant folding.
//
// 1. A node whose inputs are all constants and whose op has a kernel (kernels/kernels.def) is
//    evaluated; its results become initializers of its graph. Constant nodes become initializers.
// 2. Shape arithmetic is folded even when tensors are not constant: the value of Shape(x) is the
//    list of x's dims as DimExprs, known or symbolic. These "symbolic values" flow through
//    Gather/Slice/Concat/Squeeze/Unsqueeze/Reshape/Cast/Identity and integer Add/Sub/Mul (and Div
//    when it divides exactly); wherever every element ends up a constant, the node folds. So
//    `Gather(Shape(x), 1)` folds when dim 1 of x is static although dim 0 is a symbolic batch,
//    which keeps dynamic-shape graphs small.
//
// A result is kept only if it is at most options.fold_max_bytes, or it is a zero-copy view of a
// constant this node alone uses (a Reshape of a weight), so folding never grows the model; a
// Transpose of such a constant feeding a Conv is evaluated whatever its size (limits_for).
// Inputs left unused are removed by dce.
#include <algorithm>
#include <unordered_map>
#include <unordered_set>

#include "passes/kernels/array.h"
#include "passes/kernels/kernels.h"
#include "passes/passes.h"

namespace onnxify::passes {

namespace {

using ir::DimExpr;
using ir::ElementType;
using ir::Graph;
using ir::Node;
using ir::Tensor;
using ir::Value;

// A small integer tensor whose elements are DimExprs (constants or symbolic).
struct SymValue {
  ElementType dtype = ElementType::Int64;
  std::vector<int64_t> shape;
  std::vector<DimExpr> elems;
  bool all_const() const {
    for (DimExpr d : elems)
      if (!d.is_const()) return false;
    return true;
  }
};

constexpr int64_t kMaxSymElems = 64;

bool int_shape_type(ElementType t) { return t == ElementType::Int64 || t == ElementType::Int32; }

class Folder {
 public:
  explicit Folder(const PassOptions& o) {
    limits_.opset = o.opset;
    limits_.max_bytes = o.fold_max_bytes;
  }

  void graph(Graph& g) {
    bool inlined = false;
    for (Node* n : g.nodes()) {
      if (inline_if(g, n)) {
        inlined = true;
        continue;
      }
      for (Graph* r : n->regions()) graph(*r);
      if (!n->has_regions()) node(g, n);
    }
    if (inlined) graph(g);  // fold what the inlined branches brought (each round removes an If)
  }

 private:
  void node(Graph& g, Node* n) {
    std::vector<const Tensor*> in;
    bool all_const = true;
    for (Value* v : n->inputs()) {
      in.push_back(v ? v->initializer() : nullptr);
      if (v && !v->initializer()) all_const = false;
    }
    if (kernels::Kernel k = kernels::find_kernel(*n); k && all_const) {
      auto out = k(*n, in, limits_for(*n, in));
      if (out && accept(*n, in, *out)) {
        replace(g, n, std::move(*out));
        return;
      }
    }
    auto sym = symbolic(*n);
    if (!sym || n->num_outputs() != 1 || !n->output(0)) return;
    if (sym->all_const()) {
      std::vector<int64_t> values;
      for (DimExpr d : sym->elems) values.push_back(d.value());
      kernels::Array a = kernels::make(sym->dtype, sym->shape);
      a.i = values;
      std::vector<Tensor> out{kernels::store(a)};
      if (accept(*n, in, out)) replace(g, n, std::move(out));
      return;
    }
    sym_[n->output(0)] = std::move(*sym);
  }

  // A convolution weight stored in another layout (Keras' HWIO kernel given to an OIHW Conv: a
  // Transpose of a constant that nothing else uses, feeding only a Conv) is laid out once here
  // whatever its size: the result replaces the constant, so the model does not grow (accept()
  // checks that), and no Transpose runs per call. Not for MatMul/Gemm weights, whose Transpose
  // becomes transB (fuse_matmul_add) and whose checkpoint bytes stay zero-copy.
  kernels::Limits limits_for(const Node& n, const std::vector<const Tensor*>& in) const {
    kernels::Limits l = limits_;
    if (!n.is("Transpose") || in.size() != 1 || !in[0] || n.input(0)->uses().size() != 1) return l;
    const auto& uses = n.output(0)->uses();
    if (!uses.empty() && std::all_of(uses.begin(), uses.end(), [](const ir::Use& u) {
          return u.user && (u.user->is("Conv") || u.user->is("ConvTranspose"));
        }))
      l.max_bytes = std::max(l.max_bytes, in[0]->nbytes());
    return l;
  }

  // An If whose condition became a constant is replaced by the branch it takes: no If whose
  // condition is known at conversion time is left in the graph.
  bool inline_if(Graph& g, Node* n) {
    if (!n->is("If") || !n->input(0) || !n->input(0)->initializer()) return false;
    const Tensor* c = n->input(0)->initializer();
    if (c->numel() != 1) return false;
    const ir::Attribute* a = n->attr(c->float_at(0) != 0 ? "then_branch" : "else_branch");
    if (!a || a->kind() != ir::AttrKind::Graph) return false;
    Graph& b = a->g();
    if (b.num_outputs() != n->num_outputs()) return false;
    while (b.num_initializers() > 0) g.adopt_initializer(b.initializer(0));
    ir::ValueMap map;
    for (Node* bn : b.nodes()) g.clone_node(*bn, map, n);
    for (size_t i = 0; i < n->num_outputs(); ++i) {
      Value* o = b.output(i);
      auto it = map.find(o);
      Value* r = it != map.end() ? it->second : o;
      if (n->output(i)) n->output(i)->replace_all_uses_with(r);
    }
    g.erase(n);
    return true;
  }

  // Results must match the declared element types and respect the size limit.
  bool accept(const Node& n, const std::vector<const Tensor*>& in, const std::vector<Tensor>& out) const {
    if (out.size() != n.num_outputs()) return false;
    for (size_t i = 0; i < out.size(); ++i) {
      const Value* v = n.output(i);
      if (!v) continue;
      if (v->type().is_tensor() && v->type().elem() != out[i].dtype()) return false;
      if (v->type().is_tensor() && v->type().has_rank() && v->type().rank() != out[i].rank()) return false;
      if (out[i].nbytes() <= limits_.max_bytes || n.is("Constant")) continue;
      // A view of a constant only this node uses adds nothing to the model; nor does a result no
      // bigger than such a constant, which it replaces (a write into a constant array: ScatterND).
      bool replaces = false;
      for (size_t k = 0; k < in.size(); ++k)
        if (in[k] && in[k]->nbytes() > 0 && n.input(k)->uses().size() == 1 &&
            (out[i].bytes().identity() == in[k]->bytes().identity() || out[i].nbytes() <= in[k]->nbytes()))
          replaces = true;
      if (!replaces) return false;
    }
    return true;
  }

  void replace(Graph& g, Node* n, std::vector<Tensor> out) {
    std::vector<Value*> inputs(n->inputs().begin(), n->inputs().end());
    for (size_t i = 0; i < out.size(); ++i) {
      Value* v = n->output(i);
      if (!v) continue;
      Value* c = g.add_initializer(std::move(out[i]), v->name());
      made_.insert(c);
      v->replace_all_uses_with(c);
    }
    g.erase(n);
    // A constant this pass made that nothing reads any more is dropped now, not by dce later: a chain
    // of writes into one array (numpy's `a[i, idx] = ...` in a loop, each write folded in turn) would
    // otherwise keep every intermediate copy in memory and in cse's tables.
    for (Value* in : inputs) {
      if (!in || !made_.count(in) || in->has_uses() || in->graph() != &g) continue;
      bool output = false;
      for (size_t k = 0; k < g.num_outputs() && !output; ++k) output = g.output(k) == in;
      if (output) continue;
      made_.erase(in);
      g.erase_initializer(in);
    }
  }

  // ---- symbolic values ----------------------------------------------------------------------

  std::optional<SymValue> sym_of(const Value* v) const {
    if (!v) return std::nullopt;
    if (auto it = sym_.find(v); it != sym_.end()) return it->second;
    const Tensor* t = v->initializer();
    if (!t || !int_shape_type(t->dtype()) || t->numel() > kMaxSymElems) return std::nullopt;
    SymValue s{t->dtype(), t->shape(), {}};
    for (int64_t k = 0; k < t->numel(); ++k) s.elems.emplace_back(t->int_at(k));
    return s;
  }

  std::optional<SymValue> symbolic(const Node& n) {
    if (!n.domain().empty()) return std::nullopt;
    const std::string& op = n.op_type();
    if (op == "Shape") return shape_of(n);
    if (op == "Size") {
      const ir::Type& t = n.input(0) ? n.input(0)->type() : ir::Type();
      if (!t.is_tensor() || !t.has_rank()) return std::nullopt;
      return SymValue{ElementType::Int64, {}, {t.numel()}};
    }
    if (op == "Cast") {
      auto x = sym_of(n.input(0));
      auto to = ir::element_type_from_onnx(static_cast<int>(n.attr_int("to", 0)));
      if (!x || !to || !int_shape_type(*to)) return std::nullopt;
      x->dtype = *to;
      return x;
    }
    if (op == "Add" || op == "Sub" || op == "Mul" || op == "Div" || op == "Max" || op == "Min")
      return arithmetic(n);
    if (op == "Gather" || op == "Slice" || op == "Concat" || op == "Squeeze" || op == "Unsqueeze" ||
        op == "Reshape" || op == "Identity" || op == "Flatten" || op == "Expand" || op == "Tile" ||
        op == "Transpose")
      return movement(n);
    return std::nullopt;
  }

  std::optional<SymValue> shape_of(const Node& n) {
    const Value* x = n.input(0);
    if (!x || !x->type().is_tensor() || !x->type().has_rank()) return std::nullopt;
    const auto& dims = x->type().dims();
    int64_t r = static_cast<int64_t>(dims.size());
    int64_t start = n.attr_int("start", 0), end = n.attr_int("end", r);
    if (start < 0) start += r;
    if (end < 0) end += r;
    start = std::clamp<int64_t>(start, 0, r);
    end = std::clamp<int64_t>(end, 0, r);
    SymValue s;
    for (int64_t k = start; k < end; ++k) {
      DimExpr d = dims[static_cast<size_t>(k)];
      if (d.is_unknown()) return std::nullopt;
      s.elems.push_back(d);
    }
    s.shape = {static_cast<int64_t>(s.elems.size())};
    return s;
  }

  std::optional<SymValue> arithmetic(const Node& n) {
    if (n.num_inputs() != 2) return std::nullopt;
    auto a = sym_of(n.input(0)), b = sym_of(n.input(1));
    if (!a || !b || a->dtype != b->dtype) return std::nullopt;
    auto shape = kernels::broadcast({a->shape, b->shape});
    if (!shape) return std::nullopt;
    auto ia = kernels::broadcast_index(a->shape, *shape), ib = kernels::broadcast_index(b->shape, *shape);
    SymValue out{a->dtype, *shape, {}};
    const std::string& op = n.op_type();
    for (size_t k = 0; k < ia.size(); ++k) {
      DimExpr x = a->elems[static_cast<size_t>(ia[k])], y = b->elems[static_cast<size_t>(ib[k])];
      DimExpr r;
      if (op == "Add")
        r = x + y;
      else if (op == "Sub")
        r = x - y;
      else if (op == "Mul")
        r = x * y;
      else if (op == "Max")
        r = ir::max(x, y);
      else if (op == "Min")
        r = ir::min(x, y);
      else {
        // ONNX integer Div truncates; DimExpr floor_div floors. They agree when the division is exact.
        if (y.is_const() && y.value() == 0) return std::nullopt;
        r = ir::floor_div(x, y);
        if (r * y != x) return std::nullopt;
      }
      if (r.is_unknown()) return std::nullopt;
      out.elems.push_back(r);
    }
    return out;
  }

  // Data movement on symbolic values: run the real kernel on tensors of element positions, then
  // read the positions back. The data inputs are the symbolic ones; others must be constant.
  std::optional<SymValue> movement(const Node& n) {
    std::vector<const Tensor*> in;
    std::vector<Tensor> keep;
    keep.reserve(n.num_inputs());
    std::vector<DimExpr> table;
    ElementType dtype = ElementType::Undefined;
    size_t data_inputs = n.is("Concat") ? n.num_inputs() : 1;
    for (size_t i = 0; i < n.num_inputs(); ++i) {
      const Value* v = n.input(i);
      if (i >= data_inputs) {
        in.push_back(v ? v->initializer() : nullptr);
        if (v && !v->initializer()) return std::nullopt;
        continue;
      }
      auto s = sym_of(v);
      if (!s || (dtype != ElementType::Undefined && s->dtype != dtype)) return std::nullopt;
      dtype = s->dtype;
      std::vector<int64_t> pos;
      for (DimExpr d : s->elems) {
        pos.push_back(static_cast<int64_t>(table.size()));
        table.push_back(d);
      }
      keep.push_back(Tensor::from_values<int64_t>(ElementType::Int64, s->shape, pos));
      in.push_back(&keep.back());
    }
    auto k = kernels::find_kernel(n);
    if (!k) return std::nullopt;
    auto out = k(n, in, limits_);
    if (!out || out->size() != 1 || (*out)[0].numel() > kMaxSymElems) return std::nullopt;
    const Tensor& t = (*out)[0];
    SymValue r{dtype, t.shape(), {}};
    for (int64_t e = 0; e < t.numel(); ++e) r.elems.push_back(table[static_cast<size_t>(t.int_at(e))]);
    return r;
  }

  kernels::Limits limits_;
  std::unordered_map<const Value*, SymValue> sym_;
  std::unordered_set<const Value*> made_;  // initializers this pass added
};

}  // namespace

Status fold(ir::Graph& graph, const PassOptions& options) {
  Folder f(options);
  f.graph(graph);
  return Status::ok();
}

}  // namespace onnxify::passes
