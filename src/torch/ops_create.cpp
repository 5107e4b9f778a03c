// Creation ops: zeros/ones/full/empty (+ _like), arange, linspace, logspace, eye, tensor/as_tensor.
// With static arguments they are conversion-time constants (their values stay readable: item(),
// tolist()) that become graph constants only when used; sizes that are symbolic give ConstantOfShape /
// Range nodes. The random factories are in ops_random.cpp.
#include <fmt/core.h>

#include <cmath>
#include <cstring>

#include "torch/control_flow.h"
#include "torch/ops.h"

namespace onnxify::torch {

using eval::Value;
using ir::DimExpr;

namespace {

// A constant tensor of `dt` from values held as doubles.
ir::Tensor make_data(DType dt, std::vector<int64_t> shape, const std::vector<double>& vals) {
  ir::ElementType e = elem(dt);
  size_t w = ir::info(e).bits / 8;
  std::vector<uint8_t> bytes(vals.size() * w);
  for (size_t i = 0; i < vals.size(); ++i) {
    uint8_t* p = bytes.data() + i * w;
    double v = vals[i];
    switch (e) {
      case ir::ElementType::Float32: {
        float f = static_cast<float>(v);
        std::memcpy(p, &f, 4);
        break;
      }
      case ir::ElementType::Float64: std::memcpy(p, &v, 8); break;
      case ir::ElementType::Float16: {
        uint16_t h = ir::float_to_half(static_cast<float>(v));
        std::memcpy(p, &h, 2);
        break;
      }
      case ir::ElementType::BFloat16: {
        uint16_t h = ir::float_to_bfloat16(static_cast<float>(v));
        std::memcpy(p, &h, 2);
        break;
      }
      case ir::ElementType::Bool: *p = v != 0; break;
      default: {
        int64_t i64 = int64_of(v);
        std::memcpy(p, &i64, w);
      }
    }
  }
  return ir::Tensor(e, std::move(shape), Bytes::from_vector(std::move(bytes)));
}

DType dtype_or(OpCall& c, size_t i, DType dflt) {
  std::optional<DType> d = c.a.dtype(i);
  return d ? *d : dflt;
}

DType scalar_dtype(OpCall& c, const Scalar& s) {
  return s.kind == Scalar::Kind::Bool ? DType::Bool : s.kind == Scalar::Kind::Float ? c.T.default_dtype : DType::Int64;
}

// A tensor of `shape` filled with the Python number v; a size known only at run time as the fill
// value is its value expanded to the shape.
Value fill_scalar(OpCall& c, const std::vector<DimExpr>& shape, const Scalar& v, DType dt) {
  if (v.kind == Scalar::Kind::SymInt) {
    ir::Value* fv = cast_to(c.T, c.rec.dim_scalar(v.sym), DType::Int64, dt, {});
    return c.node("Expand", {fv, c.rec.shape_value(shape)}, dt, shape);
  }
  if (v.kind == Scalar::Kind::Int && is_integral(dt, false) && (v.i > (int64_t{1} << 53) || v.i < -(int64_t{1} << 53))) {
    // an int a double cannot hold (a fill of 2**62 + 1): recorded exactly rather than kept as a known fill
    ir::Value* fv = cast_to(c.T, c.rec.const_i64_scalar(v.i), DType::Int64, dt, {});
    return c.node("Expand", {fv, c.rec.shape_value(shape)}, dt, shape);
  }
  return fill_tensor(c, shape, v.as_double(), dt);
}

Value full(OpCall& c) {
  Scalar v = c.a.scalar(1);
  return fill_scalar(c, c.a.dims(0), v, dtype_or(c, 2, scalar_dtype(c, v)));
}

// linspace with a step count or bounds known only at run time (a grid over a symbolic H, from 0.5 to
// H - 0.5): the same two-sided formula as the constant form below, computed in the graph (float64
// for non-float32 dtypes). The bounds are zero-dim values in the working type.
DType linspace_work(DType dt) { return dt == DType::Float32 ? DType::Float32 : DType::Float64; }

Value linspace_runtime(OpCall& c, ir::Value* fa, ir::Value* fb, DimExpr n, DType dt) {
  Recorder& R = c.rec;
  DType work = linspace_work(dt);
  ir::ElementType we = elem(work);
  ir::Type vt = ir::Type::tensor(we, {n});
  ir::Type st = ir::Type::tensor(we, {});
  ir::Value* nv = R.dim_scalar(n);
  ir::Value* i = R.emit("Range", {R.const_i64_scalar(0), nv, R.const_i64_scalar(1)}, ir::Type::tensor(ir::ElementType::Int64, {n}));
  ir::Value* half = R.emit("Div", {nv, R.const_i64_scalar(2)}, ir::Type::tensor(ir::ElementType::Int64, {}));
  ir::Value* first = R.emit("Less", {i, half}, ir::Type::tensor(ir::ElementType::Bool, {n}));
  ir::Value* nm1 = R.emit("Sub", {nv, R.const_i64_scalar(1)}, ir::Type::tensor(ir::ElementType::Int64, {}));
  ir::Value* fi = cast_to(c.T, i, DType::Int64, work, {n});
  ir::Value* fnm1 = cast_to(c.T, nm1, DType::Int64, work, {});
  // step = (b - a) / (n - 1), 0 for a single step.
  ir::Value* more = R.emit("Greater", {nm1, R.const_i64_scalar(0)}, ir::Type::tensor(ir::ElementType::Bool, {}));
  ir::Value* safe = R.emit("Max", {fnm1, R.const_scalar(we, 1)}, st);
  ir::Value* step = R.emit("Div", {R.emit("Sub", {fb, fa}, st), safe}, st);
  step = R.emit("Where", {more, step, R.const_scalar(we, 0)}, st);
  ir::Value* lo = R.emit("Add", {fa, R.emit("Mul", {step, fi}, vt)}, vt);
  ir::Value* back = R.emit("Sub", {fnm1, fi}, vt);
  ir::Value* hi = R.emit("Sub", {fb, R.emit("Mul", {step, back}, vt)}, vt);
  ir::Value* v = R.emit("Where", {first, lo, hi}, vt);
  return c.out(cast_to(c.T, v, work, dt, {n}), dt, {n});
}

// arange(start, end, step): a constant when static, else a Range node.
Value arange(OpCall& c, const Scalar& start, const Scalar& end, const Scalar& step, std::optional<DType> dt_arg) {
  bool any_float = start.is_floating() || end.is_floating() || step.is_floating();
  DType dt = dt_arg ? *dt_arg : any_float ? c.T.default_dtype : DType::Int64;
  if (step.kind != Scalar::Kind::SymInt && step.as_double() == 0) c.runtime_error("step must be nonzero");
  if (start.kind != Scalar::Kind::SymInt && end.kind != Scalar::Kind::SymInt && step.kind != Scalar::Kind::SymInt) {
    double a = start.as_double(), b = end.as_double(), s = step.as_double();
    double n = std::ceil((b - a) / s);
    if (n < 0) c.runtime_error("upper bound and larger bound inconsistent with step sign");
    std::vector<double> vals(static_cast<size_t>(n));
    for (size_t i = 0; i < vals.size(); ++i) vals[i] = a + static_cast<double>(i) * s;
    return new_constant(c.T, make_data(dt, {static_cast<int64_t>(vals.size())}, vals), dt);
  }
  if (any_float || !is_integral(dt, false)) {
    // Float ranges: computed in double as PyTorch does (start + i * step, length ceil((end - start) / step)),
    // then converted; the length is a new run-time size.
    auto val = [&](const Scalar& x) {
      if (x.kind == Scalar::Kind::SymInt) return cast_to(c.T, c.rec.dim_scalar(x.sym), DType::Int64, DType::Float64, {});
      return c.rec.const_scalar(ir::ElementType::Float64, x.as_double());
    };
    ir::Value* v = c.rec.emit("Range", {val(start), val(end), val(step)},
                              ir::Type::tensor(ir::ElementType::Float64, {DimExpr::unknown()}));
    DimExpr n = c.rec.fresh_symbol(v, 0);
    v->set_type(ir::Type::tensor(ir::ElementType::Float64, {n}));
    return c.out(cast_to(c.T, v, DType::Float64, dt, {n}), dt, {n});
  }
  auto dim = [&](const Scalar& s) { return s.kind == Scalar::Kind::SymInt ? s.sym : DimExpr(s.i); };
  DimExpr a = dim(start), b = dim(end), s = dim(step);
  if (!s.is_const()) return c.unsupported("arange with a symbolic step and symbolic bounds");
  // ceil((b - a) / s); for a negative step (range(N - 1, -1, -1)) that is ceil((a - b) / -s).
  DimExpr n = s.value() > 0 ? ir::ceil_div(b - a, s) : ir::ceil_div(a - b, -s);
  ir::Value* v = c.rec.emit("Range", {c.rec.dim_scalar(a), c.rec.dim_scalar(b), c.rec.dim_scalar(s)},
                            ir::Type::tensor(ir::ElementType::Int64, {n}));
  return c.out(cast_to(c.T, v, DType::Int64, dt, {n}), dt, {n});
}

// A bound of arange.run_time / linspace.run_time: a tensor as it is, a Python number as a zero-dim constant.
Value bound_tensor(OpCall& c, const Value& v, const char* name, const char* op = "arange") {
  if (is_tensor(v)) return v;
  int64_t i;
  double d;
  if (v.is_bool() || eval::int_value(v, &i)) return new_fill(c.T, v.is_bool() ? v.b() : static_cast<double>(i), DType::Int64, {});
  if (is_symint(v)) return c.out(index_value(c.T, v), DType::Int64, {});
  if (eval::float_value(v, &d)) return new_fill(c.T, d, c.T.default_dtype, {});
  eval::raisef(c.I, c.I.exc.TypeError, "{}(): argument '{}' must be Number, not {}", op, name, c.I.type_of(v)->name->view());
}

// arange whose bounds are zero-dim float tensors only known at run time (funnel's relative positions:
// arange(pooled[0] - pos[0] + n * stride, pooled[0] - pos[-1] - 1, -stride, dtype=long)). PyTorch
// reads them as Scalars; they have no conversion-time value, so this row takes them as tensors and
// computes in double as the float ranges above do.
Value arange_tensors(OpCall& c, TensorObj* start, TensorObj* end, const Scalar& step, std::optional<DType> dt_arg) {
  if (start->rank() != 0 || end->rank() != 0)
    c.runtime_error("arange(): only zero-dimensional tensors can stand for its start and end");
  bool any_float = is_floating(start->dtype) || is_floating(end->dtype) || step.is_floating();
  DType dt = dt_arg ? *dt_arg : any_float ? c.T.default_dtype : DType::Int64;
  if (step.kind != Scalar::Kind::SymInt && step.as_double() == 0) c.runtime_error("step must be nonzero");
  auto f64 = [&](TensorObj* t) { return cast_to(c.T, c.v(t), t->dtype, DType::Float64, {}); };
  ir::Value* s = step.kind == Scalar::Kind::SymInt
                     ? cast_to(c.T, c.rec.dim_scalar(step.sym), DType::Int64, DType::Float64, {})
                     : c.rec.const_scalar(ir::ElementType::Float64, step.as_double());
  ir::Value* v = c.rec.emit("Range", {f64(start), f64(end), s}, ir::Type::tensor(ir::ElementType::Float64, {DimExpr::unknown()}));
  DimExpr n = c.rec.fresh_symbol(v, 0);
  v->set_type(ir::Type::tensor(ir::ElementType::Float64, {n}));
  return c.out(cast_to(c.T, v, DType::Float64, dt, {n}), dt, {n});
}

// Python data (nested lists/tuples of numbers, or tensors) as a tensor.
struct Collected {
  std::vector<int64_t> shape;
  std::vector<double> vals;
  bool any_float = false, all_bool = true;
  std::vector<DimExpr> syms;  // every leaf as a size (data holding symbolic ints)
  std::vector<bool> sym_leaf;  // which leaves are symbolic ints
  bool symbolic = false;
};

void collect(OpCall& c, const Value& v, size_t depth, Collected& out) {
  // (a range is a sequence to torch.tensor too: x.new_tensor(range(w)))
  if (eval::is_list(v) || eval::is_tuple(v) || eval::has_layout(v, eval::Layout::Range)) {
    std::vector<Value> items = eval::to_vector(c.I, v);
    if (out.shape.size() <= depth) out.shape.push_back(static_cast<int64_t>(items.size()));
    else if (out.shape[depth] != static_cast<int64_t>(items.size()))
      c.value_error(fmt::format("expected sequence of length {} at dim {} (got {})", out.shape[depth], depth, items.size()));
    for (const Value& it : items) collect(c, it, depth + 1, out);
    return;
  }
  if (depth != out.shape.size()) c.value_error("torch.tensor: inconsistent nesting of the data");
  double d;
  int64_t i;
  if (v.is_bool()) {
    out.vals.push_back(v.b());
  } else if (eval::int_value(v, &i)) {
    out.all_bool = false;
    out.vals.push_back(static_cast<double>(i));
  } else if (eval::float_value(v, &d)) {
    out.all_bool = false;
    out.any_float = true;
    out.vals.push_back(d);
  } else if (is_symint(v)) {
    out.all_bool = false;
    out.symbolic = true;
    out.vals.push_back(0);
  } else if (is_tensor(v) && one_element(as_tensor(v))) {
    // A one-element tensor (zero-dim, or [1] as a parameter made with torch.Tensor([0.5])): PyTorch
    // reads its value as a number; here that value must be known at conversion time.
    TensorObj* t = as_tensor(v);
    auto known = need_values(c.T, t, "torch.tensor() of a list holding it");
    out.all_bool &= t->dtype == DType::Bool;
    out.any_float |= is_floating(t->dtype);
    out.vals.push_back(is_floating(t->dtype) ? known->float_at(0) : static_cast<double>(known->int_at(0)));
  } else {
    eval::raisef(c.I, c.I.exc.TypeError, "new(): invalid data type '{}'", eval::type_name(c.I, v));
  }
  out.sym_leaf.push_back(is_symint(v));
  if (is_symint(v)) out.syms.push_back(eval::as<SymIntObj>(v)->expr);
  else out.syms.push_back(DimExpr(int64_of(out.vals.back())));
}

// torch.tensor of (nested) lists whose leaves are one-element tensors, some only known at run time
// (a score computed per step, a weight recurrence on a parameter), and numbers: eager copies their
// values, which is stacking them. Sets *dt to the dtype PyTorch infers, the promotion of the leaves'
// (a Python int counts as int64, a float as the default dtype); false when a leaf is something
// else, a list is empty, or every value is known at conversion time (the usual path).
bool runtime_scalars(OpCall& c, const Value& v, std::optional<DType>* dt, bool* runtime) {
  auto take = [dt](DType d) { *dt = *dt ? promote_types(**dt, d) : d; };
  if (is_tensor(v)) {
    TensorObj* t = as_tensor(v);
    if (!one_element(t)) return false;
    take(t->dtype);
    if (!known_values(c.T, t)) *runtime = true;
    return true;
  }
  if (eval::is_list(v) || eval::is_tuple(v)) {
    const auto& xs = eval::is_list(v) ? eval::as_list(v)->items : eval::as_tuple(v)->items;
    if (xs.empty()) return false;
    for (const Value& x : xs)
      if (!runtime_scalars(c, x, dt, runtime)) return false;
    return true;
  }
  if (v.is_bool()) take(DType::Bool);
  else if (v.is_int()) take(DType::Int64);
  else if (v.is_float()) take(c.T.default_dtype);
  else return false;
  return true;
}

Value stack_scalars(OpCall& c, const Value& v, DType dt) {
  if (is_tensor(v)) {
    Value x = as_tensor(v)->rank() ? call_op(c.T, "reshape", {v, eval::new_list(c.I, {})}) : v;
    return call_op(c.T, "to", {x, c.T.dtype_object(dt)});
  }
  if (!eval::is_list(v) && !eval::is_tuple(v)) return new_fill(c.T, v.is_float() ? v.f() : static_cast<double>(v.i()), dt, {});
  std::vector<Value> items;
  for (const Value& x : eval::to_vector(c.I, v)) items.push_back(stack_scalars(c, x, dt));
  return call_op(c.T, "stack", {eval::new_list(c.I, std::move(items)), Value::integer(0)});
}

Value tensor_from_data(OpCall& c, const Value& data, std::optional<DType> dt) {
  std::optional<DType> leaf_dt;
  bool runtime = false;
  if ((eval::is_list(data) || eval::is_tuple(data)) && runtime_scalars(c, data, &leaf_dt, &runtime) && runtime &&
      leaf_dt)
    return stack_scalars(c, data, dt ? *dt : *leaf_dt);
  if (is_tensor(data)) {
    TensorObj* t = as_tensor(data);
    if (t->from_range && !dt && t->rank() == 1)
      assume_at_least(c.T, t->shape[0], 1, "torch.tensor() of a range() of run-time length",
                      "PyTorch infers float32 for the empty sequence, and the exported tensor is int64");
    DType d = dt ? *dt : t->dtype;
    return c.out(cast_to(c.T, c.v(t), t->dtype, d, t->shape), d, t->shape);
  }
  if (holds_scan_output(data)) {
    // A list of 0-d tensors built in a Loop (`scores.append(kl.sum())`; torch.tensor(scores)):
    // eager reads their values, which are the items stacked (dtype: theirs).
    Value st = scan_cat_stack(c.T, true, data, Value::integer(0));
    if (!is_tensor(st)) return st;
    TensorObj* t = as_tensor(st);
    if (t->rank() != 1)
      return c.unsupported("torch.tensor of a list built in a loop recorded as ONNX Loop whose items are not 0-d "
                           "tensors (torch.stack it)");
    DType d = dt ? *dt : t->dtype;
    return c.out(cast_to(c.T, c.v(t), t->dtype, d, t->shape), d, t->shape);
  }
  Collected col;
  collect(c, data, 0, col);
  DType d = dt ? *dt : col.all_bool && !col.vals.empty() ? DType::Bool : col.any_float ? c.T.default_dtype : DType::Int64;
  if (col.symbolic) {
    if (col.shape.size() > 1 || col.any_float) {
      // Nested lists (a list of (h, w) pairs: detection models' spatial shapes) or sizes mixed with
      // floats: the leaves in order as one vector, reshaped; floats added to the sizes in float64
      // (a float leaf is 0 among the sizes, a size 0 among the floats) so neither is rounded.
      std::vector<DimExpr> flat_shape{DimExpr(static_cast<int64_t>(col.syms.size()))};
      std::vector<DimExpr> shape(col.shape.begin(), col.shape.end());
      DType work = col.any_float ? DType::Float64 : DType::Int64;
      std::vector<DimExpr> sizes = col.syms;
      std::vector<double> rest(col.vals.size(), 0.0);
      for (size_t k = 0; k < sizes.size(); ++k)
        if (!col.sym_leaf[k] && col.any_float) {
          sizes[k] = DimExpr(int64_t{0});
          rest[k] = col.vals[k];
        }
      ir::Value* v = cast_to(c.T, c.rec.shape_value(sizes), DType::Int64, work, flat_shape);
      if (col.any_float)
        v = c.rec.emit("Add", {v, c.rec.constant(make_data(DType::Float64, {static_cast<int64_t>(rest.size())}, rest))},
                       ir::Type::tensor(elem(work), flat_shape));
      v = reshape_value(c.T, v, shape, elem(work));
      return c.out(cast_to(c.T, v, work, d, shape), d, shape);
    }
    std::vector<DimExpr> shape;
    if (!col.shape.empty()) shape.push_back(static_cast<int64_t>(col.syms.size()));
    ir::Value* v = shape.empty() ? c.rec.dim_scalar(col.syms[0]) : c.rec.shape_value(col.syms);
    Value r = c.out(cast_to(c.T, v, DType::Int64, d, shape), d, shape);
    if (d == DType::Int64 || d == DType::Int32) {
      // The sizes themselves, for item()/tolist()/int() (an int64 or int32 tensor holds them exactly).
      TensorObj* t = as_tensor(r);
      t->sizes = col.syms;
      t->sizes_version = t->version;
    }
    return r;
  }
  if (elem(d) == ir::ElementType::Undefined) return c.unsupported(fmt::format("tensors of dtype torch.{}", info(d).name));
  return new_constant(c.T, make_data(d, col.shape, col.vals), d);
}

Value like(OpCall& c, double v, bool uninitialized) {
  TensorObj* x = c.t(0);
  return fill_tensor(c, x->shape, v, dtype_or(c, 1, x->dtype), uninitialized);
}

}  // namespace

Value fill_tensor(OpCall& c, std::vector<DimExpr> shape, double v, DType dt, bool uninitialized) {
  for (DimExpr d : shape)
    if (d.is_const() && d.value() < 0)
      c.runtime_error(fmt::format("Trying to create tensor with negative dimension {}: [...]", d.value()));
  if (elem(dt) == ir::ElementType::Undefined) return c.unsupported(fmt::format("tensors of dtype torch.{}", info(dt).name));
  Value r = new_fill(c.T, v, dt, std::move(shape));
  as_tensor(r)->uninitialized = uninitialized;
  as_tensor(r)->requires_grad = false;
  return r;
}


const std::vector<OpDef>& create_ops() {
  static const std::vector<OpDef> ops = {
      {"zeros(SymInt[] size, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None, bool requires_grad=False) -> Tensor",
       kFn, [](OpCall& c) { return fill_tensor(c, c.a.dims(0), 0, dtype_or(c, 1, c.T.default_dtype)); }},
      {"ones(SymInt[] size, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None, bool requires_grad=False) -> Tensor",
       kFn, [](OpCall& c) { return fill_tensor(c, c.a.dims(0), 1, dtype_or(c, 1, c.T.default_dtype)); }},
      {"empty.memory_format(SymInt[] size, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None, MemoryFormat? memory_format=None, bool requires_grad=False) -> Tensor",
       kFn, [](OpCall& c) { return fill_tensor(c, c.a.dims(0), 0, dtype_or(c, 1, c.T.default_dtype), true); }},
      {"full(SymInt[] size, Scalar fill_value, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None, bool requires_grad=False) -> Tensor",
       kFn, full},
      // The *_like factories take requires_grad as PyTorch's Python binding does (aten's schema has none).
      {"zeros_like(Tensor self, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None, MemoryFormat? memory_format=None, bool requires_grad=False) -> Tensor",
       kFn, [](OpCall& c) { return like(c, 0, false); }},
      {"ones_like(Tensor self, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None, MemoryFormat? memory_format=None, bool requires_grad=False) -> Tensor",
       kFn, [](OpCall& c) { return like(c, 1, false); }},
      {"empty_like(Tensor self, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None, MemoryFormat? memory_format=None, bool requires_grad=False) -> Tensor",
       kFn, [](OpCall& c) { return like(c, 0, true); }},
      {"full_like(Tensor self, Scalar fill_value, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None, MemoryFormat? memory_format=None, bool requires_grad=False) -> Tensor",
       kFn,
       [](OpCall& c) {
         TensorObj* x = c.t(0);
         return fill_scalar(c, x->shape, c.a.scalar(1), dtype_or(c, 2, x->dtype));
       }},
      {"new_zeros(Tensor self, SymInt[] size, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None, bool requires_grad=False) -> Tensor",
       kMethod, [](OpCall& c) { return fill_tensor(c, c.a.dims(1), 0, dtype_or(c, 2, c.t(0)->dtype)); }},
      {"new_ones(Tensor self, SymInt[] size, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None, bool requires_grad=False) -> Tensor",
       kMethod, [](OpCall& c) { return fill_tensor(c, c.a.dims(1), 1, dtype_or(c, 2, c.t(0)->dtype)); }},
      {"new_empty(Tensor self, SymInt[] size, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None, bool requires_grad=False) -> Tensor",
       kMethod, [](OpCall& c) { return fill_tensor(c, c.a.dims(1), 0, dtype_or(c, 2, c.t(0)->dtype), true); }},
      {"new_full(Tensor self, SymInt[] size, Scalar fill_value, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None, bool requires_grad=False) -> Tensor",
       kMethod, [](OpCall& c) { return fill_scalar(c, c.a.dims(1), c.a.scalar(2), dtype_or(c, 3, c.t(0)->dtype)); }},
      {"new_tensor(Tensor self, Any data, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None, bool requires_grad=False) -> Tensor",
       kMethod, [](OpCall& c) { return tensor_from_data(c, c.a.raw(1), dtype_or(c, 2, c.t(0)->dtype)); }},
      {"arange(Scalar end, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None, bool requires_grad=False) -> Tensor",
       kFn,
       [](OpCall& c) {
         Scalar zero;
         Scalar one;
         one.i = 1;
         return arange(c, zero, c.a.scalar(0), one, c.a.dtype(1));
       }},
      {"arange.start_step(Scalar start, Scalar end, Scalar step=1, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None, bool requires_grad=False) -> Tensor",
       kFn, [](OpCall& c) { return arange(c, c.a.scalar(0), c.a.scalar(1), c.a.scalar(2), c.a.dtype(3)); }},
      // onnxify's own rows (after PyTorch's): bounds that are run-time float tensors (arange_tensors).
      {"arange.run_time_end(Tensor end, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None, bool requires_grad=False) -> Tensor",
       kFn,
       [](OpCall& c) {
         Value zero = c.out(c.rec.const_scalar(elem(c.t(0)->dtype), 0), c.t(0)->dtype, {});
         Scalar one;
         one.i = 1;
         return arange_tensors(c, as_tensor(zero), c.t(0), one, c.a.dtype(1));
       }},
      {"arange.run_time(Any start, Any end, Scalar step=1, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None, bool requires_grad=False) -> Tensor",
       kFn,
       [](OpCall& c) {
         Value start = bound_tensor(c, c.a.raw(0), "start"), end = bound_tensor(c, c.a.raw(1), "end");
         return arange_tensors(c, as_tensor(start), as_tensor(end), c.a.scalar(2), c.a.dtype(3));
       }},
      {"linspace(Scalar start, Scalar end, SymInt steps, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None, bool requires_grad=False) -> Tensor",
       kFn,
       [](OpCall& c) {
         Scalar sa = c.a.scalar(0), sb = c.a.scalar(1);
         bool sized = sa.kind == Scalar::Kind::SymInt || sb.kind == Scalar::Kind::SymInt;
         if (sized || !c.a.dim(2).is_const()) {
           // A bound or the step count only known at run time (linspace(0, H - 1, H) of a symbolic H).
           DType dt = dtype_or(c, 3, c.T.default_dtype);
           DType work = linspace_work(dt);
           auto bound = [&](const Scalar& x) {
             if (x.kind == Scalar::Kind::SymInt) return cast_to(c.T, c.rec.dim_scalar(x.sym), DType::Int64, work, {});
             return c.rec.const_scalar(elem(work), x.as_double());
           };
           return linspace_runtime(c, bound(sa), bound(sb), c.a.dim(2), dt);
         }
         double a = sa.as_double(), b = sb.as_double();
         int64_t n = c.a.int_(2);
         if (n < 0) c.runtime_error("number of steps must be non-negative");
         DType dt = dtype_or(c, 3, c.T.default_dtype);
         std::vector<double> vals(static_cast<size_t>(n));
         // aten's linspace: from the start for the first half, from the end for the second, in the
         // dtype's own arithmetic for float32 (step and each element rounded to float, as eager's
         // scalar loop does; double for other types).
         int64_t half = n / 2;
         if (dt == DType::Float32) {
           float fa = static_cast<float>(a), fb = static_cast<float>(b);
           float step = n > 1 ? (fb - fa) / static_cast<float>(n - 1) : 0.0f;
           for (int64_t i = 0; i < n; ++i)
             vals[i] = i < half ? fa + step * static_cast<float>(i) : fb - step * static_cast<float>(n - 1 - i);
         } else {
           double step = n > 1 ? (b - a) / static_cast<double>(n - 1) : 0;
           for (int64_t i = 0; i < n; ++i) vals[i] = i < half ? a + step * i : b - step * (n - 1 - i);
         }
         return new_constant(c.T, make_data(dt, {n}, vals), dt);
       }},
      // onnxify's own row: bounds that are run-time float tensors (H - 0.5 of a symbolic H).
      {"linspace.run_time(Any start, Any end, SymInt steps, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None, bool requires_grad=False) -> Tensor",
       kFn,
       [](OpCall& c) {
         DType dt = dtype_or(c, 3, c.T.default_dtype);
         DType work = linspace_work(dt);
         auto bound = [&](size_t k, const char* name) {
           Value v = bound_tensor(c, c.a.raw(k), name, "linspace");  // keeps a made constant alive
           TensorObj* t = as_tensor(v);
           if (t->rank() != 0) c.runtime_error("linspace(): only zero-dimensional tensors can stand for its start and end");
           return cast_to(c.T, c.v(t), t->dtype, work, {});
         };
         return linspace_runtime(c, bound(0, "start"), bound(1, "end"), c.a.dim(2), dt);
       }},
      {"logspace(Scalar start, Scalar end, int steps, float base=10.0, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None, bool requires_grad=False) -> Tensor",
       kFn,
       [](OpCall& c) {
         // aten's logspace: base ** (linspace's two-sided exponents), the power taken in double;
         // float32 exponents in float arithmetic, integer dtypes from integer ends with a float base
         // (the result truncated), others in double. A conversion-time constant.
         double a = c.a.scalar(0).as_double(), b = c.a.scalar(1).as_double(), base = c.a.real(3);
         int64_t n = c.a.int_(2);
         if (n < 0) c.runtime_error("number of steps must be non-negative");
         DType dt = dtype_or(c, 4, c.T.default_dtype);
         std::vector<double> vals(static_cast<size_t>(n));
         int64_t half = n / 2;
         if (n == 1) {
           vals[0] = std::pow(base, a);
         } else if (dt == DType::Float32) {
           float fa = static_cast<float>(a), fb = static_cast<float>(b);
           float step = (fb - fa) / static_cast<float>(n - 1);
           for (int64_t i = 0; i < n; ++i)
             vals[i] = std::pow(base, static_cast<double>(i < half ? fa + step * static_cast<float>(i)
                                                                     : fb - step * static_cast<float>(n - 1 - i)));
         } else {
           if (is_integral(dt, true)) a = std::trunc(a), b = std::trunc(b), base = static_cast<float>(base);
           double step = n > 1 ? (b - a) / static_cast<double>(n - 1) : 0;
           for (int64_t i = 0; i < n; ++i) vals[i] = std::pow(base, i < half ? a + step * i : b - step * (n - 1 - i));
           if (is_integral(dt, true))
             for (double& v : vals) v = std::trunc(v);
         }
         return new_constant(c.T, make_data(dt, {n}, vals), dt);
       }},
      {"eye(SymInt n, SymInt? m=None, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None, bool requires_grad=False) -> Tensor",
       kFn,
       [](OpCall& c) {
         DType dt = dtype_or(c, 2, c.T.default_dtype);
         DimExpr dn = c.a.dim(0), dm = c.a.is_none(1) ? dn : c.a.dim(1);
         if (!dn.is_const() || !dm.is_const()) {
           // Sizes known only at run time: row index == column index.
           const ir::ElementType i64 = ir::ElementType::Int64;
           ir::Value* zero = c.rec.const_i64_scalar(0);
           ir::Value* one = c.rec.const_i64_scalar(1);
           ir::Value* rows = c.rec.emit("Range", {zero, c.rec.dim_scalar(dn), one}, ir::Type::tensor(i64, {dn}));
           rows = c.rec.emit("Unsqueeze", {rows, c.rec.const_i64({1})}, ir::Type::tensor(i64, {dn, DimExpr(1)}));
           ir::Value* cols = c.rec.emit("Range", {zero, c.rec.dim_scalar(dm), one}, ir::Type::tensor(i64, {dm}));
           ir::Value* eq = c.rec.emit("Equal", {rows, cols}, ir::Type::tensor(ir::ElementType::Bool, {dn, dm}));
           return c.out(cast_to(c.T, eq, DType::Bool, dt, {dn, dm}), dt, {dn, dm});
         }
         int64_t n = dn.value(), m = dm.value();
         std::vector<double> vals(static_cast<size_t>(n * m));
         for (int64_t i = 0; i < std::min(n, m); ++i) vals[i * m + i] = 1;
         return new_constant(c.T, make_data(dt, {n, m}, vals), dt);
       }},
      {"tensor(Any data, *, ScalarType? dtype=None, Device? device=None, bool requires_grad=False, bool pin_memory=False) -> Tensor",
       kFn, [](OpCall& c) { return tensor_from_data(c, c.a.raw(0), c.a.dtype(1)); }},
      {"as_tensor(Any data, *, ScalarType? dtype=None, Device? device=None) -> Tensor", kFn,
       [](OpCall& c) { return tensor_from_data(c, c.a.raw(0), c.a.dtype(1)); }},
      {"scalar_tensor(Scalar s, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None) -> Tensor",
       kFn, [](OpCall& c) { return tensor_from_data(c, c.a.raw(0), dtype_or(c, 1, c.T.default_dtype)); }},
      {"zero_(Tensor self) -> Tensor", kMethod,
       [](OpCall& c) {
         TensorObj* x = c.t(0);
         Value z = fill_tensor(c, x->shape, 0, x->dtype);
         assign_inplace(c.T, x, value_of(c.T, as_tensor(z)));
         return Value::borrow(x);
       }},
      // Before fill_.Scalar: a 0-dim integer tensor would bind there as a run-time size.
      {"fill_.Tensor(Tensor self, Tensor value) -> Tensor", kMethod,
       [](OpCall& c) {
         TensorObj *x = c.t(0), *v = c.t(1);
         if (v->rank() != 0)
           c.runtime_error(fmt::format("fill_ only supports 0-dimension value tensor but got tensor with {} dimensions.",
                                       v->rank()));
         ir::Value* fv = cast_to(c.T, c.v(v), v->dtype, x->dtype, {});
         Value z = c.node("Expand", {fv, c.rec.shape_value(x->shape)}, x->dtype, x->shape);
         assign_inplace(c.T, x, value_of(c.T, as_tensor(z)));
         return Value::borrow(x);
       }},
      {"fill_.Scalar(Tensor self, Scalar value) -> Tensor", kMethod,
       [](OpCall& c) {
         TensorObj* x = c.t(0);
         Value z = fill_scalar(c, x->shape, c.a.scalar(1), x->dtype);
         assign_inplace(c.T, x, value_of(c.T, as_tensor(z)));
         return Value::borrow(x);
       }},
  };
  return ops;
}

}  // namespace onnxify::torch
