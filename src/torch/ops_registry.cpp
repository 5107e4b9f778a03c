// The op registry: collects the family tables, groups overloads by name, dispatches Python calls
// (poison arguments, overload resolution, in-place functionalization) and exposes every row to
// Python as torch._C._VariableFunctions.NAME, torch._C._nn.NAME and Tensor.NAME / Tensor.NAME_.
#include <fmt/core.h>

#include <array>
#include <set>
#include <unordered_map>
#include <utility>

#include "torch/control_flow.h"
#include "torch/ops.h"

namespace onnxify::torch {

using eval::Args;
using eval::Interp;
using eval::Value;

const std::vector<OpRow>& all_ops() {
  static const std::vector<OpRow> rows = [] {
    std::vector<OpRow> out;
    for (const auto* table : {&pointwise_ops(), &reduce_ops(), &shape_ops(), &nn_ops(), &create_ops(), &index_ops(),
                              &layer_ops(), &math_ops(), &stats_ops(), &linalg_ops(), &attention_ops(),
                              &derived_ops(), &random_ops()})
      for (const OpDef& d : *table) out.push_back(OpRow{&d, parse_schema(d.schema)});
    for (const OpDef& d : rnn_ops()) out.push_back(OpRow{&d, parse_schema(d.schema)});
    return out;
  }();
  return rows;
}

const std::vector<OpGroup>& op_groups() {
  static const std::vector<OpGroup> groups = [] {
    std::vector<OpGroup> out;
    std::unordered_map<std::string, size_t> at;
    for (const OpRow& r : all_ops()) {
      auto it = at.find(r.schema.name);
      if (it == at.end()) {
        it = at.emplace(r.schema.name, out.size()).first;
        out.push_back(OpGroup{r.schema.name, 0, {}});
      }
      out[it->second].rows.push_back(&r);
      out[it->second].flags |= r.def->flags;
    }
    return out;
  }();
  return groups;
}

const OpGroup* find_op(std::string_view name) {
  static const std::unordered_map<std::string_view, const OpGroup*> index = [] {
    std::unordered_map<std::string_view, const OpGroup*> m;
    for (const OpGroup& g : op_groups()) m.emplace(g.name, &g);
    return m;
  }();
  auto it = index.find(name);
  return it == index.end() ? nullptr : it->second;
}

// A numpy array or scalar of the prelude's numpy (its class sets `_onnxify_numpy`) passed to a torch op,
// as PyTorch takes them (x * np_array, x[np_index]): the array's tensor, the scalar's Python number.
bool numpy_operand(Interp& I, const Value& v, Value* out) {
  if (!v.is_obj() || is_tensor(v) || eval::is_poison(v) || eval::is_str(v)) return false;
  if (!eval::type_lookup(I.type_of(v), I.intern("_onnxify_numpy"))) return false;
  Value t = eval::getattr_opt(I, v, I.intern("_t"));
  *out = t ? t : eval::getattr(I, v, I.intern("_v"));
  return true;
}

namespace {

enum class Mode : uint8_t { Function, Method, Inplace, Any };

// PyTorch's __torch_function__ protocol for tensor-like classes that are not tensors (torch.fft's
// ComplexTensor, a user's wrapper): the class of the first such argument (top level or an item of a
// list/tuple argument) decides the call, as `cls.__torch_function__(func, types, args, kwargs)`.
// Tensors themselves never override ops here, so they are not searched for it.
Value torch_function_class(Interp& I, const Value& v) {
  if (!v.is_obj() || is_tensor(v) || eval::is_poison(v) || eval::is_str(v)) return Value();
  if (eval::is_list(v) || eval::is_tuple(v)) {
    const auto& items = eval::is_list(v) ? eval::as_list(v)->items : eval::as_tuple(v)->items;
    for (const Value& x : items)
      if (Value c = torch_function_class(I, x)) return c;
    return Value();
  }
  eval::Type* t = I.type_of(v);
  return eval::type_lookup(t, I.intern("__torch_function__")) ? Value::borrow(t) : Value();
}

bool torch_function(Torch& T, const OpGroup& g, const Value& self, const Args& a, Mode mode, Value* out) {
  Interp& I = T.I;
  if (mode == Mode::Inplace) return false;
  Value cls = torch_function_class(I, self);
  for (uint32_t i = 0; i < a.npos + a.nkw && !cls; ++i)
    cls = torch_function_class(I, i < a.npos ? a.pos[i] : a.kwvals[i - a.npos]);
  if (!cls) return false;
  Value torch_mod = I.loader().import_module("torch", nullptr, 0, false, SourceRange{});
  Value owner = self ? eval::getattr(I, torch_mod, I.intern("Tensor")) : torch_mod;
  Value func = eval::getattr_opt(I, owner, I.intern(g.name));
  if (!func) return false;
  std::vector<Value> pos;
  if (self) pos.push_back(self);
  pos.insert(pos.end(), a.pos, a.pos + a.npos);
  Value kwargs = eval::new_dict(I);
  for (uint32_t i = 0; i < a.nkw; ++i) eval::dict_set_str(I, eval::as_dict(kwargs), a.kwnames[i], a.kwvals[i]);
  Value handler = eval::getattr(I, cls, I.intern("__torch_function__"));
  std::vector<Value> call{func, eval::new_tuple(I, {cls}), eval::new_tuple(I, std::move(pos)), kwargs};
  Value r = eval::call(I, handler, Args(call));
  if (r.is(I.notimplemented))
    eval::raisef(I, I.exc.TypeError, "no implementation found for '{}{}' on types that implement __torch_function__: [{}]",
                 self ? "torch.Tensor." : "torch.", g.name, eval::as_type(cls)->name->view());
  *out = r;
  return true;
}

// PyTorch's canCast: no complex -> real, no floating -> integral, no non-bool -> bool.
bool can_cast(DType from, DType to) {
  if (is_complex(from) && !is_complex(to)) return false;
  if (is_floating(from) && is_integral(to, true)) return false;
  if (from != DType::Bool && to == DType::Bool) return false;
  return true;
}

// Writes an op's result into its first argument (Tensor.NAME_ / torch.NAME_ / inplace=True).
Value write_into_self(Torch& T, TensorObj* self, const Value& r, const std::string& name) {
  if (!is_tensor(r)) return r;  // poison: already reported
  TensorObj* res = as_tensor(r);
  ir::Value* v = value_of(T, res);
  if (res->dtype != self->dtype) {
    if (!can_cast(res->dtype, self->dtype))
      eval::raisef(T.I, T.I.exc.RuntimeError, "result type {} can't be cast to the desired output type {}",
                   info(res->dtype).name, info(self->dtype).name);
    v = cast_to(T, v, res->dtype, self->dtype, res->shape);
  }
  if (res->shape != self->shape) {
    // The write is valid only where the broadcast shape is self's. A dim known to differ is
    // PyTorch's error; one only known at run time (bincount's length, max(2, u) where eager's
    // labels keep it 2) is assumed equal, and the Expand to self's shape fails at run time where
    // PyTorch would raise.
    std::vector<ir::DimExpr> b = broadcast_shapes(T.I, self->shape, res->shape);
    bool differs = b.size() != self->shape.size();
    for (size_t i = 0; !differs && i < b.size(); ++i)
      differs = b[i].is_const() && self->shape[i].is_const() && b[i].value() != self->shape[i].value();
    if (differs)
      eval::raisef(T.I, T.I.exc.RuntimeError, "{}: output with shape {} doesn't match the broadcast shape {}", name,
                   shape_text(self->shape), shape_text(b));
    v = T.rec.emit("Expand", {v, T.rec.shape_value(self->shape)}, self->ir_type());
  }
  assign_inplace(T, self, v);
  return Value::borrow(self);
}

const Value* poison_in(const Value& self, const Args& a) {
  if (self && eval::is_poison(self)) return &self;
  for (uint32_t i = 0; i < a.npos; ++i)
    if (const Value* p = eval::find_poison(a.pos[i])) return p;
  for (uint32_t i = 0; i < a.nkw; ++i)
    if (const Value* p = eval::find_poison(a.kwvals[i])) return p;
  return nullptr;
}

std::string describe_args(Interp& I, const Value& self, const Args& a) {
  std::vector<std::string> parts;
  auto one = [&](const Value& v) { return is_tensor(v) ? std::string("Tensor") : std::string(eval::type_name(I, v)); };
  if (self) parts.push_back(one(self));
  for (uint32_t i = 0; i < a.npos; ++i) parts.push_back(one(a.pos[i]));
  for (uint32_t i = 0; i < a.nkw; ++i) parts.push_back(fmt::format("{}={}", a.kwnames[i]->view(), one(a.kwvals[i])));
  std::string out;
  for (size_t i = 0; i < parts.size(); ++i) out += (i ? ", " : "") + parts[i];
  return out;
}

Value dispatch_rows(Torch& T, const OpGroup& g, const Value& self, const Args& a, Mode mode);

Value run_row(Torch& T, const OpRow& r, Bound& b, const std::string& qual);

// Runs the row with argument i replaced by each of `alt` (what it is when `cond` is true, then
// false) and selects between the two results with `cond` (Where), as `if cond: op(alt[0]) else:
// op(alt[1])` would; `said` names the two cases for messages ("True" / "False"). The results must
// be tensors of one dtype and rank, and of one shape when `same_shape` (Where would broadcast one).
Value run_row_both(Torch& T, const OpRow& r, Bound& b, const std::string& qual, size_t i, const Value (&alt)[2],
                   const Value& cond, const char* const (&said)[2], bool same_shape) {
  Value res[2], exc[2];
  for (int k = 0; k < 2; ++k) {
    Bound one = b;
    one.vals[i] = alt[k];
    try {
      res[k] = run_row(T, r, one, qual);
    } catch (eval::PyException& e) {
      exc[k] = e.exc;
    }
  }
  // One case raises (PyTorch's check that is_causal=True comes without a mask): that check
  // cannot be part of the ONNX model, so the other case is taken, as for a tensor-dependent `if`
  // whose branch raises (control_flow.h).
  if (exc[0] && exc[1]) throw eval::PyException{exc[0]};
  if (exc[0] || exc[1]) {
    int ok = exc[0] ? 1 : 0;
    std::string msg = fmt::format("{}(): argument '{}' is only known when the model runs, and with {} the call raises ({}): "
                    "the exported model always uses {}",
                    qual, r.schema.params[i].name, said[1 - ok], eval::str_string(T.I, exc[1 - ok]), said[ok]);
    bool seen = false;
    for (const Diagnostic& w : T.warnings) seen = seen || w.message() == msg;
    if (!seen) T.warnings.push_back(Diagnostic::warning(msg, T.rec.location()));
    return res[ok];
  }
  if (!is_tensor(res[0]) || !is_tensor(res[1]) || as_tensor(res[0])->dtype != as_tensor(res[1])->dtype ||
      as_tensor(res[0])->rank() != as_tensor(res[1])->rank() ||
      (same_shape && as_tensor(res[0])->shape != as_tensor(res[1])->shape))
    return unsupported(T, qual, fmt::format("argument '{}' is only known when the model runs, and the results "
                                            "with {} and {} are not tensors of one dtype and {}",
                                            r.schema.params[i].name, said[0], said[1], same_shape ? "shape" : "rank"));
  return call_op(T, "where", {cond, res[0], res[1]});
}

// Runs a bound row. An argument only known when the model runs is recorded for both of its values
// and the results are selected by it (run_row_both): a `bool` parameter given a bool known at run
// time (`.item()` of a symbolic condition, core.h), and an optional tensor given a tensor that is
// None on some runs (core.h: present; `attn_mask=mask` where `mask = None` when it masks nothing).
Value run_row(Torch& T, const OpRow& r, Bound& b, const std::string& qual) {
  for (size_t i = 0; i < b.vals.size(); ++i) {
    const Value& v = b.vals[i];
    const Param& p = r.schema.params[i];
    if (!v || !is_tensor(v) || p.is_list) continue;
    if (p.base == BaseType::Bool && as_tensor(v)->symbolic_bool) {
      static const char* const said[2] = {"True", "False"};
      return run_row_both(T, r, b, qual, i, {Value::boolean(true), Value::boolean(false)}, v, said, false);
    }
    if (p.base == BaseType::Tensor && p.optional && as_tensor(v)->present) {
      // The tensor case takes the same values without the flag (its zeros where Python has None).
      Value cond = new_tensor(T, as_tensor(v)->present, DType::Bool, {});
      static const char* const said[2] = {"the tensor", "None"};
      return run_row_both(T, r, b, qual, i, {copy_of(T, as_tensor(v)), Value::none()}, cond, said, true);
    }
  }
  OpCall c(T, b);
  return r.def->fn(c);
}

// PyTorch's argument parser takes a Python number (or a size) for the first Tensor of these
// arithmetic functions only (`torch.div(7, 2, rounding_mode="floor")` is tensor(3)): the number
// becomes a 0-d tensor (int64, the default float dtype, or bool), a SymInt its run-time value.
bool number_as_tensor(Torch& T, const std::string& name, const Args& a, Value* out) {
  static const std::set<std::string> allowed = {"add", "div", "divide", "mul", "multiply", "sub", "subtract",
                                                "true_divide", "floor_divide"};
  if (a.npos < 1 || !allowed.count(name)) return false;
  const Value& v = a.pos[0];
  if (v.is_bool()) *out = new_fill(T, static_cast<double>(v.i()), DType::Bool, {});
  else if (v.is_int()) *out = new_fill(T, static_cast<double>(v.i()), DType::Int64, {});
  else if (v.is_float()) *out = new_fill(T, v.f(), T.default_dtype, {});
  else if (is_symint(v)) *out = new_tensor(T, T.rec.dim_scalar(eval::as<SymIntObj>(v)->expr), DType::Int64, {});
  else return false;
  return true;
}

// PyTorch's `out=` keyword (torch.randn(size, out=buf), torch.arange(n, out=buf)), which no row of the
// table takes: the op runs without it and `out` takes its result, resized to the result's shape as
// PyTorch resizes it and in out's dtype (factory functions make out's dtype); `out` is returned.
Value write_out(Torch& T, const Value& out, const Value& r, const std::string& qual) {
  if (out.is_none()) return r;
  if (eval::is_tuple(out) && eval::is_tuple(r) && eval::as_tuple(out)->items.size() == eval::as_tuple(r)->items.size()) {
    for (size_t i = 0; i < eval::as_tuple(out)->items.size(); ++i)
      write_out(T, eval::as_tuple(out)->items[i], eval::as_tuple(r)->items[i], qual);
    return out;
  }
  if (!is_tensor(r)) return r;  // poison: reported where it was made
  if (!is_tensor(out))
    eval::raisef(T.I, T.I.exc.TypeError, "{}(): argument 'out' must be Tensor, not {}", qual, eval::type_name(T.I, out));
  TensorObj* o = as_tensor(out);
  Value v = r;
  if (as_tensor(v)->dtype != o->dtype) v = call_op(T, "to", {v, T.dtype_object(o->dtype)});
  if (!is_tensor(v)) return v;
  TensorObj* res = as_tensor(v);
  if (o->base) {  // a view: written through to its base, which needs the same shape
    if (o->shape != res->shape)
      throw Diagnostic::error(qual + "(out=...) into a view of another tensor whose shape changes is not supported by "
                              "onnxify (assign the result instead: x = " + qual + "(...))", T.rec.location());
    assign_inplace(T, o, value_of(T, res));
    return out;
  }
  note_write(T, o);
  o->take_state_of(*res);
  return out;
}

// PyTorch's argument parser also takes a 0-dim integer tensor where a Scalar is expected
// (torch.arange(n) with n a tensor, as transformers' mask code calls it): when no row took the
// arguments as they are, each such tensor is retried as its value, a SymInt when it is only known at
// run time. Returns false when there is none.
static bool tensors_as_scalars(Torch& T, const Args& a, std::vector<Value>* vals) {
  bool any = false;
  vals->assign(a.pos, a.pos + a.npos);
  vals->insert(vals->end(), a.kwvals, a.kwvals + a.nkw);
  for (Value& v : *vals) {
    if (!is_tensor(v)) continue;
    TensorObj* t = as_tensor(v);
    if (t->rank() != 0 || !is_integral(t->dtype, false) || t->random || t->uninitialized) continue;
    v = make_size_value(T, size_from_tensor(T, t));
    any = true;
  }
  return any;
}

// PyTorch's argument parser takes a 0-dim tensor that does not require grad for a Scalar
// (`torch.clamp(x, 0, alpha.data)` runs clamp(Tensor, Scalar?, Scalar?) with alpha's value). A value
// onnxify only knows at run time cannot become a Python number, so when no row took the arguments
// and one of them is such a tensor of a floating dtype, the Python numbers among them are retried as
// 0-dim tensors for the rows that take Tensors (clamp.Tensor): the same values, computed by the graph.
// Returns false when there is no such tensor or no number to convert.
static bool numbers_as_tensors(Torch& T, const Value& self, const Args& a, std::vector<Value>* vals) {
  vals->assign(a.pos, a.pos + a.npos);
  vals->insert(vals->end(), a.kwvals, a.kwvals + a.nkw);
  bool scalar_tensor = false, number = false;
  for (const Value& v : *vals)
    if (is_tensor(v) && as_tensor(v)->rank() == 0 && !as_tensor(v)->requires_grad && is_floating(as_tensor(v)->dtype))
      scalar_tensor = true;
  if (!scalar_tensor || (!self && a.npos > 0 && !is_tensor(a.pos[0]))) return false;
  for (size_t i = self ? 0 : 1; i < vals->size(); ++i) {
    Value& v = (*vals)[i];
    if (v.is_bool() || v.is_int()) v = new_fill(T, static_cast<double>(v.is_bool() ? v.b() : v.i()),
                                                v.is_bool() ? DType::Bool : DType::Int64, {});
    else if (v.is_float()) v = new_fill(T, v.f(), T.default_dtype, {});
    else continue;
    number = true;
  }
  return number;
}

Value dispatch(Torch& T, const OpGroup& g, const Value& self, const Args& a, Mode mode) {
  for (uint32_t i = 0; i < a.nkw; ++i) {
    if (a.kwnames[i]->view() != "out") continue;
    std::vector<Value> vals(a.pos, a.pos + a.npos);
    std::vector<eval::Str*> names;
    for (uint32_t j = 0; j < a.nkw; ++j)
      if (j != i) vals.push_back(a.kwvals[j]), names.push_back(a.kwnames[j]);
    Args b = a;
    b.pos = vals.data();
    b.kwvals = vals.data() + a.npos;
    b.kwnames = names.data();
    b.nkw = a.nkw - 1;
    Value r = dispatch(T, g, self, b, mode);
    return write_out(T, a.kwvals[i], r, (self ? "Tensor." : "torch.") + g.name);
  }
  if (Value r; torch_function(T, g, self, a, mode, &r)) return r;
  Value conv;
  for (uint32_t i = 0; i < a.npos + a.nkw; ++i) {
    if (!numpy_operand(T.I, i < a.npos ? a.pos[i] : a.kwvals[i - a.npos], &conv)) continue;
    std::vector<Value> vals(a.pos, a.pos + a.npos);
    vals.insert(vals.end(), a.kwvals, a.kwvals + a.nkw);
    for (Value& v : vals) numpy_operand(T.I, v, &v);
    Args b = a;
    b.pos = vals.data();
    b.kwvals = vals.data() + a.npos;
    return dispatch(T, g, self, b, mode);
  }
  // While the model is built, an op on a random tensor gives a random placeholder (core.h).
  if (T.building && !poison_in(self, a))
    return placeholder_scope(T, mode == Mode::Inplace, [&] { return dispatch_rows(T, g, self, a, mode); });
  return dispatch_rows(T, g, self, a, mode);
}

Value dispatch_rows(Torch& T, const OpGroup& g, const Value& self, const Args& a, Mode mode) {
  Interp& I = T.I;
  std::string qual = (mode == Mode::Method || mode == Mode::Inplace ? "Tensor." : "torch.") + g.name +
                     (mode == Mode::Inplace ? "_" : "");
  if (const Value* p = poison_in(self, a)) return poison_reached_op(T, *p, qual);
  // torch.stack/torch.cat over a list a Loop appended to: its scan outputs (control_flow.h).
  if ((g.name == "cat" || g.name == "stack") && !self && a.npos >= 1 && holds_scan_output(a.pos[0])) {
    Value dim = a.npos >= 2 ? a.pos[1] : Value();
    for (uint32_t i = 0; i < a.nkw; ++i)
      if (a.kwnames[i]->view() == "dim") dim = a.kwvals[i];
    return scan_cat_stack(T, g.name == "stack", a.pos[0], dim);
  }
  std::string first_why;
  std::vector<const OpRow*> tried;
  bool tensor_arg = false;  // then a first pass binds tensors only to Tensor parameters (schema.h)
  for (uint32_t i = 0; i < a.npos + a.nkw && !tensor_arg; ++i)
    tensor_arg = is_tensor(i < a.npos ? a.pos[i] : a.kwvals[i - a.npos]);
  const bool two_passes = tensor_arg && g.rows.size() > 1;
  for (int pass = two_passes ? 0 : 1; pass < 2; ++pass) {
    for (const OpRow* r : g.rows) {
      uint32_t f = r->def->flags;
      bool ok = mode == Mode::Any        ? true
                : mode == Mode::Function ? (f & (kFn | kNN | kFnInplace)) != 0
                : mode == Mode::Method   ? (f & kMethod) != 0
                                         : (f & (kInplace | kFnInplace)) != 0;  // Tensor.NAME_ / torch.NAME_
      if (!ok) continue;
      if (pass == 1) tried.push_back(r);
      Bound b(I, r->schema);
      std::string why;
      if (!bind(I, r->schema, self, a, b, pass == 1 && first_why.empty() ? &first_why : &why, pass == 0)) continue;
      Value res = run_row(T, *r, b, qual);
      if (mode == Mode::Inplace) return write_into_self(T, b.tensor(0), res, qual);
      return res;
    }
  }
  if (Value retry; !self && mode != Mode::Method && number_as_tensor(T, g.name, a, &retry)) {
    std::vector<Value> pos(a.pos, a.pos + a.npos);
    pos[0] = retry;
    Args b = a;
    b.pos = pos.data();
    return dispatch_rows(T, g, self, b, mode);
  }
  // (one retry: the other conversion below must not turn its tensors back into numbers)
  static thread_local bool numbers_retried = false;
  if (std::vector<Value> vals; !numbers_retried && numbers_as_tensors(T, self, a, &vals)) {
    Args b = a;
    b.pos = vals.data();
    b.kwvals = vals.data() + a.npos;
    numbers_retried = true;
    struct Reset { ~Reset() { numbers_retried = false; } } reset;
    return dispatch_rows(T, g, self, b, mode);
  }
  if (std::vector<Value> vals; tensors_as_scalars(T, a, &vals)) {
    Args b = a;
    b.pos = vals.data();
    b.kwvals = vals.data() + a.npos;
    return dispatch_rows(T, g, self, b, mode);
  }
  if (tried.size() <= 1) eval::raise(I, I.exc.TypeError, first_why.empty() ? qual + "(): bad arguments" : first_why);
  std::string msg = fmt::format("{}() received an invalid combination of arguments - got ({}), but expected one of:",
                                g.name, describe_args(I, self, a));
  for (const OpRow* r : tried) msg += "\n * " + r->schema.signature();
  eval::raise(I, I.exc.TypeError, msg);
}

// Native functions carry no per-function data, so each group gets its own entry point: one
// instantiation per group index and mode.
constexpr size_t kMaxGroups = 1024;

template <size_t K>
Value fn_entry(Interp& I, const Value&, const Args& a) {
  return dispatch(torch_state(), op_groups()[K], Value(), a, Mode::Function);
}
template <size_t K>
Value fn_inplace_entry(Interp& I, const Value&, const Args& a) {
  // torch.relu_(x): the first argument is written.
  if (a.npos < 1) eval::raisef(I, I.exc.TypeError, "{}_() missing required argument 'self'", op_groups()[K].name);
  return dispatch(torch_state(), op_groups()[K], a.pos[0], a.shifted(), Mode::Inplace);
}
template <size_t K>
Value method_entry(Interp& I, const Value& self, const Args& a) {
  return dispatch(torch_state(), op_groups()[K], self, a, Mode::Method);
}
template <size_t K>
Value method_inplace_entry(Interp& I, const Value& self, const Args& a) {
  return dispatch(torch_state(), op_groups()[K], self, a, Mode::Inplace);
}

template <size_t... K>
constexpr std::array<eval::NativeFn, sizeof...(K)> fn_entries(std::index_sequence<K...>) {
  return {&fn_entry<K>...};
}
template <size_t... K>
constexpr std::array<eval::NativeFn, sizeof...(K)> fn_inplace_entries(std::index_sequence<K...>) {
  return {&fn_inplace_entry<K>...};
}
template <size_t... K>
constexpr std::array<eval::NativeFn, sizeof...(K)> method_entries(std::index_sequence<K...>) {
  return {&method_entry<K>...};
}
template <size_t... K>
constexpr std::array<eval::NativeFn, sizeof...(K)> method_inplace_entries(std::index_sequence<K...>) {
  return {&method_inplace_entry<K>...};
}

}  // namespace

Value call_op(Torch& T, const OpGroup& g, const Value& self, const Args& a, bool inplace) {
  return dispatch(T, g, self, a, inplace ? Mode::Inplace : self ? Mode::Method : Mode::Function);
}

Value call_op(Torch& T, std::string_view name, std::vector<Value> args, bool inplace) {
  const OpGroup* g = find_op(name);
  if (!g) throw std::logic_error("no op " + std::string(name));
  return dispatch(T, *g, Value(), Args(args), inplace ? Mode::Inplace : Mode::Any);
}

Value call_op_kw(Torch& T, std::string_view name, std::vector<Value> pos, const char* kw, Value kwval) {
  const OpGroup* g = find_op(name);
  if (!g) throw std::logic_error("no op " + std::string(name));
  eval::Str* names[1] = {T.I.intern(kw)};
  Value vals[1] = {std::move(kwval)};
  Args a(pos);
  a.nkw = 1;
  a.kwnames = names;
  a.kwvals = vals;
  return call_op(T, *g, Value(), a);
}

// Entry points are static tables; names point into the static groups, so they outlive every
// interpreter.
static const std::vector<std::string>& inplace_names() {
  static const std::vector<std::string> v = [] {
    std::vector<std::string> out;
    for (const OpGroup& g : op_groups()) out.push_back(g.name + "_");
    return out;
  }();
  return v;
}

static void check_group_count() {
  if (op_groups().size() > kMaxGroups) throw std::logic_error("raise kMaxGroups in ops_registry.cpp");
}

std::vector<eval::MethodDef> op_tensor_methods() {
  static const auto methods = method_entries(std::make_index_sequence<kMaxGroups>());
  static const auto methods_inplace = method_inplace_entries(std::make_index_sequence<kMaxGroups>());
  check_group_count();
  std::vector<eval::MethodDef> out;
  const auto& groups = op_groups();
  for (size_t k = 0; k < groups.size(); ++k) {
    if (groups[k].flags & kMethod) out.push_back({groups[k].name.c_str(), methods[k], eval::kNativeMethod});
    if (groups[k].flags & kInplace) out.push_back({inplace_names()[k].c_str(), methods_inplace[k], eval::kNativeMethod});
  }
  return out;
}

void install_op_functions(Torch& T, eval::Module* functions, eval::Module* nn) {
  static const auto fns = fn_entries(std::make_index_sequence<kMaxGroups>());
  static const auto fns_inplace = fn_inplace_entries(std::make_index_sequence<kMaxGroups>());
  check_group_count();
  Interp& I = T.I;
  const auto& groups = op_groups();
  for (size_t k = 0; k < groups.size(); ++k) {
    const OpGroup& g = groups[k];
    if (g.flags & kFn) eval::module_set(I, functions, g.name, eval::new_native(I, g.name.c_str(), fns[k]));
    if (g.flags & kFnInplace)
      eval::module_set(I, functions, inplace_names()[k], eval::new_native(I, inplace_names()[k].c_str(), fns_inplace[k]));
    if (g.flags & kNN) eval::module_set(I, nn, g.name, eval::new_native(I, g.name.c_str(), fns[k]));
  }
}

}  // namespace onnxify::torch
