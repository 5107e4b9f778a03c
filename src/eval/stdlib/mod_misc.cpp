// Small native modules: gc, time (no clocks: results would differ run to run), and _onnxify, the
// helpers the Python half of the stdlib needs from C++.
#include <sys/utsname.h>
#include <unistd.h>

#include "eval/code.h"
#include "eval/frame.h"
#include "eval/internal.h"
#include "eval/poison.h"

namespace onnxify::eval {

namespace {

Value gc_collect(Interp& I, const Value&, const Args& a) { return Value::integer(0); }
Value gc_noop(Interp& I, const Value&, const Args& a) { return Value::none(); }
Value gc_isenabled(Interp& I, const Value&, const Args& a) { return Value::boolean(true); }

// _onnxify.code_info(f) -> (argnames, posonlycount, argcount, kwonlycount, varargs, varkw,
// generator): what inspect.signature needs from a function.
Value ox_code_info(Interp& I, const Value&, const Args& a) {
  check_nargs(I, a, "code_info", 1, 1);
  if (!has_layout(a[0], Layout::Function)) raise(I, I.exc.TypeError, "code_info() needs a Python function");
  Code* c = as<Function>(a[0])->code;
  std::vector<Value> names;
  uint32_t n = c->argcount + c->kwonlycount + (c->varargs ? 1 : 0) + (c->varkw ? 1 : 0);
  for (uint32_t k = 0; k < n && k < c->slot_names.size(); ++k) names.push_back(Value::borrow(c->slot_names[k]));
  return new_tuple(I, {new_tuple(I, names), Value::integer(c->posonlycount), Value::integer(c->argcount),
                       Value::integer(c->kwonlycount), Value::boolean(c->varargs), Value::boolean(c->varkw),
                       Value::boolean(c->generator)});
}

// _onnxify.poison(what, reason, located=True): a poison value (for stdlib stubs of unsafe functions).
// An unlocated poison (a module attribute standing for an unsafe function) takes the location where
// it is first used: the call of os.system, not the import of os.
Value ox_poison(Interp& I, const Value&, const Args& a) {
  check_nargs(I, a, "poison", 2, 3);
  Value p = make_poison(I, str_string(I, a[0]), str_string(I, a[1]));
  if (a.npos == 3 && !is_true(I, a[2])) as<Poison>(p)->origin = SourceRange{};
  return p;
}

Value ox_is_poison(Interp& I, const Value&, const Args& a) {
  check_nargs(I, a, "is_poison", 1, 1);
  return Value::boolean(is_poison(a[0]));
}

// _onnxify.has_poison(obj): whether obj is unknown or holds an unknown item (tuples, lists), so that
// library code (typing's subscripts) can keep such values opaque instead of inspecting them.
Value ox_has_poison(Interp& I, const Value&, const Args& a) {
  check_nargs(I, a, "has_poison", 1, 1);
  return Value::boolean(find_poison(a[0]) != nullptr);
}

// _onnxify.poison_transparent(*functions): marks pure library functions (os.path.join) so that an
// unknown argument gives an unknown result without running them. Returns the first one.
Value ox_poison_transparent(Interp& I, const Value&, const Args& a) {
  for (uint32_t k = 0; k < a.npos; ++k) {
    const Value& f = a.pos[k];
    if (has_layout(f, Layout::Function)) as<Function>(f)->poison_transparent = true;
    else if (has_layout(f, Layout::Native)) as<NativeFunc>(f)->flags |= kNativePoisonTransparent;
    else raisef(I, I.exc.TypeError, "poison_transparent() expects functions, not {}", type_name(I, f));
  }
  return a.npos ? a.pos[0] : Value::none();
}

// _onnxify.getcwd(): the name of the working directory (no file is read).
Value ox_getcwd(Interp& I, const Value&, const Args& a) {
  check_nargs(I, a, "getcwd", 0, 0);
  char buf[4096];
  if (!::getcwd(buf, sizeof buf)) return I.str("/");
  return I.str(buf);
}

// _onnxify.derive_poison(obj, what): an unknown value named `what` with the reason and origin of the
// first poison in obj.
Value ox_derive_poison(Interp& I, const Value&, const Args& a) {
  check_nargs(I, a, "derive_poison", 2, 2);
  const Value* p = find_poison(a[0]);
  if (!p) raise(I, I.exc.ValueError, "derive_poison(): no unknown value in the argument");
  return derive_poison(I, *p, str_string(I, a[1]));
}

// _onnxify.caller_module(depth=1): the __name__ of the module `depth` frames up.
Value ox_caller_globals(Interp& I, const Value&, const Args& a) {
  check_nargs(I, a, "caller_globals", 0, 1);
  int64_t depth = a.npos ? index(I, a[0]) : 1;
  Frame* f = I.frame;
  for (int64_t k = 0; f && k < depth; ++k) f = f->back;
  if (!f) return Value::none();
  return Value::borrow(f->globals);
}

// _onnxify.make_function(name, qualname, params, impl, *, posonly=0, kwonly=(), defaults=(),
// kwdefaults=None, varargs=None, varkw=None, module=None, doc=None): a real Python function with
// exactly this signature (so argument errors, inspect.signature and __code__ are CPython's) whose
// body is `return impl(<every parameter, in order>)`. What dataclasses and namedtuple build with
// exec() in CPython, without running generated source.
Value ox_make_function(Interp& I, const Value&, const Args& a) {
  static const Signature sig("make_function",
                             "name, qualname, params, impl, *, posonly=0, kwonly=(), defaults=(), kwdefaults=None, "
                             "varargs=None, varkw=None, module=None, doc=None");
  Value v[12];
  sig.bind(I, a, v);
  std::vector<Value> params = to_vector(I, v[2]);
  std::vector<Value> kwonly = v[5] ? to_vector(I, v[5]) : std::vector<Value>();
  auto unit = std::make_unique<CodeUnit>();
  unit->module_name = "<generated>";
  unit->file = std::make_shared<SourceFile>("<generated>", "");
  Code* c = unit->make_code();
  c->kind = CodeKind::Function;
  c->name = I.intern(str_string(I, v[0]));
  c->qualname = I.intern(str_string(I, v[1]));
  for (const Value& p : params) c->slot_names.push_back(I.intern(str_string(I, p)));
  for (const Value& p : kwonly) c->slot_names.push_back(I.intern(str_string(I, p)));
  c->argcount = static_cast<uint32_t>(params.size());
  c->posonlycount = v[4] ? static_cast<uint32_t>(index(I, v[4])) : 0;
  c->kwonlycount = static_cast<uint32_t>(kwonly.size());
  if (v[8] && !v[8].is_none()) {
    c->varargs = true;
    c->slot_names.push_back(I.intern(str_string(I, v[8])));
  }
  if (v[9] && !v[9].is_none()) {
    c->varkw = true;
    c->slot_names.push_back(I.intern(str_string(I, v[9])));
  }
  c->nslots = static_cast<uint32_t>(c->slot_names.size());
  auto* call = unit->make<CallExpr>();
  auto* fn = unit->make<ConstExpr>();
  fn->value = v[3];
  call->func = fn;
  for (uint32_t k = 0; k < c->nslots; ++k) {
    auto* n = unit->make<NameExpr>(EK::Local);
    n->slot = k;
    n->name = c->slot_names[k];
    call->args.push_back(n);
  }
  auto* ret = unit->make<ReturnStmt>();
  ret->value = call;
  c->body.push_back(ret);
  auto f = I.make<Function>(I.t.function);
  f->code = c;
  Dict* g = I.frame ? I.frame->globals : I.builtins.get();
  f->globals = Ref<Dict>(g);
  f->builtins = I.builtins.value();
  if (v[6]) f->defaults = to_vector(I, v[6]);
  if (v[7] && !v[7].is_none()) f->kwdefaults = dict_copy(I, as_dict(v[7]));
  f->name = Value::borrow(c->name);
  f->qualname = Value::borrow(c->qualname);
  f->module = v[10] ? v[10] : Value::none();
  f->doc = v[11] ? v[11] : Value::none();
  f->annotations = Value::none();
  I.keep(std::move(unit));
  return f.take_value();
}

// os.uname()'s fields: the host's system, release, version and machine (platform.machine() picks
// a library's code path the way the user's own Python on this host would); the node name stays
// hidden, it is never the model's business.
Value ox_uname(Interp& I, const Value&, const Args& a) {
  check_nargs(I, a, "uname", 0, 0);
  struct utsname u;
  if (::uname(&u) != 0) return new_tuple(I, {I.str("Linux"), I.str("localhost"), I.str(""), I.str(""), I.str("")});
  return new_tuple(I, {I.str(u.sysname), I.str("localhost"), I.str(u.release), I.str(u.version), I.str(u.machine)});
}

Value ox_write_err(Interp& I, const Value&, const Args& a) {
  check_nargs(I, a, "write_err", 1, 1);
  I.write_err(str_string(I, a[0]));
  return Value::none();
}

}  // namespace

void init_gc_module(Interp& I, Module* m) {
  add_function(I, m, "collect", &gc_collect);
  add_function(I, m, "enable", &gc_noop);
  add_function(I, m, "disable", &gc_noop);
  add_function(I, m, "isenabled", &gc_isenabled);
}

void init_files_functions(Interp& I, Module* m);  // mod_files.cpp

void init_onnxify_module(Interp& I, Module* m) {
  init_files_functions(I, m);
  add_function(I, m, "code_info", &ox_code_info);
  add_function(I, m, "poison", &ox_poison);
  add_function(I, m, "is_poison", &ox_is_poison);
  add_function(I, m, "has_poison", &ox_has_poison);
  add_function(I, m, "derive_poison", &ox_derive_poison);
  add_function(I, m, "poison_transparent", &ox_poison_transparent);
  add_function(I, m, "getcwd", &ox_getcwd);
  add_function(I, m, "caller_globals", &ox_caller_globals);
  add_function(I, m, "write_err", &ox_write_err);
  add_function(I, m, "uname", &ox_uname);
  add_function(I, m, "make_function", &ox_make_function);
  module_set(I, m, "FunctionType", Value::borrow(I.t.function));
  module_set(I, m, "BuiltinFunctionType", Value::borrow(I.t.builtin_function));
  module_set(I, m, "MethodType", Value::borrow(I.t.method));
  module_set(I, m, "ModuleType", Value::borrow(I.t.module));
  module_set(I, m, "GeneratorType", Value::borrow(I.t.generator));
  module_set(I, m, "CodeType", Value::borrow(I.t.code));
  module_set(I, m, "MappingProxyType", Value::borrow(I.t.mappingproxy));
  module_set(I, m, "GenericAlias", Value::borrow(I.t.generic_alias));
  module_set(I, m, "UnionType", Value::borrow(I.t.union_type));
  module_set(I, m, "WrapperDescriptorType", Value::borrow(I.t.slot_wrapper));
  module_set(I, m, "MethodWrapperType", Value::borrow(I.t.method_wrapper));
  module_set(I, m, "MethodDescriptorType", Value::borrow(I.t.method_descriptor));
  module_set(I, m, "GetSetDescriptorType", Value::borrow(I.t.getset));
  module_set(I, m, "CellType", Value::borrow(I.t.cell));
  module_set(I, m, "NoneType", Value::borrow(I.t.none));
  module_set(I, m, "EllipsisType", Value::borrow(I.t.ellipsis));
  module_set(I, m, "NotImplementedType", Value::borrow(I.t.notimplemented));
  module_set(I, m, "UnknownType", Value::borrow(I.t.poison));
}

}  // namespace onnxify::eval
