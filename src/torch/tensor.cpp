// Tensors: construction, lazy constants, functionalized in-place writes and views, and the Python
// type torch.Tensor (attributes and the methods that are not ops; operators live in operators.cpp,
// indexing in index.cpp, ops in the op table).
#include <fmt/core.h>

#include <cstring>

#include "torch/index.h"
#include "torch/ops.h"

namespace onnxify::torch {

using eval::Args;
using eval::Interp;
using eval::Value;
using ir::DimExpr;

namespace {
thread_local Torch* g_torch = nullptr;
constexpr int64_t kMaxInlineFill = 1 << 16;  // static fills up to this many elements become data
}  // namespace

Torch& torch_state() { return *g_torch; }
Torch* torch_state_opt() { return g_torch; }
void set_torch_state(Torch* t) { g_torch = t; }

bool is_tensor(const Value& v) {
  Torch* T = g_torch;
  return T && v.is_obj() && v.obj()->type->is_subtype_of(T->tensor_type);
}

static eval::Ref<TensorObj> alloc_tensor(Torch& T) { return T.I.make<TensorObj>(T.tensor_type); }

Value new_tensor(Torch& T, ir::Value* value, DType dtype, std::vector<DimExpr> shape) {
  auto t = alloc_tensor(T);
  t->value = value;
  t->dtype = dtype;
  t->shape = std::move(shape);
  for (DimExpr& d : t->shape) d = simplify_sizes(T, d);
  if (value && value->type().is_unknown()) value->set_type(t->ir_type());
  return t.take_value();
}

Value copy_of(Torch& T, TensorObj* t) { return new_tensor(T, value_of(T, t), t->dtype, t->shape); }

Value new_constant(Torch& T, ir::Tensor data, DType dtype) {
  auto t = alloc_tensor(T);
  t->dtype = dtype;
  for (int64_t d : data.shape()) t->shape.push_back(d);
  t->data = std::make_shared<const ir::Tensor>(std::move(data));
  return t.take_value();
}

Value new_fill(Torch& T, double fill, DType dtype, std::vector<DimExpr> shape) {
  auto t = alloc_tensor(T);
  t->dtype = dtype;
  t->shape = std::move(shape);
  for (DimExpr& d : t->shape) d = simplify_sizes(T, d);
  t->fill = fill;
  return t.take_value();
}

// ---- lazy constants -------------------------------------------------------------------------------

// A tensor of `n` copies of `v` in element type `e`.
static ir::Tensor splat(ir::ElementType e, std::vector<int64_t> shape, double v, int64_t n) {
  size_t w = ir::info(e).bits / 8;
  std::vector<uint8_t> bytes(static_cast<size_t>(n) * w);
  uint8_t one[8] = {};
  switch (e) {
    case ir::ElementType::Float32: {
      float f = static_cast<float>(v);
      std::memcpy(one, &f, 4);
      break;
    }
    case ir::ElementType::Float64: std::memcpy(one, &v, 8); break;
    case ir::ElementType::Float16: {
      uint16_t h = ir::float_to_half(static_cast<float>(v));
      std::memcpy(one, &h, 2);
      break;
    }
    case ir::ElementType::BFloat16: {
      uint16_t h = ir::float_to_bfloat16(static_cast<float>(v));
      std::memcpy(one, &h, 2);
      break;
    }
    case ir::ElementType::Bool: one[0] = v != 0; break;
    default: {
      int64_t i = int64_of(v);
      std::memcpy(one, &i, w);  // little-endian truncation
    }
  }
  for (int64_t k = 0; k < n; ++k) std::memcpy(bytes.data() + k * w, one, w);
  return ir::Tensor(e, std::move(shape), Bytes::from_vector(std::move(bytes)));
}

static void materialize_values(Torch& T, TensorObj* t);

// Random and uninitialized tensors become zeros in the graph (random ones are reported), which are no
// conversion-time constants: values computed from them are not known (const_eval.cpp).
static void materialize(Torch& T, TensorObj* t) {
  materialize_values(T, t);
  if (t->random)
    mark_opaque(T, t->value, "random values (torch.rand/randn, nn.init), which no export can reproduce");
  else if (t->uninitialized)
    mark_opaque(T, t->value, "uninitialized values (torch.empty)");
}

static void materialize_values(Torch& T, TensorObj* t) {
  // A parameter that is still a placeholder in forward (torch.empty, nn.init, torch.randn): its
  // values come from the checkpoint, which has none for a parameter outside the state_dict (a module
  // kept in a plain list or dict is not registered). Zeros would be a silently wrong model.
  if (!T.building && (t->uninitialized || t->random) && t->requires_grad)
    unsupported(T, "a parameter that is not in the model's state_dict",
                "no checkpoint gives its values: it belongs to a module or tensor that is not registered (kept in a "
                "plain Python list, dict or non-Module object); use nn.ModuleList / nn.ModuleDict / nn.ParameterList "
                "so that state_dict() holds it");
  // An op reading a placeholder while building. Reading uninitialized memory (torch.empty) gives
  // values as unknowable as random ones, except in an in-place write into it (pe[:, 0::2] = ...),
  // which defines what it writes.
  else if ((t->random || (t->uninitialized && T.uninitialized_reads)) && T.random_reads)
    T.random_reads->push_back(eval::Ref<TensorObj>(t));
  else if (t->random)
    unsupported(T,
                "a tensor of random or uninitialized values (torch.rand/randn/empty, nn.init) used in the exported "
                "computation",
                "its values differ on every run; only parameters and buffers get values, from the checkpoint (a value "
                "computed from them in __init__ can be kept with register_buffer)");
  if (t->data) {
    t->value = T.rec.constant(*t->data);
    return;
  }
  double f = t->fill.value_or(0.0);
  ir::ElementType e = elem(t->dtype);
  if (e == ir::ElementType::Undefined)
    throw Diagnostic::error(fmt::format("tensors of dtype torch.{} cannot be exported to ONNX", info(t->dtype).name),
                            T.rec.location());
  std::vector<int64_t> static_shape;
  int64_t n = 1;
  for (DimExpr d : t->shape) {
    if (!d.is_const()) {
      n = -1;
      break;
    }
    static_shape.push_back(d.value());
    n *= d.value();
  }
  if (n >= 0 && n <= kMaxInlineFill) {
    t->value = T.rec.constant(splat(e, static_shape, f, n));
    return;
  }
  ir::Value* shape = T.rec.shape_value(t->shape);
  t->value = T.rec.emit("ConstantOfShape", {shape}, t->ir_type(), {{"value", splat(e, {1}, f, 1)}});
}

// ---- random placeholders while the model is built ------------------------------------------------------

// A tensor whose values are random, like torch.randn's: a placeholder the checkpoint fills.
static void make_placeholder(TensorObj* t) {
  t->value = nullptr;
  t->data.reset();
  t->fill.reset();
  t->uninitialized = false;
  t->random = true;
  t->base = eval::Ref<TensorObj>();
  t->view = ViewSpec{};
  ++t->version;
}

bool has_random_values(const TensorObj* t) {
  for (; t; t = t->base.get())
    if (t->random) return true;
  return false;
}

void make_random_inplace(TensorObj* t) {
  // A write into part of a tensor (w[0].normal_(), w.data.uniform_()) makes the whole tensor it views
  // random: onnxify keeps no per-element record, and the checkpoint gives a parameter's values whole.
  TensorObj* root = t;
  while (root->base) root = root->base.get();
  make_placeholder(root);
  if (t != root) t->value = nullptr;  // a view: re-derived from the placeholder when read
}

Value placeholder_scope(Torch& T, bool inplace, const std::function<Value()>& op) {
  std::vector<eval::Ref<TensorObj>> reads;
  std::vector<eval::Ref<TensorObj>>* outer = T.random_reads;
  bool outer_uninitialized = T.uninitialized_reads;
  T.random_reads = &reads;
  T.uninitialized_reads = !inplace;
  auto restore = [&] {
    T.random_reads = outer;
    T.uninitialized_reads = outer_uninitialized;
    // The random tensors stay placeholders: a later read materializes (and, in forward, reports) again.
    for (auto& t : reads) t->value = nullptr;
    if (outer)
      for (auto& t : reads) outer->push_back(t);
  };
  Value r;
  try {
    r = op();
  } catch (...) {
    restore();
    throw;
  }
  restore();
  if (reads.empty()) return r;
  std::vector<eval::Ref<TensorObj>> outs;
  if (is_tensor(r)) {
    outs.emplace_back(as_tensor(r));
    if (inplace)
      for (TensorObj* b = as_tensor(r)->base.get(); b; b = b->base.get()) outs.emplace_back(b);
  } else if (eval::is_list(r) || eval::is_tuple(r)) {
    for (const Value& item : eval::is_list(r) ? eval::as_list(r)->items : eval::as_tuple(r)->items)
      if (is_tensor(item)) outs.emplace_back(as_tensor(item));
  }
  for (auto& t : outs) make_placeholder(t.get());
  return r;
}

// ---- views -------------------------------------------------------------------------------------------

void make_view(TensorObj* view, TensorObj* base, ViewSpec spec) {
  view->base = eval::Ref<TensorObj>(base);
  view->base_version = base->version;
  view->view = std::move(spec);
}

static std::vector<int64_t> inverse_perm(const std::vector<int64_t>& p) {
  std::vector<int64_t> inv(p.size());
  for (size_t i = 0; i < p.size(); ++i) inv[static_cast<size_t>(p[i])] = static_cast<int64_t>(i);
  return inv;
}

// The view's value computed from its base's current value.
static ir::Value* derive_view(Torch& T, TensorObj* base, TensorObj* view) {
  ir::Value* b = value_of(T, base);
  switch (view->view.kind) {
    case ViewSpec::Kind::Alias: return b;
    case ViewSpec::Kind::Reshape:
      return reshape_value(T, b, view->shape, elem(view->dtype));
    case ViewSpec::Kind::Permute: return T.rec.emit("Transpose", {b}, view->ir_type(), {{"perm", view->view.perm}});
    case ViewSpec::Kind::Index: {
      Value r = index_get(T, base, view->view.key, /*as_view=*/false);
      return value_of(T, as_tensor(r));
    }
    case ViewSpec::Kind::Expand: return T.rec.emit("Expand", {b, T.rec.shape_value(view->shape)}, view->ir_type());
    case ViewSpec::Kind::MaybeCopy:
      throw Diagnostic::error(
          "this tensor was reshaped from a possibly non-contiguous tensor whose values changed since; PyTorch gives a "
          "copy or a view depending on strides, which onnxify does not track",
          T.rec.location())
          .with_help("call .contiguous() or .clone() before reshape, or reshape after the in-place write");
    case ViewSpec::Kind::None: break;
  }
  return b;
}

// The base's new value after the view was overwritten with `v`.
static ir::Value* write_back(Torch& T, TensorObj* base, TensorObj* view, ir::Value* v) {
  switch (view->view.kind) {
    case ViewSpec::Kind::Alias: return v;
    case ViewSpec::Kind::Reshape: return reshape_value(T, v, base->shape, elem(base->dtype));
    case ViewSpec::Kind::Permute:
      return T.rec.emit("Transpose", {v}, base->ir_type(), {{"perm", inverse_perm(view->view.perm)}});
    case ViewSpec::Kind::Index: return index_put_value(T, base, view->view.key, v, view->dtype, view->shape);
    case ViewSpec::Kind::Expand: {
      // An expand that only adds or keeps dims of size 1 (x.expand((1, -1)) of a vector) maps each
      // element to its own: the write goes back as a reshape. Otherwise several elements of the
      // view share one element of the base, and PyTorch refuses the write.
      const auto& vs = view->shape;
      const auto& bs = base->shape;
      bool shared = vs.size() < bs.size();
      size_t lead = shared ? 0 : vs.size() - bs.size();
      for (size_t k = 0; k < vs.size() && !shared; ++k) {
        bool broadcast = k < lead || (bs[k - lead].is_const() && bs[k - lead].value() == 1);
        if (broadcast && !(vs[k].is_const() && vs[k].value() == 1)) shared = true;
      }
      if (!shared) return reshape_value(T, v, base->shape, elem(base->dtype));
      eval::raise(T.I, T.I.exc.RuntimeError,
                  "unsupported operation: more than one element of the written-to tensor refers to a single memory "
                  "location. Please clone() the tensor before performing the operation.");
    }
    case ViewSpec::Kind::MaybeCopy: break;  // assign_inplace detaches such a view instead
    case ViewSpec::Kind::None: break;
  }
  return v;
}

// Whether `v` may be used in the graph being recorded: defined there or in an enclosing graph.
static bool visible_here(Torch& T, ir::Value* v) {
  for (ir::Graph* g = &T.rec.current(); g; g = g->parent_graph())
    if (v->graph() == g) return true;
  return false;
}

ir::Value* value_of(Torch& T, TensorObj* t) {
  if (t->ambiguous_write) {
    // Reported at the write (what to change); the read that makes it matter is a note.
    SourceRange here = T.rec.location();
    Diagnostic d = Diagnostic::error(
        "in-place write to a reshape of a possibly non-contiguous tensor whose original is read afterwards: PyTorch "
        "writes through to the original or only to a copy depending on strides, which onnxify does not track",
        *t->ambiguous_write);
    d.with_note(Diagnostic::note(here.known() ? "the original is read here" : "the original is an output of the model",
                                 here));
    d.with_help("call .clone() (a copy) or .contiguous() before the reshape that is written in place");
    throw d;
  }
  if (t->base) {
    TensorObj* b = t->base.get();
    value_of(T, b);  // brings the base (and its own base) up to date
    // A value derived inside a region that has ended (a branch of an If that read the view while its
    // base had other values) is not visible here: derive it again.
    if (t->base_version != b->version || !t->value || !visible_here(T, t->value)) {
      bool stale = t->value != nullptr;
      t->value = derive_view(T, b, t);
      t->data.reset();
      t->fill.reset();
      t->base_version = b->version;
      if (stale) ++t->version;  // views of this view must be re-derived too

    }
  }
  // A conversion-time constant is materialized where it is first used. If that was inside a
  // region (one branch of an If) and it is used now from outside that region (the other branch,
  // after the If), that value is not visible here: materialize it again in the current graph.
  if (t->value && (t->data || t->fill) && !visible_here(T, t->value)) t->value = nullptr;
  if (!t->value) materialize(T, t);
  return t->value;
}

void assign_inplace(Torch& T, TensorObj* t, ir::Value* v) {
  note_write(T, t);
  t->value = v;
  t->data.reset();
  t->fill.reset();
  t->uninitialized = false;
  t->random = false;  // new values (a write of random ones makes it a placeholder again: dispatch)
  ++t->version;
  if (t->base && t->view.kind == ViewSpec::Kind::MaybeCopy) {
    // A reshape PyTorch makes a view or a copy of depending on strides, which onnxify does not
    // track: the write changes the reshape, and its base and the base's own bases may or may not
    // have changed, so reading any of them from now on is an error (value_of). Code that writes
    // into a fresh reshape and never reads what it came from (funnel's relative-shift mask) is exact.
    for (TensorObj* b = t->base.get(); b; b = b->base.get())
      if (!b->ambiguous_write) b->ambiguous_write = T.rec.location();
    t->base = nullptr;
    t->view = ViewSpec{};
    return;
  }
  if (t->base) {
    TensorObj* b = t->base.get();
    value_of(T, b);
    ir::Value* nb = write_back(T, b, t, v);
    assign_inplace(T, b, nb);
    t->base_version = b->version;
  }
}

// ---- sizes ---------------------------------------------------------------------------------------------

Value make_size_value(Torch& T, DimExpr d) {
  d = simplify_sizes(T, d);
  if (d.is_const()) return Value::integer(d.value());
  auto s = T.I.make<SymIntObj>(T.symint_type);
  s->expr = d;
  return s.take_value();
}

Value make_size_tuple(Torch& T, const std::vector<DimExpr>& dims) {
  auto t = T.I.make<eval::Tuple>(T.size_type);
  for (DimExpr d : dims) t->items.push_back(make_size_value(T, d));
  return t.take_value();
}

bool is_symint(const Value& v) {
  Torch* T = g_torch;
  return T && v.is_obj() && v.obj()->type == T->symint_type;
}

// ---- diagnostics ------------------------------------------------------------------------------------------

static std::string module_note(Torch& T) {
  const std::string& p = T.rec.scope();
  return p.empty() ? "" : fmt::format(" (in module '{}')", p);
}

// The key under which a poison's cause is reported once: derived poisons keep the origin and the
// reason of the value they came from.
static std::string poison_key(const eval::Poison* p) {
  return fmt::format("{}|{}:{}:{}", p->reason, p->origin.file ? p->origin.file->path() : "", p->origin.begin.line,
                     p->origin.begin.col);
}

Value unsupported(Torch& T, const std::string& what, const std::string& why) {
  SourceRange where = T.rec.location();
  Value p = eval::make_poison(T.I, what + "(...)", fmt::format("{} is not supported by onnxify", what), where);
  if (T.reported.insert(poison_key(eval::as<eval::Poison>(p))).second) {
    Diagnostic d = Diagnostic::error(fmt::format("{} is not supported by onnxify{}: {}", what, module_note(T), why), where);
    T.problems.add(std::move(d));
  }
  eval::as<eval::Poison>(p)->reported = true;
  return p;
}

Value poison_reached_op(Torch& T, const Value& poison, const std::string& op) {
  auto* p = eval::as<eval::Poison>(poison);
  if (T.reported.insert(poison_key(p)).second) {
    // Reported where the unknown value was made; the note shows where it reached the graph.
    SourceRange here = T.rec.location();
    bool located = p->origin.known();
    Diagnostic d = Diagnostic::error(fmt::format("'{}' is unknown: {}", p->what, p->reason), located ? p->origin : here);
    d.with_note(Diagnostic::note(fmt::format("it reaches {}{}{}", op, here.known() ? " here" : "", module_note(T)), here));
    T.problems.add(std::move(d));
  }
  Value derived = eval::derive_poison(T.I, poison, op + "(...)");
  eval::as<eval::Poison>(derived)->reported = true;
  return derived;
}

void need_concrete(Torch& T, const std::string& what, const std::string& use) {
  throw Diagnostic::error(fmt::format("{} is only known when the exported model runs, but {} needs a concrete value "
                                      "at conversion time",
                                      what, use),
                          T.rec.location())
      .with_help("only Python values and static sizes can be used here (a tensor-dependent `if` or `while`, or "
                 "`for` over range(size), is recorded as ONNX If/Loop)");
}

}  // namespace onnxify::torch
