// The builtins module: builtin functions, the builtin types and exceptions under their names, and
// the unsafe builtins (open, exec, eval, compile, input, ...) as poison.
#include <cmath>

#include "eval/compile.h"
#include "eval/frame.h"
#include "eval/internal.h"
#include "eval/loader.h"
#include "eval/poison.h"

namespace onnxify::eval {

std::string ascii_of(Interp& I, const Value& v);
Value b_iter(Interp& I, const Value&, const Args& a);
Value b_next(Interp& I, const Value&, const Args& a);
Value b_sorted(Interp& I, const Value&, const Args& a);
Value b_min(Interp& I, const Value&, const Args& a);
Value b_max(Interp& I, const Value&, const Args& a);
Value b_sum(Interp& I, const Value&, const Args& a);
Value b_any(Interp& I, const Value&, const Args& a);
Value b_all(Interp& I, const Value&, const Args& a);
void init_iter_builtin_types(Interp& I, Dict* b);

// ---- isinstance / issubclass --------------------------------------------------------------------------

static bool recursive_isinstance(Interp& I, const Value& v, const Value& cls, int depth);

bool isinstance_full(Interp& I, const Value& v, const Value& cls) { return recursive_isinstance(I, v, cls, 0); }

static bool recursive_isinstance(Interp& I, const Value& v, const Value& cls, int depth) {
  if (depth > 200) raise(I, I.exc.RecursionError, "maximum recursion depth exceeded in __instancecheck__");
  if (is_type(cls) && I.type_of(v)->is_subtype_of(as_type(cls))) return true;
  // A run-time size is an int to model code, as PyTorch's sizes are; the embedded library (the torch
  // prelude, written with them in mind) asks isinstance(x, int) to mean "a static size".
  if (is_type(cls) && as_type(cls) == I.t.int_ && I.symbolic.is_int && I.symbolic.is_int(v) && I.frame &&
      I.frame->code && !(I.frame->code->unit && I.frame->code->unit->library))
    return true;
  if (is_tuple(cls)) {
    for (const Value& c : as_tuple(cls)->items)
      if (recursive_isinstance(I, v, c, depth + 1)) return true;
    return false;
  }
  if (is_poison(cls)) poison_matters(I, cls, "the class of isinstance()");
  Type* meta = I.type_of(cls);
  if (is_type(cls) && meta == I.t.type) {
    // Objects may claim another class through __class__ (mock objects, proxies).
    Value c = getattr_opt(I, v, I.names.__class__);
    return c && is_type(c) && as_type(c)->is_subtype_of(as_type(cls));
  }
  Value check = type_lookup(meta, I.names.__instancecheck__);
  if (check) return is_true(I, call_unbound(I, check, cls, v));
  raise(I, I.exc.TypeError, "isinstance() arg 2 must be a type, a tuple of types, or a union");
}

bool issubclass_full(Interp& I, const Value& sub, const Value& cls) {
  if (is_tuple(cls)) {
    for (const Value& c : as_tuple(cls)->items)
      if (issubclass_full(I, sub, c)) return true;
    return false;
  }
  if (is_poison(cls)) poison_matters(I, cls, "the class of issubclass()");
  if (is_poison(sub)) poison_matters(I, sub, "the argument of issubclass()");
  Type* meta = I.type_of(cls);
  if (is_type(cls) && meta != I.t.type) {
    Value check = type_lookup(meta, I.names.__subclasscheck__);
    if (check) return is_true(I, call_unbound(I, check, cls, sub));
  }
  if (!is_type(sub)) raise(I, I.exc.TypeError, "issubclass() arg 1 must be a class");
  if (is_type(cls)) return as_type(sub)->is_subtype_of(as_type(cls));
  Value check = type_lookup(meta, I.names.__subclasscheck__);
  if (check) return is_true(I, call_unbound(I, check, cls, sub));
  raise(I, I.exc.TypeError, "issubclass() arg 2 must be a class, a tuple of classes, or a union");
}

// ---- builtin functions ----------------------------------------------------------------------------------

#define BUILTIN(name) static Value b_##name(Interp& I, const Value& self, const Args& a)

BUILTIN(print) {
  Value sep, end, file, flush;
  for (uint32_t k = 0; k < a.nkw; ++k) {
    const std::string& n = a.kwnames[k]->s;
    if (n == "sep") sep = a.kwvals[k];
    else if (n == "end") end = a.kwvals[k];
    else if (n == "file") file = a.kwvals[k];
    else if (n == "flush") flush = a.kwvals[k];
    else raisef(I, I.exc.TypeError, "print() got an unexpected keyword argument '{}'", n);
  }
  if (sep && !sep.is_none() && !is_str(sep))
    raisef(I, I.exc.TypeError, "sep must be None or a string, not {}", type_name(I, sep));
  if (end && !end.is_none() && !is_str(end))
    raisef(I, I.exc.TypeError, "end must be None or a string, not {}", type_name(I, end));
  std::string s;
  for (uint32_t k = 0; k < a.npos; ++k) {
    if (k) s += sep && is_str(sep) ? as_str(sep)->s : " ";
    const Value& v = a[k];
    if (is_poison(v)) poison_matters(I, v, "a printed value");
    s += str_string(I, v);
  }
  s += end && is_str(end) ? as_str(end)->s : "\n";
  if (!file || file.is_none()) {
    // sys.stdout may have been replaced (contextlib.redirect_stdout): print writes to it then.
    Value sys = dict_get_str(I.modules.get(), I.intern("sys"));
    if (sys && sys.obj()->dict) {
      Value out = dict_get_str(sys.obj()->dict, I.intern("stdout"));
      Value orig = dict_get_str(sys.obj()->dict, I.intern("__stdout__"));
      if (out && !out.is(orig)) file = out;
    }
  }
  if (file && !file.is_none()) {
    Value w = getattr(I, file, "write");
    call(I, w, I.str(s));
    return Value::none();
  }
  I.write_out(s);
  return Value::none();
}

BUILTIN(len) {
  check_nargs(I, a, "len", 1, 1);
  if (I.symbolic.len)
    if (Value n = I.symbolic.len(I, a[0])) return n;
  return Value::integer(len(I, a[0]));
}
BUILTIN(repr) {
  check_nargs(I, a, "repr", 1, 1);
  if (is_poison(a[0])) return derive_poison(I, a[0], "repr(" + poison_operand(I, a[0]) + ")");
  return repr(I, a[0]);
}
BUILTIN(ascii) {
  check_nargs(I, a, "ascii", 1, 1);
  return I.str(ascii_of(I, a[0]));
}
BUILTIN(hash) {
  check_nargs(I, a, "hash", 1, 1);
  return Value::integer(hash(I, a[0]));
}
BUILTIN(id) {
  check_nargs(I, a, "id", 1, 1);
  if (a[0].is_obj()) return Value::integer(static_cast<int64_t>(reinterpret_cast<uintptr_t>(a[0].obj())));
  return Value::integer(static_cast<int64_t>(a[0].raw_bits() * 16 + static_cast<int>(a[0].tag())));
}
BUILTIN(abs) {
  check_nargs(I, a, "abs", 1, 1);
  const Value& v = a[0];
  if (v.is_int() && v.i() != INT64_MIN) return Value::integer(v.i() < 0 ? -v.i() : v.i());
  if (v.is_float()) return Value::real(std::fabs(v.f()));
  UnaryFn f = I.type_of(v)->slots.abs;
  if (!f) raisef(I, I.exc.TypeError, "bad operand type for abs(): '{}'", type_name(I, v));
  return f(I, v);
}
BUILTIN(divmod) {
  check_nargs(I, a, "divmod", 2, 2);
  Type* ta = I.type_of(a[0]);
  Type* tb = I.type_of(a[1]);
  if (ta->slots.divmod) {
    Value r = ta->slots.divmod(I, a[0], a[1]);
    if (!r.is(I.notimplemented)) return r;
  }
  if (tb->slots.rdivmod) {
    Value r = tb->slots.rdivmod(I, a[1], a[0]);
    if (!r.is(I.notimplemented)) return r;
  }
  raisef(I, I.exc.TypeError, "unsupported operand type(s) for divmod(): '{}' and '{}'", ta->name_view(), tb->name_view());
}
BUILTIN(pow) {
  static const Signature sig("pow", "base, exp, mod=None");
  Value v[3];
  sig.bind(I, a, v);
  if (v[2] && !v[2].is_none()) {
    int64_t x;
    if (!int_value(v[0], &x) || !int_value(v[1], &x) || !int_value(v[2], &x)) {
      double d;
      if (float_value(v[0], &d) || float_value(v[1], &d) || float_value(v[2], &d))
        raise(I, I.exc.TypeError, "pow() 3rd argument not allowed unless all arguments are integers");
    }
  }
  return power(I, v[0], v[1], v[2]);
}
BUILTIN(round) {
  static const Signature sig("round", "number, ndigits=None");
  Value v[2];
  sig.bind(I, a, v);
  Value f = type_lookup(I.type_of(v[0]), I.names.__round__);
  if (!f && I.symbolic.math) {
    // a Python number only known when the exported model runs (`round(h * scale)` of a run-time size)
    Value args[2] = {v[0], v[1] ? v[1] : Value::none()};
    if (Value r = I.symbolic.math(I, "round", Args(args, 2)); r) return r;
  }
  if (!f) raisef(I, I.exc.TypeError, "type {} doesn't define __round__ method", type_name(I, v[0]));
  if (!v[1] || v[1].is_none()) return call_unbound(I, f, v[0]);
  return call_unbound(I, f, v[0], v[1]);
}
BUILTIN(chr) {
  check_nargs(I, a, "chr", 1, 1);
  int64_t c = index(I, a[0]);
  if (c < 0 || c > 0x10FFFF) raise(I, I.exc.ValueError, "chr() arg not in range(0x110000)");
  std::string s;
  utf8_append(s, static_cast<uint32_t>(c));
  return I.str(s);
}
BUILTIN(ord) {
  check_nargs(I, a, "ord", 1, 1);
  if (is_str(a[0])) {
    Str* s = as_str(a[0]);
    if (s->cplen != 1)
      raisef(I, I.exc.TypeError, "ord() expected a character, but string of length {} found", s->cplen);
    size_t i = 0;
    return Value::integer(utf8_next(s->s, i));
  }
  if (has_layout(a[0], Layout::Bytes)) {
    const std::string& s = as<Bytes>(a[0])->s;
    if (s.size() != 1) raisef(I, I.exc.TypeError, "ord() expected a character, but string of length {} found", s.size());
    return Value::integer(static_cast<unsigned char>(s[0]));
  }
  raisef(I, I.exc.TypeError, "ord() expected string of length 1, but {} found", type_name(I, a[0]));
}
static Value radix(Interp& I, const Args& a, const char* name, int base) {
  check_nargs(I, a, name, 1, 1);
  return I.str(int_to_string(index(I, a[0]), base, true));
}
BUILTIN(bin) { return radix(I, a, "bin", 2); }
BUILTIN(oct) { return radix(I, a, "oct", 8); }
BUILTIN(hex) { return radix(I, a, "hex", 16); }
BUILTIN(format) {
  static const Signature sig("format", "value, format_spec='', /");
  Value v[2];
  sig.bind(I, a, v);
  if (is_poison(v[0])) return derive_poison(I, v[0], "format(" + poison_operand(I, v[0]) + ")");
  std::string spec;
  if (v[1]) {
    if (!is_str(v[1])) raisef(I, I.exc.TypeError, "format() argument 2 must be str, not {}", type_name(I, v[1]));
    spec = as_str(v[1])->s;
  }
  return I.str(format_value(I, v[0], spec));
}
BUILTIN(callable) {
  check_nargs(I, a, "callable", 1, 1);
  if (is_poison(a[0])) return derive_poison(I, a[0], "callable(" + poison_operand(I, a[0]) + ")");
  return Value::boolean(callable(I, a[0]));
}

// isinstance/issubclass with an unknown object or class: unknown, unless a known class of the
// tuple already answers True.
static Value class_check(Interp& I, const Args& a, const char* fname,
                         bool (*check)(Interp&, const Value&, const Value&)) {
  const Value& cls = a[1];
  auto unknown = [&](const Value& p) {
    return derive_poison(I, p, fmt::format("{}({}, {})", fname, poison_operand(I, a[0]), poison_operand(I, cls)));
  };
  if (is_poison(a[0])) return unknown(a[0]);
  if (is_poison(cls)) return unknown(cls);
  if (is_tuple(cls)) {
    const Value* poison = nullptr;
    for (const Value& c : as_tuple(cls)->items) {
      if (is_poison(c)) {
        poison = &c;
      } else if (check(I, a[0], c)) {
        return Value::boolean(true);
      }
    }
    if (poison) return unknown(*poison);
    return Value::boolean(false);
  }
  return Value::boolean(check(I, a[0], cls));
}
BUILTIN(isinstance) {
  check_nargs(I, a, "isinstance", 2, 2);
  const Value& cls = a[1];
  if (!is_type(cls) && !is_tuple(cls) && !is_poison(cls) && !type_lookup(I.type_of(cls), I.names.__instancecheck__))
    raise(I, I.exc.TypeError, "isinstance() arg 2 must be a type, a tuple of types, or a union");
  return class_check(I, a, "isinstance", &isinstance_full);
}
BUILTIN(issubclass) {
  check_nargs(I, a, "issubclass", 2, 2);
  return class_check(I, a, "issubclass", &issubclass_full);
}
static Str* attr_name(Interp& I, const Value& v, const char* fname) {
  if (!is_str(v)) raisef(I, I.exc.TypeError, "attribute name must be string, not '{}'", type_name(I, v));
  Str* s = as_str(v);
  return s->interned ? s : I.intern(s->s);
}
BUILTIN(getattr) {
  if (a.nkw) raise(I, I.exc.TypeError, "getattr() takes no keyword arguments");
  if (a.npos < 2) raisef(I, I.exc.TypeError, "getattr expected at least 2 arguments, got {}", a.npos);
  if (a.npos > 3) raisef(I, I.exc.TypeError, "getattr expected at most 3 arguments, got {}", a.npos);
  Str* n = attr_name(I, a[1], "getattr");
  if (a.npos == 3) {
    Value v = getattr_opt(I, a[0], n);
    return v ? v : a[2];
  }
  return getattr(I, a[0], n);
}
BUILTIN(setattr) {
  check_nargs(I, a, "setattr", 3, 3);
  setattr(I, a[0], attr_name(I, a[1], "setattr"), a[2]);
  return Value::none();
}
BUILTIN(delattr) {
  check_nargs(I, a, "delattr", 2, 2);
  delattr(I, a[0], attr_name(I, a[1], "delattr"));
  return Value::none();
}
BUILTIN(hasattr) {
  check_nargs(I, a, "hasattr", 2, 2);
  if (is_poison(a[0])) return derive_poison(I, a[0], "hasattr(" + poison_operand(I, a[0]) + ", ...)");
  return Value::boolean(!getattr_opt(I, a[0], attr_name(I, a[1], "hasattr")).is_null());
}

static Value locals_dict(Interp& I, Frame* f) {
  if (!f) return new_dict(I);
  if (f->ns) return f->ns;
  Ref<Dict> d = new_dict_ref(I);
  Code* c = f->code;
  for (uint32_t s = 0; s < c->nslots; ++s) {
    Value v = f->fast[s];
    if (has_layout(v, Layout::Cell)) v = as<Cell>(v)->v;
    if (v) dict_set_str(I, d.get(), c->slot_names[s], v);
  }
  return d.take_value();
}
BUILTIN(globals) {
  check_nargs(I, a, "globals", 0, 0);
  if (!I.frame) return new_dict(I);
  return Value::borrow(I.frame->globals);
}
BUILTIN(locals) {
  check_nargs(I, a, "locals", 0, 0);
  return locals_dict(I, I.frame);
}
BUILTIN(vars) {
  check_nargs(I, a, "vars", 0, 1);
  if (a.npos == 0) return locals_dict(I, I.frame);
  Value d = getattr_opt(I, a[0], I.names.__dict__);
  if (!d) raise(I, I.exc.TypeError, "vars() argument must have __dict__ attribute");
  return d;
}
BUILTIN(dir) {
  check_nargs(I, a, "dir", 0, 1);
  Value names;
  if (a.npos == 0) {
    names = new_list(I, to_vector(I, locals_dict(I, I.frame)));
  } else {
    Value f = type_lookup(I.type_of(a[0]), I.names.__dir__);
    names = f ? call_unbound(I, f, a[0]) : new_list(I);
  }
  std::vector<Value> items = to_vector(I, names);
  extern void sort_values(Interp & I, std::vector<Value> & items, const Value& key, bool reverse);
  sort_values(I, items, Value(), false);
  return new_list(I, std::move(items));
}
BUILTIN(import) {
  static const Signature sig("__import__", "name, globals=None, locals=None, fromlist=(), level=0");
  Value v[5];
  sig.bind(I, a, v);
  if (!is_str(v[0])) raisef(I, I.exc.TypeError, "__import__() argument 1 must be str, not {}", type_name(I, v[0]));
  std::string name = as_str(v[0])->s;
  int level = v[4] ? static_cast<int>(index(I, v[4])) : 0;
  Dict* g = v[1] && is_dict(v[1]) ? as_dict(v[1]) : (I.frame ? I.frame->globals : nullptr);
  bool fromlist = v[3] && !v[3].is_none() && truth(I, v[3]) == kTrue;
  SourceRange where = I.current_range();
  if (!g) g = I.builtins.get();
  // A call (importlib.import_module, __import__) is how code probes for optional modules, almost
  // always under a try in some caller (transformers' lazy_load_kernel): a module that cannot be had
  // raises ModuleNotFoundError as in CPython without it, instead of becoming an unknown value.
  constexpr bool guarded = true;
  if (fromlist || level > 0) return I.loader().import_module(name, g, level, guarded, where);
  return I.loader().import_top(name, g, guarded, where);
}

// ---- unsafe builtins --------------------------------------------------------------------------------------

// exec() exists only for its effect on a namespace: skipping it would silently change what the
// program defines, so unlike the other unsafe builtins the call itself is the error.
BUILTIN(exec) {
  fatal(I, "exec() is not available: onnxify does not run code built at run time",
        "define the names in the source instead of building code at run time");
}

// eval(): an expression given as text, which config-driven model code builds from its own names
// (`eval(cfg.pop('type'))(**cfg)`, `eval('nn.' + act)`): compiled and run like the rest of the
// program, in a namespace made of the globals and the locals (the caller's by default). Its names
// are looked up there, as CPython does; an assignment expression inside binds in that copy only.
// Code objects (compile() is unavailable) and statements (exec) are not supported.
BUILTIN(eval) {
  static const Signature sig("eval", "source, globals=None, locals=None");
  Value v[3];
  sig.bind(I, a, v);
  if (is_poison(v[0])) return derive_poison(I, v[0], "eval(" + poison_operand(I, v[0]) + ")");
  if (!is_str(v[0]))
    raisef(I, I.exc.TypeError, "eval() arg 1 must be a string, bytes or code object");
  const bool own_globals = v[1] && !v[1].is_none();
  if (own_globals && !is_dict(v[1])) raise(I, I.exc.TypeError, "globals must be a dict");
  std::string text = as_str(v[0])->s;
  text.erase(0, text.find_first_not_of(" \t"));  // CPython strips leading spaces and tabs
  Dict* g = own_globals ? as_dict(v[1]) : (I.frame ? I.frame->globals : I.builtins.get());
  Value locals = v[2] && !v[2].is_none() ? v[2] : own_globals ? Value() : locals_dict(I, I.frame);
  Ref<Dict> ns = new_dict_ref(I);
  dict_update(I, ns.get(), Value::borrow(g));
  if (locals && !(is_dict(locals) && as_dict(locals) == g)) dict_update(I, ns.get(), locals);
  std::unique_ptr<CodeUnit> unit;
  try {
    unit = compile_expression(I, std::make_shared<SourceFile>("<string>", text), "<string>", true);
  } catch (const Diagnostic& d) {
    raise(I, I.exc.SyntaxError, d.message());
  }
  Code* code = unit->module;
  I.keep(std::move(unit));
  exec_module_code(I, code, ns.get());
  Value r = dict_get_str(ns.get(), I.intern("__result__"));
  return r ? r : Value::none();
}

// open(): reading files under the import roots (file_access.h); io.open, written in Python, does
// the modes, decoding and the file objects. Writing stays unavailable.
static Value b_open(Interp& I, const Value&, const Args& a) {
  Value io = I.loader().import_module("io", nullptr, 0, false, SourceRange{});
  return call(I, getattr(I, io, I.intern("open")), a);
}

static void add_poison_builtin(Interp& I, Dict* b, const char* name, const char* why) {
  dict_set(I, b, name, make_poison(I, name, fmt::format("{}() is not available: {}", name, why), SourceRange{}));
}

void init_builtins(Interp& I) {
  Ref<Module> m = new_module(I, "builtins");
  I.builtins_module = m;
  I.builtins = Ref<Dict>(m->dict);
  Dict* b = m->dict;
  dict_set(I, I.modules.get(), I.str("builtins"), m.value());
  struct {
    const char* name;
    NativeFn fn;
  } fns[] = {
      {"print", &b_print},         {"len", &b_len},           {"repr", &b_repr},       {"ascii", &b_ascii},
      {"hash", &b_hash},           {"id", &b_id},             {"abs", &b_abs},         {"divmod", &b_divmod},
      {"pow", &b_pow},             {"round", &b_round},       {"chr", &b_chr},         {"ord", &b_ord},
      {"bin", &b_bin},             {"oct", &b_oct},           {"hex", &b_hex},         {"format", &b_format},
      {"callable", &b_callable},   {"isinstance", &b_isinstance}, {"issubclass", &b_issubclass},
      {"getattr", &b_getattr},     {"setattr", &b_setattr},   {"delattr", &b_delattr}, {"hasattr", &b_hasattr},
      {"globals", &b_globals},     {"locals", &b_locals},     {"vars", &b_vars},       {"dir", &b_dir},
      {"__import__", &b_import},   {"iter", &b_iter},         {"next", &b_next},       {"sorted", &b_sorted},
      {"min", &b_min},             {"max", &b_max},           {"sum", &b_sum},         {"any", &b_any},
      {"all", &b_all},             {"exec", &b_exec},         {"eval", &b_eval},         {"open", &b_open},
  };
  for (auto& f : fns) {
    Value fv = new_native(I, f.name, f.fn);
    as<NativeFunc>(fv)->data = I.str("builtins");
    dict_set(I, b, f.name, fv);
  }
  struct {
    const char* name;
    Type* type;
  } types[] = {
      {"object", I.t.object},         {"type", I.t.type},           {"int", I.t.int_},
      {"bool", I.t.bool_},            {"float", I.t.float_},        {"complex", I.t.complex},
      {"str", I.t.str},               {"bytes", I.t.bytes},         {"bytearray", I.t.bytearray},
      {"tuple", I.t.tuple},           {"list", I.t.list},           {"dict", I.t.dict},
      {"set", I.t.set},               {"frozenset", I.t.frozenset}, {"range", I.t.range},
      {"slice", I.t.slice},           {"property", I.t.property},   {"staticmethod", I.t.staticmethod},
      {"classmethod", I.t.classmethod}, {"super", I.t.super_},
  };
  for (auto& t : types) dict_set(I, b, t.name, Value::borrow(t.type));
  init_iter_builtin_types(I, b);
#define EXC(member, ename, parent) dict_set(I, b, ename, Value::borrow(I.exc.member));
#include "eval/exceptions.def"
#undef EXC
  dict_set(I, b, "EnvironmentError", Value::borrow(I.exc.OSError));
  dict_set(I, b, "IOError", Value::borrow(I.exc.OSError));
  dict_set(I, b, "None", Value::none());
  dict_set(I, b, "True", Value::boolean(true));
  dict_set(I, b, "False", Value::boolean(false));
  dict_set(I, b, "NotImplemented", I.notimplemented);
  dict_set(I, b, "Ellipsis", I.ellipsis);
  dict_set(I, b, "__debug__", Value::boolean(true));
  dict_set(I, b, "__build_class__", Value::none());
  add_poison_builtin(I, b, "compile", "onnxify does not run code built at run time");
  add_poison_builtin(I, b, "input", "there is no interactive input");
  add_poison_builtin(I, b, "breakpoint", "there is no debugger");
  add_poison_builtin(I, b, "help", "there is no interactive help");
  add_poison_builtin(I, b, "memoryview", "buffer views are not supported");
  add_poison_builtin(I, b, "aiter", "async code is not supported");
  add_poison_builtin(I, b, "anext", "async code is not supported");
  add_poison_builtin(I, b, "exit", "the program cannot exit the interpreter");
  add_poison_builtin(I, b, "quit", "the program cannot exit the interpreter");
}

}  // namespace onnxify::eval
