// The Python types torch.Tensor and torch.nn.Parameter: attributes (shape, dtype, device, data, ...),
// the methods that are not ops (size, dim, item, tolist, ...), Python's operators (dispatched to the
// op table, reflected forms with the Python number as a zero-dim tensor, which promotes exactly like
// PyTorch's wrapped numbers) and indexing (index.cpp).
#include <fmt/core.h>

#include <algorithm>
#include <functional>

#include "eval/containers.h"
#include "torch/control_flow.h"
#include "torch/index.h"
#include "torch/ops.h"

namespace onnxify::torch {

using eval::Args;
using eval::Interp;
using eval::Value;
using ir::DimExpr;

namespace {

TensorObj* self_t(const Value& v) { return as_tensor(v); }

bool is_number(const Value& v) {
  int64_t i;
  double d;
  return eval::int_value(v, &i) || eval::float_value(v, &d) || is_symint(v);
}

// A Python number as a zero-dim tensor of the dtype PyTorch gives it.
Value wrap_number(Torch& T, const Value& v) { return call_op(T, "tensor", {v}); }

// ---- operators ----

template <const char* Op>
Value binop(Interp& I, const Value& a, const Value& b) {
  if (!is_tensor(b) && !is_number(b)) return eval::is_poison(b) ? call_op(torch_state(), Op, {a, b}) : I.notimplemented;
  return call_op(torch_state(), Op, {a, b});
}
template <const char* Op>
Value rbinop(Interp& I, const Value& a, const Value& b) {
  if (!is_number(b)) return eval::is_poison(b) ? call_op(torch_state(), Op, {a, b}) : I.notimplemented;
  Torch& T = torch_state();
  return call_op(T, Op, {wrap_number(T, b), a});
}
template <const char* Op>
Value ibinop(Interp& I, const Value& a, const Value& b) {
  if (!is_tensor(b) && !is_number(b)) return I.notimplemented;
  return call_op(torch_state(), Op, {a, b}, /*inplace=*/true);
}

constexpr char kAdd[] = "add", kSub[] = "sub", kMul[] = "mul", kDiv[] = "div", kFloorDiv[] = "floor_divide",
               kRem[] = "remainder", kPow[] = "pow", kMatmul[] = "matmul", kAnd[] = "bitwise_and", kOr[] = "bitwise_or",
               kXor[] = "bitwise_xor", kEq[] = "eq", kNe[] = "ne", kLt[] = "lt", kLe[] = "le", kGt[] = "gt", kGe[] = "ge";

Value t_radd(Interp& I, const Value& a, const Value& b) { return binop<kAdd>(I, a, b); }
Value t_rmul(Interp& I, const Value& a, const Value& b) { return binop<kMul>(I, a, b); }
Value t_rsub(Interp& I, const Value& a, const Value& b) {
  if (!is_number(b)) return I.notimplemented;
  return call_op(torch_state(), "rsub", {a, b});
}
Value t_neg(Interp& I, const Value& a) { return call_op(torch_state(), "neg", {a}); }
Value t_pos(Interp& I, const Value& a) { return a; }
Value t_abs(Interp& I, const Value& a) { return call_op(torch_state(), "abs", {a}); }
Value t_invert(Interp& I, const Value& a) { return call_op(torch_state(), "bitwise_not", {a}); }

// ---- conversions to Python values ----

// The tensor's single value when known at conversion time (const_eval.cpp).
std::optional<double> known_scalar(TensorObj* t, bool* is_float) {
  *is_float = is_floating(t->dtype);
  DimExpr n = product(t->shape);
  if (!n.is_const() || n.value() != 1) return std::nullopt;
  auto known = known_values(torch_state(), t);
  if (!known) return std::nullopt;
  return *is_float ? known->float_at(0) : static_cast<double>(known->int_at(0));
}

Value item(Interp& I, TensorObj* t, const char* use) {
  DimExpr n = product(t->shape);
  if (n.is_const() && n.value() != 1)
    eval::raisef(I, I.exc.ValueError, "only one element tensors can be converted to Python scalars");
  auto known = need_values(torch_state(), t, use);
  if (t->dtype == DType::Bool) return Value::boolean(known->int_at(0) != 0);
  if (is_floating(t->dtype)) return Value::real(known->float_at(0));
  return Value::integer(known->int_at(0));
}

Value t_index(Interp& I, const Value& a) {
  TensorObj* t = self_t(a);
  if (!is_integral(t->dtype, true))
    eval::raise(I, I.exc.TypeError, "only integer tensors of a single element can be converted to an index");
  return item(I, t, "its use as an index");
}
Value t_int(Interp& I, const Value& a) {
  Value v = item(I, self_t(a), "int()");
  return v.is_float() ? Value::integer(static_cast<int64_t>(v.f())) : Value::integer(v.i());
}
Value t_float(Interp& I, const Value& a) {
  Value v = item(I, self_t(a), "float()");
  return v.is_float() ? v : Value::real(static_cast<double>(v.i()));
}

// `not t` when t's truth is only known at run time.
Value m_not(Interp& I, const Value& self, const eval::Args&) { return symbolic_not(torch_state(), self); }

eval::Truth t_bool(Interp& I, const Value& a) {
  TensorObj* t = self_t(a);
  DimExpr n = product(t->shape);
  if (n.is_const() && n.value() != 1)
    eval::raise(I, I.exc.RuntimeError, "Boolean value of Tensor with more than one value is ambiguous");
  bool f;
  std::optional<double> v = known_scalar(t, &f);
  if (v) return *v != 0 ? eval::kTrue : eval::kFalse;
  return eval::kSymbolic;
}

// bool(t) where Python needs a bool, for a one-element tensor only known at run time: when it
// depends on the checkpoint's values alone (a buffer holding a resolution or a step count, the
// initialized flag of a data-aware init), its value with this checkpoint decides, as in eager and as
// a tracer records it; a warning says the export holds for this checkpoint's values of it.
// The same for a number read from such a tensor (`bool(flag.item())`: a SymInt whose symbol is the
// item's value).
eval::Truth settle_truth(Interp& I, const Value& v) {
  Torch& T = torch_state();
  ir::Value* graph_value = nullptr;
  if (is_symint(v)) {
    graph_value = T.rec.dim_scalar(eval::as<SymIntObj>(v)->expr);
  } else if (is_tensor(v)) {
    if (!one_element(as_tensor(v))) return eval::kSymbolic;
    graph_value = value_of(T, as_tensor(v));
  } else {
    return eval::kSymbolic;
  }
  std::shared_ptr<const ir::Tensor> val = checkpoint_values(T, graph_value);
  if (!val || val->numel() != 1) return eval::kSymbolic;
  bool truth = val->float_at(0) != 0;
  T.warnings.push_back(Diagnostic::warning(
      fmt::format("a Python bool is needed from a value that depends only on the checkpoint's values: it is {} with "
                  "this checkpoint, and the exported model keeps that decision (export again for weights that "
                  "decide otherwise)",
                  truth ? "True" : "False"),
      T.rec.location()));
  return truth ? eval::kTrue : eval::kFalse;
}

int64_t t_len(Interp& I, const Value& a) {
  TensorObj* t = self_t(a);
  if (t->rank() == 0) eval::raise(I, I.exc.TypeError, "len() of a 0-d tensor");
  if (!t->shape[0].is_const())
    need_concrete(torch_state(), fmt::format("the size '{}'", t->shape[0].str()), "its length as a Python int");
  return t->shape[0].value();
}

// len(x) with a first dim only known at run time: that size, a SymInt like x.size(0) (PyTorch's
// len(x) is x.shape[0]). Other values (and static sizes) take __len__.
Value symbolic_len(Interp& I, const Value& v) {
  if (Value n = sequence_len(torch_state(), v)) return n;  // a list held as an ONNX sequence
  if (!is_tensor(v)) return Value();
  TensorObj* t = as_tensor(v);
  if (t->rank() == 0 || t->shape[0].is_const()) return Value();
  return make_size_value(torch_state(), t->shape[0]);
}

Value t_iter(Interp& I, const Value& a) {
  TensorObj* t = self_t(a);
  if (t->rank() == 0) eval::raise(I, I.exc.TypeError, "iteration over a 0-d tensor");
  if (!t->shape[0].is_const())
    need_concrete(torch_state(), fmt::format("the size '{}'", t->shape[0].str()), "iterating over it as Python values (a tensor, or a range() over that size outside a `for` statement)");
  return eval::iter(I, call_op(torch_state(), "unbind", {a, Value::integer(0)}));
}

Value t_repr(Interp& I, const Value& a) {
  TensorObj* t = self_t(a);
  bool is_param = I.type_of(a)->is_subtype_of(torch_state().parameter_type);
  bool f;
  std::optional<double> v = t->rank() == 0 ? known_scalar(t, &f) : std::nullopt;
  std::string body;
  if (v) body = f ? eval::repr_string(I, Value::real(*v)) : std::to_string(static_cast<int64_t>(*v));
  else body = fmt::format("<{} values>", shape_text(t->shape));
  std::string s = fmt::format("tensor({}, dtype=torch.{})", body, info(t->dtype).name);
  return I.str(is_param ? "Parameter containing:\n" + s : s);
}

int64_t t_hash(Interp& I, const Value& a) { return static_cast<int64_t>(reinterpret_cast<uintptr_t>(a.obj()) >> 4); }

Value t_getitem(Interp& I, const Value& a, const Value& key) {
  Torch& T = torch_state();
  if (const Value* p = eval::find_poison(key)) return poison_reached_op(T, *p, "Tensor.__getitem__");
  if (T.building) return placeholder_scope(T, false, [&] { return index_get(T, self_t(a), key); });
  return index_get(T, self_t(a), key);
}

void t_setitem(Interp& I, const Value& a, const Value& key, const Value& v) {
  Torch& T = torch_state();
  if (const Value* p = eval::find_poison(key)) {
    poison_reached_op(T, *p, "Tensor.__setitem__");
    return;
  }
  if (eval::is_poison(v)) {
    poison_reached_op(T, v, "Tensor.__setitem__");
    return;
  }
  if (T.building) {
    placeholder_scope(T, true, [&] {
      index_set(T, self_t(a), key, v);
      return a;
    });
    return;
  }
  index_set(T, self_t(a), key, v);
}

Value t_format(Interp& I, const Value& a, const Value& spec) {
  TensorObj* t = self_t(a);
  bool f;
  std::optional<double> v = t->rank() == 0 ? known_scalar(t, &f) : std::nullopt;
  std::string sp = eval::is_str(spec) ? eval::as_str(spec)->s : "";
  // PyTorch formats a zero-dim tensor as its item(): a format spec needs the value (an error naming
  // why when it is only known at run time); without one, an unknown value prints as the tensor.
  if ((v || t->rank() == 0) && !sp.empty())
    return I.str(eval::str_string(I, eval::call_method(I, item(I, t, "format()"), I.intern("__format__"), spec)));
  return t_repr(I, a);
}

// ---- attributes ----

Value g_shape(Interp& I, const Value& a) { return make_size_tuple(torch_state(), self_t(a)->shape); }
Value g_dtype(Interp& I, const Value& a) { return torch_state().dtype_object(self_t(a)->dtype); }
Value g_device(Interp& I, const Value& a) { return torch_state().cpu_device; }
Value g_ndim(Interp& I, const Value& a) { return Value::integer(static_cast<int64_t>(self_t(a)->rank())); }
Value g_false(Interp& I, const Value& a) { return Value::boolean(false); }
// Every tensor here is dense: x.layout is the prelude's torch.strided.
Value g_layout(Interp& I, const Value& a) {
  Value torch_mod = I.loader().import_module("torch", nullptr, 0, false, SourceRange{});
  return eval::getattr(I, torch_mod, I.intern("strided"));
}
// onnxify's tensors are real (complex values are torch.fft's ComplexTensor): .real is the tensor
// itself, as PyTorch returns self for a real dtype, and .imag is PyTorch's error.
Value g_real(Interp& I, const Value& a) { return a; }
Value g_imag(Interp& I, const Value& a) {
  eval::raise(I, I.exc.RuntimeError, "imag is not implemented for tensors with non-complex dtypes.");
}
Value g_true(Interp& I, const Value& a) { return Value::boolean(true); }
Value g_none(Interp& I, const Value& a) { return Value::none(); }
Value g_requires_grad(Interp& I, const Value& a) { return Value::boolean(self_t(a)->requires_grad); }
void s_requires_grad(Interp& I, const Value& a, const Value& v) { self_t(a)->requires_grad = v && eval::is_true(I, v); }
Value g_is_leaf(Interp& I, const Value& a) { return Value::boolean(!self_t(a)->base); }
Value g_version(Interp& I, const Value& a) { return Value::integer(self_t(a)->version); }
void s_ignore(Interp& I, const Value& a, const Value& v) {}

// x.data: an alias (writes through it reach x); assigning x.data = y replaces x's values.
Value g_data(Interp& I, const Value& a) {
  Torch& T = torch_state();
  TensorObj* t = self_t(a);
  auto d = I.make<TensorObj>(T.tensor_type);
  d->dtype = t->dtype;
  d->shape = t->shape;
  d->value = t->value;
  d->data = t->data;
  d->fill = t->fill;
  d->uninitialized = t->uninitialized;
  d->random = t->random;
  make_view(d.get(), t, ViewSpec{ViewSpec::Kind::Alias});
  return d.take_value();
}
void s_data(Interp& I, const Value& a, const Value& v) {
  if (!is_tensor(v)) eval::raise(I, I.exc.TypeError, "data must be a Tensor");
  TensorObj* t = self_t(a);
  TensorObj* src = as_tensor(v);
  note_write(torch_state(), t);
  t->dtype = src->dtype;
  t->take_state_of(*src);
}

Value g_T(Interp& I, const Value& a) {
  TensorObj* t = self_t(a);
  std::vector<Value> dims;
  for (int64_t i = static_cast<int64_t>(t->rank()) - 1; i >= 0; --i) dims.push_back(Value::integer(i));
  return call_op(torch_state(), "permute", {a, eval::new_list(I, std::move(dims))});
}

// ---- methods ----

Value m_size(Interp& I, const Value& self, const Args& a) {
  static const eval::Signature sig("size", "dim=None");
  Value v[1];
  sig.bind(I, a, v);
  TensorObj* t = self_t(self);
  if (!v[0] || v[0].is_none()) return make_size_tuple(torch_state(), t->shape);
  int64_t d = norm_dim(I, eval::index(I, v[0]), static_cast<int64_t>(t->rank()));
  if (t->rank() == 0) eval::raise(I, I.exc.IndexError, "dimension specified as 0 but tensor has no dimensions");
  return make_size_value(torch_state(), t->shape[d]);
}

Value m_dim(Interp& I, const Value& self, const Args& a) {
  eval::check_nargs(I, a, "dim", 0, 0);
  return Value::integer(static_cast<int64_t>(self_t(self)->rank()));
}

Value m_numel(Interp& I, const Value& self, const Args& a) {
  eval::check_nargs(I, a, "numel", 0, 0);
  return make_size_value(torch_state(), product(self_t(self)->shape));
}

Value m_element_size(Interp& I, const Value& self, const Args& a) {
  return Value::integer(info(self_t(self)->dtype).itemsize);
}

Value m_is_floating_point(Interp& I, const Value& self, const Args& a) {
  return Value::boolean(is_floating(self_t(self)->dtype));
}
Value m_is_complex(Interp& I, const Value& self, const Args& a) { return Value::boolean(is_complex(self_t(self)->dtype)); }
Value m_true(Interp& I, const Value& self, const Args& a) { return Value::boolean(true); }

// t.data_ptr(): a number that says which memory t starts at, for identity checks (`query.data_ptr()
// == key.data_ptr()` picks self-attention): tensors that start at the same element of the same
// storage (a tensor and its aliases, reshapes, permutations, expansions) give the same number;
// any other view gives its own.
Value m_data_ptr(Interp& I, const Value& self, const Args& a) {
  const TensorObj* t = as_tensor(self);
  while (t->base && t->view.kind != ViewSpec::Kind::Index) t = t->base.get();
  return Value::integer(static_cast<int64_t>(reinterpret_cast<intptr_t>(t) >> 4));
}
Value m_false(Interp& I, const Value& self, const Args& a) { return Value::boolean(false); }
Value m_self(Interp& I, const Value& self, const Args& a) { return self; }
Value m_get_device(Interp& I, const Value& self, const Args& a) { return Value::integer(-1); }

Value m_requires_grad_(Interp& I, const Value& self, const Args& a) {
  static const eval::Signature sig("requires_grad_", "requires_grad=True");
  Value v[1];
  sig.bind(I, a, v);
  self_t(self)->requires_grad = !v[0] || eval::is_true(I, v[0]);
  return self;
}

Value m_item(Interp& I, const Value& self, const Args& a) {
  eval::check_nargs(I, a, "item", 0, 0);
  TensorObj* t = self_t(self);
  if (t->dtype == DType::Bool && t->rank() == 0) {
    // A bool only known when the model runs (`q_len > 1` of a symbolic length, a tensor condition):
    // the condition itself, as `if`, `and`/`or`/`not` and ops' bool parameters take it. Code that asks
    // for a Python bool here is export code (transformers' `is_causal.item()` under is_tracing()).
    Torch& T = torch_state();
    std::string why;
    if (!known_values(T, t, &why) && (why.empty() || why.rfind("is computed by a tensor-dependent", 0) == 0)) {
      Value r = new_tensor(T, value_of(T, t), DType::Bool, {});
      static_cast<TensorObj*>(r.obj())->symbolic_bool = true;
      return r;
    }
  }
  // An int or float only known when the model runs: a size / a zero-dim float tensor, as int(t) is.
  if (t->dtype != DType::Bool && runtime_scalar(torch_state(), t)) return runtime_item(torch_state(), t, is_floating(t->dtype));
  return item(I, t, "item()");
}

// tolist()'s nested lists of `shape` from dim on; `leaf(k)` gives the element at flat index k.
Value nested_list(Interp& I, const std::vector<int64_t>& shape, size_t dim, int64_t& at,
                  const std::function<Value(int64_t)>& leaf) {
  if (dim == shape.size()) return leaf(at++);
  std::vector<Value> items;
  for (int64_t i = 0; i < shape[dim]; ++i) items.push_back(nested_list(I, shape, dim + 1, at, leaf));
  return eval::new_list(I, std::move(items));
}

// The most elements tolist() gives as run-time numbers one by one (a node or two each).
constexpr int64_t kRunTimeListMax = 256;

Value m_tolist(Interp& I, const Value& self, const Args& a) {
  eval::check_nargs(I, a, "tolist", 0, 0);
  TensorObj* t = self_t(self);
  if (t->rank() == 1 && !t->sizes.empty() && t->sizes_version == t->version) {
    // Sizes made into a tensor (torch.tensor(x.shape[:2])) give those sizes back.
    std::vector<Value> items;
    for (const DimExpr& d : t->sizes) items.push_back(make_size_value(torch_state(), d));
    return eval::new_list(I, std::move(items));
  }
  Torch& T = torch_state();
  DimExpr n = product(t->shape);
  bool static_shape = std::all_of(t->shape.begin(), t->shape.end(), [](const DimExpr& d) { return d.is_const(); });
  if (static_shape && n.value() <= kRunTimeListMax && t->dtype != DType::Bool && !t->random && !t->uninitialized &&
      !is_complex(t->dtype) && elem(t->dtype) != ir::ElementType::Undefined && !known_values(T, t)) {
    // A static shape whose values are only known when the model runs (`lengths.tolist()` of an
    // input): nested lists of run-time numbers, each what item() of that element gives (a size for
    // integers, a zero-dim float tensor for floats). Bools and larger tensors need the values.
    ir::Value* flat = T.rec.emit("Reshape", {value_of(T, t), T.rec.const_i64({-1})},
                                 ir::Type::tensor(elem(t->dtype), {n}));
    std::vector<int64_t> shape;
    for (const DimExpr& d : t->shape) shape.push_back(d.value());
    int64_t at = 0;
    return nested_list(I, shape, 0, at, [&](int64_t k) {
      ir::Value* x = T.rec.emit("Gather", {flat, T.rec.const_i64_scalar(k)}, ir::Type::tensor(elem(t->dtype), {}),
                                {{"axis", int64_t{0}}});
      Value e = new_tensor(T, x, t->dtype, {});
      return runtime_item(T, as_tensor(e), is_floating(t->dtype));
    });
  }
  auto known = need_values(T, t, "tolist()");
  int64_t at = 0;
  return nested_list(I, known->shape(), 0, at, [&](int64_t k) {
    if (t->dtype == DType::Bool) return Value::boolean(known->int_at(k) != 0);
    if (is_floating(t->dtype)) return Value::real(known->float_at(k));
    return Value::integer(known->int_at(k));
  });
}

// t.numpy(): the prelude numpy's array holding this tensor (as PyTorch's shares its memory); its values
// are read when Python needs them, like the tensor's own.
Value m_numpy(Interp& I, const Value& self, const Args& a) {
  Value mod = I.loader().import_module("torch._numpy_interop", nullptr, 0, false, {});
  return eval::call(I, eval::getattr(I, mod, "tensor_numpy"), self);
}

// The legacy tensor type of each dtype (torch.FloatTensor is float32), in DType order.
constexpr const char* kLegacyTypeNames[] = {
    "ByteTensor",         "CharTensor",          "ShortTensor", "IntTensor",   "LongTensor",   "HalfTensor",
    "FloatTensor",        "DoubleTensor",        "ComplexHalfTensor", "ComplexFloatTensor", "ComplexDoubleTensor",
    "BoolTensor",         "QInt8Tensor",         "QUInt8Tensor", "QInt32Tensor", "BFloat16Tensor"};

Value m_type(Interp& I, const Value& self, const Args& a) {
  static const eval::Signature sig("type", "dtype=None, non_blocking=False");
  Value v[2];
  sig.bind(I, a, v);
  TensorObj* t = self_t(self);
  if (!v[0] || v[0].is_none()) return I.str(fmt::format("torch.{}", kLegacyTypeNames[static_cast<size_t>(t->dtype)]));
  std::optional<DType> d = to_dtype(I, v[0]);
  if (!d && eval::is_str(v[0])) {
    // 'torch.FloatTensor', 'torch.cuda.LongTensor', ... (the device part changes nothing here).
    std::string s = eval::as_str(v[0])->s;
    if (s.rfind("torch.cuda.", 0) == 0) s = "torch." + s.substr(11);
    for (size_t k = 0; k < std::size(kLegacyTypeNames); ++k)
      if (s == fmt::format("torch.{}", kLegacyTypeNames[k])) d = static_cast<DType>(k);
  } else if (!d) {
    // A legacy tensor type (torch.FloatTensor, torch.cuda.HalfTensor): its dtype.
    Value dt = eval::getattr_opt(I, v[0], "dtype");
    if (dt && I.type_of(dt) == torch_state().dtype_type) d = to_dtype(I, dt);
  }
  if (!d) eval::raisef(I, I.exc.TypeError, "type(): invalid type: {}", eval::repr_string(I, v[0]));
  return call_op(torch_state(), "to", {self, torch_state().dtype_object(*d)});
}

Value m_getattr(Interp& I, const Value& self, const Args& a) {
  eval::check_nargs(I, a, "__getattr__", 1, 1);
  eval::Str* name = eval::is_str(a[0]) ? eval::as_str(a[0]) : nullptr;
  if (!name) eval::raise(I, I.exc.TypeError, "attribute name must be string");
  // Methods written in Python (prelude torch/_tensor_methods.py): the method forms of prelude functions.
  Value py_methods = I.loader().import_module("torch._tensor_methods", nullptr, 0, false, {});
  Value m = eval::call(I, eval::getattr(I, py_methods, "bound"), self, a[0]);
  if (!m.is_none()) return m;
  // Names PyTorch's Tensor has but onnxify does not: unknown values, reported if they are used.
  Torch& T = torch_state();
  if (!T.tensor_api_names) {
    Value mod = I.loader().import_module("torch._api_names", nullptr, 0, false, {});
    T.tensor_api_names = eval::getattr(I, mod, "TENSOR");
  }
  if (eval::contains(I, T.tensor_api_names, a[0])) {
    // An in-place method changes the tensor even when its result is dropped (`t.fill_diagonal_(1)`):
    // an unknown value would go unnoticed there and the export be silently wrong, so it is reported.
    std::string_view n = name->s;
    if (n.size() > 1 && n.back() == '_' && n[n.size() - 2] != '_')
      return unsupported(T, fmt::format("Tensor.{}", n), "this in-place method is not supported by onnxify");
    Value p = eval::make_poison(I, fmt::format("Tensor.{}", name->s), fmt::format("Tensor.{} is not supported by onnxify", name->s));
    eval::as<eval::Poison>(p)->may_alias = true;  // its result may view this tensor: writes into it are errors
    return p;
  }
  eval::raisef(I, I.exc.AttributeError, "'{}' object has no attribute '{}'", eval::type_name(I, self), name->s);
}

}  // namespace

Value legacy_new(Torch& T, DType dt, const Args& a, const char* what) {
  Interp& I = T.I;
  for (uint32_t k = 0; k < a.nkw; ++k) {
    std::string_view kw = a.kwnames[k]->view();
    if (kw == "device") continue;
    // The legacy signatures name their one positional argument: Tensor(size=(2, 3)) is a size (a
    // tuple given positionally is data), Tensor(data=[...]), Tensor(other=t).
    if (a.npos == 0 && kw == "size") return call_op_kw(T, "empty", {a.kwvals[k]}, "dtype", T.dtype_object(dt));
    if (a.npos == 0 && (kw == "data" || kw == "other")) {
      Value v = a.kwvals[k];
      return legacy_new(T, dt, Args(&v, 1), what);
    }
    eval::raisef(I, I.exc.TypeError, "{}() got an unexpected keyword argument '{}'", what, kw);
  }
  Value dtype = T.dtype_object(dt);
  if (a.npos == 0) return call_op_kw(T, "empty", {eval::new_list(I, {Value::integer(0)})}, "dtype", dtype);
  const Value& first = a[0];
  if (a.npos == 1 && is_tensor(first)) {
    TensorObj* t = as_tensor(first);
    if (t->dtype != dt)
      eval::raisef(I, I.exc.TypeError, "expected a tensor of dtype torch.{} (got torch.{})", info(dt).name,
                   info(t->dtype).name);
    return call_op(T, "detach", {first});  // PyTorch gives an alias of the same storage
  }
  // A torch.Size, or sizes as separate arguments (ints or SymInts): an uninitialized tensor.
  bool sizes = a.npos == 1 && I.type_of(first) == T.size_type;
  if (!sizes) {
    sizes = true;
    for (uint32_t k = 0; k < a.npos; ++k) sizes = sizes && is_int_like(I, a[k]) && !a[k].is_bool();
  }
  if (sizes) {
    Value shape = a.npos == 1 && I.type_of(first) == T.size_type ? first
                                                                  : eval::new_list(I, std::vector<Value>(a.pos, a.pos + a.npos));
    return call_op_kw(T, "empty", {shape}, "dtype", dtype);
  }
  if (a.npos == 1 && !(first.is_int() || first.is_float() || first.is_bool() || is_symint(first)))
    return call_op_kw(T, "tensor", {first}, "dtype", dtype);
  if (a.npos == 1)
    eval::raisef(I, I.exc.TypeError, "new(): data must be a sequence (got {})", eval::type_name(I, first));
  eval::raisef(I, I.exc.TypeError, "new() received an invalid combination of arguments - got ({} arguments)", a.npos);
}

namespace {

Value copy_tensor(Torch& T, TensorObj* t, eval::Type* type) {
  auto d = T.I.make<TensorObj>(type);
  d->dtype = t->dtype;
  d->shape = t->shape;
  // A copy of a random placeholder is one too (a parameter's copy gets its own checkpoint values).
  if (has_random_values(t))
    d->random = true;
  else
    d->value = value_of(T, t);
  d->requires_grad = t->requires_grad;
  return d.take_value();
}

Value m_deepcopy(Interp& I, const Value& self, const Args& a) {
  Torch& T = torch_state();
  TensorObj* t = self_t(self);
  Value r = copy_tensor(T, t, I.type_of(self));
  TensorObj* d = as_tensor(r);
  // A deep copy keeps a conversion-time constant readable (it was not materialized then).
  d->value = t->value;
  d->data = t->data;
  d->fill = t->fill;
  d->uninitialized = t->uninitialized;
  d->random = t->random;
  if (self.obj()->dict && d->dict) eval::dict_update(I, d->dict, Value::borrow(self.obj()->dict));
  return r;
}

Value tensor_alloc(Interp& I, eval::Type* cls) { return I.make<TensorObj>(cls).take_value(); }

// torch.Tensor(...): the legacy constructor (sizes give an uninitialized float tensor, data a copy).
Value tensor_new(Interp& I, eval::Type* cls, const Args& a) {
  Torch& T = torch_state();
  Value r = legacy_new(T, T.default_dtype, a, "Tensor");
  if (cls == T.tensor_type || !is_tensor(r)) return r;
  Value c = copy_tensor(T, as_tensor(r), cls);
  return c;
}

// Tensor.new(...): the legacy constructor with this tensor's dtype.
Value m_new(Interp& I, const Value& self, const Args& a) { return legacy_new(torch_state(), self_t(self)->dtype, a, "new"); }

// nn.Parameter(data=None, requires_grad=True): the same values, as a leaf tensor of type Parameter.
Value parameter_new(Interp& I, eval::Type* cls, const Args& a) {
  static const eval::Signature sig("Parameter", "data=None, requires_grad=True");
  Value v[2];
  sig.bind(I, a, v);
  Torch& T = torch_state();
  Value data = v[0] && !v[0].is_none() ? v[0] : call_op(T, "empty", {eval::new_list(I, {Value::integer(0)})});
  if (eval::is_poison(data)) return data;
  if (!is_tensor(data)) eval::raisef(I, I.exc.TypeError, "Parameter(): data must be a Tensor, not {}", eval::type_name(I, data));
  TensorObj* t = as_tensor(data);
  auto p = I.make<TensorObj>(cls);
  p->dtype = t->dtype;
  p->shape = t->shape;
  p->value = t->value;
  p->data = t->data;
  p->fill = t->fill;
  p->uninitialized = t->uninitialized;
  p->random = t->random;
  // A view: its current values, not the view itself; a view of a random placeholder
  // (Parameter(w.data) after nn.init) is a placeholder too, whose values the checkpoint gives.
  if (has_random_values(t))
    p->value = nullptr, p->data.reset(), p->fill.reset(), p->random = true;
  else if (t->base)
    value_of(T, t), p->value = t->value;
  p->requires_grad = !v[1] || eval::is_true(I, v[1]);
  return p.take_value();
}

Value parameter_repr(Interp& I, const Value& a) { return t_repr(I, a); }

}  // namespace

void init_tensor_type(Torch& T) {
  Interp& I = T.I;
  eval::TypeSpec s;
  s.name = "Tensor";
  s.module = "torch";
  s.alloc = &tensor_alloc;
  s.flags = eval::kTypeBase | eval::kTypeInstanceDict | eval::kTypeHasGetattr;
  s.slots.new_ = &tensor_new;
  s.slots.repr = &t_repr;
  s.slots.str = &t_repr;
  s.slots.hash = &t_hash;
  s.slots.add = &binop<kAdd>;
  s.slots.radd = &t_radd;
  s.slots.iadd = &ibinop<kAdd>;
  s.slots.sub = &binop<kSub>;
  s.slots.rsub = &t_rsub;
  s.slots.isub = &ibinop<kSub>;
  s.slots.mul = &binop<kMul>;
  s.slots.rmul = &t_rmul;
  s.slots.imul = &ibinop<kMul>;
  s.slots.truediv = &binop<kDiv>;
  s.slots.rtruediv = &rbinop<kDiv>;
  s.slots.itruediv = &ibinop<kDiv>;
  s.slots.floordiv = &binop<kFloorDiv>;
  s.slots.rfloordiv = &rbinop<kFloorDiv>;
  s.slots.ifloordiv = &ibinop<kFloorDiv>;
  s.slots.mod = &binop<kRem>;
  s.slots.rmod = &rbinop<kRem>;
  s.slots.imod = &ibinop<kRem>;
  s.slots.pow = &binop<kPow>;
  s.slots.rpow = &rbinop<kPow>;
  s.slots.ipow = &ibinop<kPow>;
  s.slots.matmul = &binop<kMatmul>;
  s.slots.rmatmul = &rbinop<kMatmul>;
  s.slots.and_ = &binop<kAnd>;
  s.slots.rand = &binop<kAnd>;
  s.slots.iand = &ibinop<kAnd>;
  s.slots.or_ = &binop<kOr>;
  s.slots.ror = &binop<kOr>;
  s.slots.ior = &ibinop<kOr>;
  s.slots.xor_ = &binop<kXor>;
  s.slots.rxor = &binop<kXor>;
  s.slots.ixor = &ibinop<kXor>;
  s.slots.eq = &binop<kEq>;
  s.slots.ne = &binop<kNe>;
  s.slots.lt = &binop<kLt>;
  s.slots.le = &binop<kLe>;
  s.slots.gt = &binop<kGt>;
  s.slots.ge = &binop<kGe>;
  s.slots.neg = &t_neg;
  s.slots.pos = &t_pos;
  s.slots.abs = &t_abs;
  s.slots.invert = &t_invert;
  s.slots.bool_ = &t_bool;
  s.slots.index = &t_index;
  s.slots.int_ = &t_int;
  s.slots.float_ = &t_float;
  s.slots.len = &t_len;
  s.slots.iter = &t_iter;
  s.slots.getitem = &t_getitem;
  s.slots.setitem = &t_setitem;
  s.slots.format = &t_format;
  s.getsets = {{"shape", &g_shape},
               {"dtype", &g_dtype},
               {"device", &g_device},
               {"ndim", &g_ndim},
               {"is_cuda", &g_false},
               {"is_sparse", &g_false},
               {"volatile", &g_false},  // removed in PyTorch 0.4: always False, with a warning
               {"layout", &g_layout},
               {"real", &g_real},
               {"imag", &g_imag},
               {"is_quantized", &g_false},
               {"is_meta", &g_false},
               {"is_mkldnn", &g_false},
               {"is_nested", &g_false},
               {"is_cpu", &g_true},
               {"requires_grad", &g_requires_grad, &s_requires_grad},
               {"is_leaf", &g_is_leaf},
               {"grad", &g_none, &s_ignore},
               {"grad_fn", &g_none},
               {"names", &g_none},
               {"_version", &g_version},
               {"data", &g_data, &s_data},
               {"T", &g_T}};
  s.methods = {{"size", &m_size},
               {"dim", &m_dim},
               {"ndimension", &m_dim},
               {"numel", &m_numel},
               {"nelement", &m_numel},
               {"element_size", &m_element_size},
               {"is_floating_point", &m_is_floating_point},
               {"is_complex", &m_is_complex},
               {"is_contiguous", &m_true},
               {"data_ptr", &m_data_ptr},
               {"is_pinned", &m_false},
               {"cpu", &m_self},
               {"cuda", &m_self},
               {"pin_memory", &m_self},
               {"share_memory_", &m_self},
               {"get_device", &m_get_device},
               {"requires_grad_", &m_requires_grad_},
               {"retain_grad", &m_self},
               {"item", &m_item},
               {"tolist", &m_tolist},
               {"numpy", &m_numpy},
               {"type", &m_type},
               {"new", &m_new},
               {"__getattr__", &m_getattr},
               {"__deepcopy__", &m_deepcopy},
               {"__onnxify_not__", &m_not}};
  for (const eval::MethodDef& m : op_tensor_methods()) s.methods.push_back(m);
  T.tensor_type = eval::new_native_type(I, s);

  eval::TypeSpec p;
  p.name = "Parameter";
  p.module = "torch.nn.parameter";
  p.base = T.tensor_type;
  p.alloc = &tensor_alloc;
  p.flags = eval::kTypeBase | eval::kTypeInstanceDict | eval::kTypeHasGetattr;
  p.slots.new_ = &parameter_new;
  p.slots.repr = &parameter_repr;
  T.parameter_type = eval::new_native_type(I, p);
  I.symbolic.len = &symbolic_len;
  I.symbolic.settle = &settle_truth;
  install_rows_hooks(T);
}

}  // namespace onnxify::torch
