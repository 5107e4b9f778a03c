// BaseException and the builtin exception hierarchy (exceptions.def), with CPython's str/repr
// rules and the attributes of the special subclasses (StopIteration.value, ImportError.name, ...).
#include "eval/internal.h"

namespace onnxify::eval {

static Exc* self_exc(const Value& v) { return as<Exc>(v); }

static Value exc_alloc(Interp& I, Type* cls) {
  auto e = I.make<Exc>(cls);
  e->args = Value::borrow(I.empty_tuple.get());
  e->cause = Value::none();
  e->context = Value::none();
  return e.take_value();
}

// OSError(errno, strerror, ...) makes the subclass that errno names, as CPython's OSError.__new__ does
// (Linux numbers), so `except FileNotFoundError` catches OSError(2, ...).
static Type* oserror_subclass(Interp& I, const Args& a) {
  int64_t code;
  if (a.npos < 2 || !int_value(a.pos[0], &code)) return nullptr;
  switch (code) {
    case 11: case 114: case 115: return I.exc.BlockingIOError;  // EAGAIN/EWOULDBLOCK, EALREADY, EINPROGRESS
    case 10: return I.exc.ChildProcessError;                     // ECHILD
    case 32: case 108: return I.exc.BrokenPipeError;             // EPIPE, ESHUTDOWN
    case 103: return I.exc.ConnectionAbortedError;               // ECONNABORTED
    case 111: return I.exc.ConnectionRefusedError;               // ECONNREFUSED
    case 104: return I.exc.ConnectionResetError;                 // ECONNRESET
    case 17: return I.exc.FileExistsError;                       // EEXIST
    case 2: return I.exc.FileNotFoundError;                      // ENOENT
    case 21: return I.exc.IsADirectoryError;                     // EISDIR
    case 20: return I.exc.NotADirectoryError;                    // ENOTDIR
    case 4: return I.exc.InterruptedError;                       // EINTR
    case 1: case 13: return I.exc.PermissionError;               // EPERM, EACCES
    case 3: return I.exc.ProcessLookupError;                     // ESRCH
    case 110: return I.exc.TimeoutError;                         // ETIMEDOUT
    default: return nullptr;
  }
}

static Value exc_new(Interp& I, Type* cls, const Args& a) {
  if (cls == I.exc.OSError)
    if (Type* sub = oserror_subclass(I, a)) cls = sub;
  Value e = alloc_instance(I, cls);
  self_exc(e)->args = new_tuple(I, std::vector<Value>(a.pos, a.pos + a.npos));
  return e;
}

static void set_args(Interp& I, Exc* e, const Args& a) { e->args = new_tuple(I, std::vector<Value>(a.pos, a.pos + a.npos)); }

static bool type_is(Interp& I, const Value& self, Type* t) { return I.type_of(self)->is_subtype_of(t); }

static void exc_init(Interp& I, const Value& self, const Args& a) {
  Exc* e = self_exc(self);
  Type* t = I.type_of(self);
  // Keyword arguments some subclasses accept (CPython 3.11).
  if (a.nkw) {
    bool ok = true;
    for (uint32_t k = 0; k < a.nkw; ++k) {
      const std::string& n = a.kwnames[k]->s;
      bool allowed = (type_is(I, self, I.exc.ImportError) && (n == "name" || n == "path")) ||
                     (type_is(I, self, I.exc.AttributeError) && (n == "name" || n == "obj")) ||
                     (type_is(I, self, I.exc.NameError) && n == "name");
      if (!allowed) ok = false;
    }
    if (!ok) raisef(I, I.exc.TypeError, "{}() takes no keyword arguments", t->name_view());
    if (!self.obj()->dict) self.obj()->dict = new_dict_ref(I).release();
    for (uint32_t k = 0; k < a.nkw; ++k) dict_set_str(I, self.obj()->dict, a.kwnames[k], a.kwvals[k]);
  }
  // OSError(errno, strerror, filename[, winerror[, filename2]]): as CPython, args keeps the first two
  // and the file name is an attribute that str() shows.
  if (type_is(I, self, I.exc.OSError) && a.npos >= 3 && a.npos <= 5) {
    if (!self.obj()->dict) self.obj()->dict = new_dict_ref(I).release();
    dict_set(I, self.obj()->dict, "filename", a.pos[2]);
    if (a.npos == 5) dict_set(I, self.obj()->dict, "filename2", a.pos[4]);
    e->args = new_tuple(I, {a.pos[0], a.pos[1]});
    return;
  }
  set_args(I, e, a);
}

static Value exc_str(Interp& I, const Value& self) {
  Exc* e = self_exc(self);
  const auto& args = as_tuple(e->args)->items;
  if (type_is(I, self, I.exc.KeyError) && args.size() == 1) return repr(I, args[0]);
  if (type_is(I, self, I.exc.ImportError) && args.size() == 1) return to_str(I, args[0]);
  if (type_is(I, self, I.exc.OSError) && args.size() >= 2) {
    int64_t errno_v;
    if (int_value(args[0], &errno_v)) {
      Value filename = self.obj()->dict ? dict_get(I, self.obj()->dict, I.str("filename")) : Value();
      if (filename && !filename.is_none())
        return I.str(fmt::format("[Errno {}] {}: {}", errno_v, str_string(I, args[1]), repr_string(I, filename)));
      return I.str(fmt::format("[Errno {}] {}", errno_v, str_string(I, args[1])));
    }
  }
  if (args.empty()) return Value::borrow(I.names.empty);
  if (args.size() == 1) return to_str(I, args[0]);
  return to_str(I, e->args);
}

static Value exc_repr(Interp& I, const Value& self) {
  Exc* e = self_exc(self);
  const auto& args = as_tuple(e->args)->items;
  std::string name(I.type_of(self)->name_view());
  if (args.size() == 1) return I.str(fmt::format("{}({})", name, repr_string(I, args[0])));
  if (args.empty()) return I.str(name + "()");
  return I.str(name + repr_string(I, e->args));
}

static Value exc_args_get(Interp& I, const Value& self) { return self_exc(self)->args; }
static void exc_args_set(Interp& I, const Value& self, const Value& v) {
  if (v.is_null()) raise(I, I.exc.TypeError, "args may not be deleted");
  self_exc(self)->args = new_tuple(I, to_vector(I, v));
}
static Value exc_cause_get(Interp& I, const Value& self) { return self_exc(self)->cause; }
static void exc_cause_set(Interp& I, const Value& self, const Value& v) {
  if (v.is_null()) raise(I, I.exc.TypeError, "__cause__ may not be deleted");
  if (!v.is_none() && !isinstance(I, v, I.exc.BaseException))
    raise(I, I.exc.TypeError, "exception cause must be None or derive from BaseException");
  self_exc(self)->cause = v;
  self_exc(self)->suppress_context = true;
}
static Value exc_context_get(Interp& I, const Value& self) { return self_exc(self)->context; }
static void exc_context_set(Interp& I, const Value& self, const Value& v) {
  if (v.is_null()) raise(I, I.exc.TypeError, "__context__ may not be deleted");
  if (!v.is_none() && !isinstance(I, v, I.exc.BaseException))
    raise(I, I.exc.TypeError, "exception context must be None or derive from BaseException");
  self_exc(self)->context = v;
}
static Value exc_suppress_get(Interp& I, const Value& self) { return Value::boolean(self_exc(self)->suppress_context); }
static void exc_suppress_set(Interp& I, const Value& self, const Value& v) {
  self_exc(self)->suppress_context = v && is_true(I, v);
}
static Value exc_tb_get(Interp& I, const Value& self) { return Value::none(); }
static void exc_tb_set(Interp& I, const Value& self, const Value& v) {}
static Value exc_with_traceback(Interp& I, const Value& self, const Args& a) { return self; }
static Value exc_add_note(Interp& I, const Value& self, const Args& a) {
  check_nargs(I, a, "add_note", 1, 1);
  if (!is_str(a[0])) raisef(I, I.exc.TypeError, "note must be a str, not '{}'", type_name(I, a[0]));
  if (!self.obj()->dict) self.obj()->dict = new_dict_ref(I).release();
  Str* key = I.intern("__notes__");
  Value notes = dict_get_str(self.obj()->dict, key);
  if (!notes) {
    notes = new_list(I);
    dict_set_str(I, self.obj()->dict, key, notes);
  }
  list_append(I, as_list(notes), a[0]);
  return Value::none();
}

static Value first_arg_or_none(Interp& I, const Value& self) {
  const auto& args = as_tuple(self_exc(self)->args)->items;
  return args.empty() ? Value::none() : args[0];
}
static Value exc_value_get(Interp& I, const Value& self) {
  if (self_exc(self)->value) return self_exc(self)->value;
  return first_arg_or_none(I, self);
}
static void exc_value_set(Interp& I, const Value& self, const Value& v) { self_exc(self)->value = v; }
static Value exit_code_get(Interp& I, const Value& self) {
  const auto& args = as_tuple(self_exc(self)->args)->items;
  if (args.empty()) return Value::none();
  if (args.size() == 1) return args[0];
  return self_exc(self)->args;
}
static Value dict_attr_or_none(Interp& I, const Value& self, const char* name) {
  if (self.obj()->dict) {
    Value v = dict_get(I, self.obj()->dict, name);
    if (v) return v;
  }
  return Value::none();
}
static Value import_name_get(Interp& I, const Value& self) { return dict_attr_or_none(I, self, "name"); }
static Value import_path_get(Interp& I, const Value& self) { return dict_attr_or_none(I, self, "path"); }
static Value import_msg_get(Interp& I, const Value& self) { return first_arg_or_none(I, self); }
static Value oserror_errno_get(Interp& I, const Value& self) {
  const auto& args = as_tuple(self_exc(self)->args)->items;
  return args.size() >= 2 ? args[0] : Value::none();
}
static Value oserror_strerror_get(Interp& I, const Value& self) {
  const auto& args = as_tuple(self_exc(self)->args)->items;
  return args.size() >= 2 ? args[1] : Value::none();
}

void init_exception_types(Interp& I) {
  {
    TypeSpec s;
    s.name = "BaseException";
    s.layout = Layout::Exception;
    s.alloc = &exc_alloc;
    s.slots.new_ = &exc_new;
    s.slots.init = &exc_init;
    s.slots.str = &exc_str;
    s.slots.repr = &exc_repr;
    s.methods = {{"with_traceback", &exc_with_traceback}, {"add_note", &exc_add_note}};
    s.getsets = {{"args", &exc_args_get, &exc_args_set},
                 {"__cause__", &exc_cause_get, &exc_cause_set},
                 {"__context__", &exc_context_get, &exc_context_set},
                 {"__suppress_context__", &exc_suppress_get, &exc_suppress_set},
                 {"__traceback__", &exc_tb_get, &exc_tb_set}};
    init_native_type(I, I.exc.BaseException, s);
    I.exc.BaseException->flags |= kTypeInstanceDict;
  }
#define EXC(member, ename, parent)                             \
  if (I.exc.member != I.exc.BaseException) {                   \
    TypeSpec s;                                                \
    s.name = ename;                                            \
    s.base = I.exc.parent;                                     \
    s.layout = Layout::Exception;                              \
    init_native_type(I, I.exc.member, s);                      \
    I.exc.member->flags |= kTypeInstanceDict;                  \
  }
#include "eval/exceptions.def"
#undef EXC
  auto add_getset = [&](Type* t, const char* name, GetterFn g, SetterFn st = nullptr) {
    auto gs = I.make<GetSet>(I.t.getset);
    gs->name = name;
    gs->get = g;
    gs->set = st;
    gs->owner = t;
    dict_set(I, t->dict, name, gs.take_value());
    type_modified(I, t);
  };
  add_getset(I.exc.StopIteration, "value", &exc_value_get, &exc_value_set);
  add_getset(I.exc.SystemExit, "code", &exit_code_get);
  add_getset(I.exc.ImportError, "msg", &import_msg_get);
  add_getset(I.exc.ImportError, "name", &import_name_get);
  add_getset(I.exc.ImportError, "path", &import_path_get);
  add_getset(I.exc.OSError, "errno", &oserror_errno_get);
  add_getset(I.exc.OSError, "strerror", &oserror_strerror_get);
  add_getset(I.exc.OSError, "filename", [](Interp& I, const Value& s) { return dict_attr_or_none(I, s, "filename"); });
  add_getset(I.exc.OSError, "filename2", [](Interp& I, const Value& s) { return dict_attr_or_none(I, s, "filename2"); });
  add_getset(I.exc.AttributeError, "name", [](Interp& I, const Value& s) { return dict_attr_or_none(I, s, "name"); });
  add_getset(I.exc.AttributeError, "obj", [](Interp& I, const Value& s) { return dict_attr_or_none(I, s, "obj"); });
  add_getset(I.exc.NameError, "name", [](Interp& I, const Value& s) { return dict_attr_or_none(I, s, "name"); });
}

// ---- raising ------------------------------------------------------------------------------------------

Value make_exception_args(Interp& I, Type* type, std::vector<Value> args) {
  Value e = alloc_instance(I, type);
  self_exc(e)->args = new_tuple(I, std::move(args));
  return e;
}

Value make_exception(Interp& I, Type* type, std::string_view msg) {
  if (msg.empty()) return make_exception_args(I, type, {});
  return make_exception_args(I, type, {I.str(msg)});
}

void raise(Interp& I, Type* type, std::string_view msg) { throw PyException{make_exception(I, type, msg)}; }

void raise_key_error(Interp& I, const Value& key) { throw PyException{make_exception_args(I, I.exc.KeyError, {key})}; }

void raise_value(Interp& I, Value exc) {
  if (is_type(exc) && as_type(exc)->is_subtype_of(I.exc.BaseException)) {
    Value inst = call(I, exc);
    if (!isinstance(I, inst, I.exc.BaseException))
      raisef(I, I.exc.TypeError, "calling {} should have returned an instance of BaseException, not {}",
             repr_string(I, exc), type_name(I, inst));
    throw PyException{inst};
  }
  if (isinstance(I, exc, I.exc.BaseException)) throw PyException{std::move(exc)};
  raise(I, I.exc.TypeError, "exceptions must derive from BaseException");
}

bool exception_matches(Interp& I, const Value& exc, const Value& spec) {
  if (is_tuple(spec)) {
    for (const Value& s : as_tuple(spec)->items)
      if (exception_matches(I, exc, s)) return true;
    return false;
  }
  if (!is_type(spec) || !as_type(spec)->is_subtype_of(I.exc.BaseException))
    raise(I, I.exc.TypeError, "catching classes that do not inherit from BaseException is not allowed");
  return isinstance(I, exc, as_type(spec));
}

void fatal(Interp& I, std::string message, std::string help) {
  // Reported at the user's line (a numpy or torch helper of the embedded library that hit it is a
  // note): that is the code the user can change.
  SourceRange here = I.current_range(), user = I.user_range();
  Diagnostic d = Diagnostic::error(std::move(message), user);
  if (here.file != user.file || here.begin.line != user.begin.line)
    d.with_note(Diagnostic::note("inside the library code onnxify runs for this call", here));
  if (!help.empty()) d.with_help(std::move(help));
  throw d;
}

}  // namespace onnxify::eval
