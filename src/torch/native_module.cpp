// install(): the native module torch._C (types, dtype objects, the op table's functions and the
// recorder hooks the prelude calls) and the embedded prelude sources.
#include <fmt/core.h>

#include "eval/containers.h"
#include "torch/control_flow.h"
#include "torch/ops.h"
#include "torch/torch.h"

extern const onnxify::eval::EmbeddedModule kTorchPrelude[];
extern const size_t kTorchPrelude_count;

namespace onnxify::torch {

void set_torch_state(Torch* t);

using eval::Args;
using eval::Interp;
using eval::Value;

namespace {

Value c_push_scope(Interp& I, const Value&, const Args& a) {
  eval::check_nargs(I, a, "_push_scope", 1, 1);
  torch_state().rec.push_scope(a[0].is_obj() ? a[0].obj() : nullptr);
  return Value::none();
}

Value c_pop_scope(Interp& I, const Value&, const Args& a) {
  torch_state().rec.pop_scope();
  return Value::none();
}

Value c_module_path(Interp& I, const Value&, const Args& a) {
  eval::check_nargs(I, a, "_module_path", 1, 1);
  const std::string* p = a[0].is_obj() ? torch_state().rec.module_path(a[0].obj()) : nullptr;
  return p ? I.str(*p) : Value::none();
}

Value c_get_default_dtype(Interp& I, const Value&, const Args& a) {
  Torch& T = torch_state();
  return T.dtype_object(T.default_dtype);
}

Value c_set_default_dtype(Interp& I, const Value&, const Args& a) {
  eval::check_nargs(I, a, "set_default_dtype", 1, 1);
  std::optional<DType> d = to_dtype(I, a[0]);
  if (!d || !is_floating(*d)) eval::raise(I, I.exc.TypeError, "only floating-point types are supported as the default type");
  torch_state().default_dtype = *d;
  return Value::none();
}

// torch._C._legacy_new(dtype, *args, device=None): what torch.FloatTensor(...) & co call.
Value c_legacy_new(Interp& I, const Value&, const Args& a) {
  if (a.npos < 1) eval::raise(I, I.exc.TypeError, "_legacy_new() needs a dtype");
  std::optional<DType> dt = to_dtype(I, a[0]);
  if (!dt) eval::raise(I, I.exc.TypeError, "_legacy_new(): the first argument must be a dtype");
  return legacy_new(torch_state(), *dt, a.shifted(), "new");
}

Value c_set_grad_enabled(Interp& I, const Value&, const Args& a) {
  eval::check_nargs(I, a, "_set_grad_enabled", 1, 1);
  torch_state().grad_enabled = eval::is_true(I, a[0]);
  return Value::none();
}

Value c_is_grad_enabled(Interp& I, const Value&, const Args& a) { return Value::boolean(torch_state().grad_enabled); }

Value c_is_tensor(Interp& I, const Value&, const Args& a) {
  eval::check_nargs(I, a, "is_tensor", 1, 1);
  return Value::boolean(is_tensor(a[0]));
}

Value c_register_return_type(Interp& I, const Value&, const Args& a) {
  eval::check_nargs(I, a, "_register_return_type", 2, 2);
  torch_state().return_types[eval::str_string(I, a[0])] = a[1];
  return Value::none();
}

// _warn(message): a warning at the user's current line (printed by the driver once).
Value c_warn(Interp& I, const Value&, const Args& a) {
  eval::check_nargs(I, a, "_warn", 1, 1);
  Torch& T = torch_state();
  std::string msg = eval::str_string(I, a[0]);
  for (const Diagnostic& w : T.warnings)
    if (w.message() == msg) return Value::none();
  T.warnings.push_back(Diagnostic::warning(msg, T.rec.location()));
  return Value::none();
}

// _unsupported(what, why): reports an unsupported feature (with all the others) and returns poison.
Value c_unsupported(Interp& I, const Value&, const Args& a) {
  eval::check_nargs(I, a, "_unsupported", 2, 2);
  return unsupported(torch_state(), eval::str_string(I, a[0]), eval::str_string(I, a[1]));
}

// _dims(tensor): its torch.Size.
Value c_tensor_dims(Interp& I, const Value&, const Args& a) {
  eval::check_nargs(I, a, "_dims", 1, 1);
  if (!is_tensor(a[0])) eval::raise(I, I.exc.TypeError, "_dims() expects a tensor");
  return make_size_tuple(torch_state(), as_tensor(a[0])->shape);
}

Value c_none(Interp& I, const Value&, const Args& a) { return Value::none(); }

// PEP 562 fallback of torch._C: PyTorch's private native API is large; a name onnxify does not
// provide is an unknown value, reported only if it is used.
Value c_getattr(Interp& I, const Value&, const Args& a) {
  eval::check_nargs(I, a, "__getattr__", 1, 1);
  std::string name = eval::str_string(I, a[0]);
  if (name.size() > 4 && name.compare(0, 2, "__") == 0 && name.compare(name.size() - 2, 2, "__") == 0)
    eval::raisef(I, I.exc.AttributeError, "module 'torch._C' has no attribute '{}'", name);
  return eval::make_poison(I, "torch._C." + name, fmt::format("torch._C.{} is not supported by onnxify", name));
}
Value c_false(Interp& I, const Value&, const Args& a) { return Value::boolean(false); }
Value c_true(Interp& I, const Value&, const Args& a) { return Value::boolean(true); }
// Whether the model is being built (module code, __init__), not recorded (forward): random draws
// are placeholders the checkpoint fills then, an error in forward.
Value c_building(Interp& I, const Value&, const Args& a) { return Value::boolean(torch_state().building); }
// _is_random(t): whether t is a placeholder for values drawn while the model is built (core.h).
Value c_is_random(Interp& I, const Value&, const Args& a) {
  eval::check_nargs(I, a, "_is_random", 1, 1);
  return Value::boolean(is_tensor(a[0]) && as_tensor(a[0])->random);
}
Value c_building_model(Interp& I, const Value&, const Args& a) {
  return Value::boolean(torch_state().building && torch_state().model_expr);
}

// _extend_type(cls, name, value): an attribute on torch.Size or torch.Tensor, native types Python code
// cannot change: the tensorflow module's shape and tensor methods (x.shape.as_list(), x.get_shape()),
// which only a TensorFlow model imports.
Value c_extend_type(Interp& I, const Value&, const Args& a) {
  eval::check_nargs(I, a, "_extend_type", 3, 3);
  Torch& T = torch_state();
  eval::Type* t = eval::is_type(a[0]) ? eval::as_type(a[0]) : nullptr;
  if (t != T.size_type && t != T.tensor_type)
    eval::raise(I, I.exc.TypeError, "_extend_type() extends torch.Size and torch.Tensor only");
  eval::extend_native_type(I, t, I.intern(eval::str_string(I, a[1])), a[2]);
  return Value::none();
}

void init_c_module(Interp& I, eval::Module* m) {
  Torch& T = torch_state();
  eval::module_set(I, m, "Tensor", Value::borrow(T.tensor_type));
  eval::module_set(I, m, "Parameter", Value::borrow(T.parameter_type));
  eval::module_set(I, m, "SymInt", Value::borrow(T.symint_type));
  eval::module_set(I, m, "Size", Value::borrow(T.size_type));
  eval::module_set(I, m, "dtype", Value::borrow(T.dtype_type));
  eval::module_set(I, m, "device", Value::borrow(T.device_type));
  for (const DTypeInfo& d : all_dtypes()) {
    eval::module_set(I, m, d.name, T.dtype_object(d.dtype));
    if (!d.alias1.empty()) eval::module_set(I, m, d.alias1, T.dtype_object(d.dtype));
    if (!d.alias2.empty()) eval::module_set(I, m, d.alias2, T.dtype_object(d.dtype));
  }
  eval::add_function(I, m, "_push_scope", &c_push_scope);
  eval::add_function(I, m, "_pop_scope", &c_pop_scope);
  eval::add_function(I, m, "_module_path", &c_module_path);
  eval::add_function(I, m, "_get_default_dtype", &c_get_default_dtype);
  eval::add_function(I, m, "_set_default_dtype", &c_set_default_dtype);
  eval::add_function(I, m, "_set_grad_enabled", &c_set_grad_enabled);
  eval::add_function(I, m, "is_grad_enabled", &c_is_grad_enabled);
  eval::add_function(I, m, "_is_tensor", &c_is_tensor);
  eval::add_function(I, m, "_legacy_new", &c_legacy_new);
  eval::add_function(I, m, "_register_return_type", &c_register_return_type);
  eval::add_function(I, m, "_warn", &c_warn);
  eval::add_function(I, m, "_unsupported", &c_unsupported);
  eval::add_function(I, m, "_dims", &c_tensor_dims);
  eval::add_function(I, m, "_get_tracing_state", &c_none);
  eval::add_function(I, m, "_log_api_usage_once", &c_none);
  eval::add_function(I, m, "__getattr__", &c_getattr);
  eval::add_function(I, m, "_is_scripting", &c_false);
  // What torch.jit.is_tracing() reads in PyTorch: True, as the prelude's is_tracing() says why.
  eval::add_function(I, m, "_is_tracing", &c_true);
  eval::add_function(I, m, "_building", &c_building);
  eval::add_function(I, m, "_building_model", &c_building_model);
  eval::add_function(I, m, "_is_random", &c_is_random);
  eval::add_function(I, m, "_extend_type", &c_extend_type);
  eval::Ref<eval::Module> vf = eval::new_module(I, "torch._C._VariableFunctions");
  eval::Ref<eval::Module> nn = eval::new_module(I, "torch._C._nn");
  install_op_functions(T, vf.get(), nn.get());
  eval::module_set(I, m, "_VariableFunctions", vf.value());
  eval::module_set(I, m, "_nn", nn.value());
  // `from torch._C._nn import ...` works like for any package: _C has a __path__ and its
  // submodules are in sys.modules.
  eval::module_set(I, m, "__path__", eval::new_list(I));
  eval::dict_set(I, I.modules.get(), I.str("torch._C._VariableFunctions"), vf.value());
  eval::dict_set(I, I.modules.get(), I.str("torch._C._nn"), nn.value());
}

}  // namespace

std::unique_ptr<Torch> install(Interp& I) {
  auto T = std::make_unique<Torch>(I);
  set_torch_state(T.get());
  init_dtype_types(*T);
  init_symint_type(*T);
  init_tensor_type(*T);
  I.add_native_module({"torch._C", &init_c_module});
  for (size_t i = 0; i < kTorchPrelude_count; ++i) I.add_embedded(kTorchPrelude[i]);
  T->control_flow = make_control_flow_hook(*T);
  I.control_flow_hook = T->control_flow.get();
  return T;
}

ir::Graph& recorded_graph(Torch& T) { return T.rec.main(); }

}  // namespace onnxify::torch
