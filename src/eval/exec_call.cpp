// Calling Python functions: argument binding with CPython's error messages, cells and closures,
// function creation, module and class bodies, zero-argument super().
#include "eval/frame.h"
#include "eval/generator.h"
#include "eval/internal.h"
#include "eval/poison.h"
#include "eval/recursion.h"

namespace onnxify::eval {

SourceRange Interp::current_range() const {
  if (!frame) return {};
  return frame->range();
}

SourceRange Interp::user_range() const {
  for (Frame* f = frame; f; f = f->back)
    if (f->code && f->cur && !(f->code->unit && f->code->unit->library)) return f->range();
  return current_range();
}

// ---- argument binding ----------------------------------------------------------------------------------

static std::string join_names(const std::vector<std::string>& names) {
  std::string out;
  for (size_t k = 0; k < names.size(); ++k) {
    if (k) out += names.size() == 2 ? " and " : (k + 1 == names.size() ? ", and " : ", ");
    out += "'" + names[k] + "'";
  }
  return out;
}

static std::string fn_qualname(Interp& I, Function* fn) {
  return is_str(fn->qualname) ? as_str(fn->qualname)->s : std::string("?");
}

// Binds self (optional) and a into fast[0..), as CPython's initialize_locals does.
static void bind_args(Interp& I, Function* fn, const Value* self, const Args& a, Value* fast) {
  Code* c = fn->code;
  const uint32_t argc = c->argcount;
  const uint32_t kwonly = c->kwonlycount;
  uint32_t given = a.npos + (self ? 1 : 0);
  // Positional arguments: P = [self] + a.pos.
  auto P = [&](uint32_t i) -> const Value& { return self ? (i == 0 ? *self : a.pos[i - 1]) : a.pos[i]; };
  uint32_t fill = given < argc ? given : argc;
  for (uint32_t i = 0; i < fill; ++i) fast[i] = P(i);
  uint32_t slot = argc + kwonly;
  if (c->varargs) {
    std::vector<Value> rest;
    for (uint32_t i = fill; i < given; ++i) rest.push_back(P(i));
    fast[slot++] = new_tuple(I, std::move(rest));
  }
  Ref<Dict> kwdict;
  if (c->varkw) {
    kwdict = new_dict_ref(I);
    fast[slot] = kwdict.value();
  }
  // Keyword arguments.
  std::vector<std::string> posonly_as_kw;
  for (uint32_t j = 0; j < a.nkw; ++j) {
    Str* name = a.kwnames[j];
    uint32_t found = UINT32_MAX;
    for (uint32_t p = 0; p < argc + kwonly; ++p) {
      Str* pn = c->slot_names[p];
      if (pn == name || pn->s == name->s) {
        found = p;
        break;
      }
    }
    if (found != UINT32_MAX && found >= c->posonlycount) {
      if (fast[found])
        raisef(I, I.exc.TypeError, "{}() got multiple values for argument '{}'", fn_qualname(I, fn), name->s);
      fast[found] = a.kwvals[j];
      continue;
    }
    if (kwdict) {
      dict_set_str(I, kwdict.get(), name, a.kwvals[j]);
      continue;
    }
    if (found != UINT32_MAX) {
      posonly_as_kw.push_back(name->s);
      continue;
    }
    raisef(I, I.exc.TypeError, "{}() got an unexpected keyword argument '{}'", fn_qualname(I, fn), name->s);
  }
  if (!posonly_as_kw.empty()) {
    std::string names;
    for (auto& n : posonly_as_kw) names += (names.empty() ? "'" : ", '") + n + "'";
    raisef(I, I.exc.TypeError, "{}() got some positional-only arguments passed as keyword arguments: {}",
           fn_qualname(I, fn), names);
  }
  if (given > argc && !c->varargs) {
    uint32_t kwonly_given = 0;
    for (uint32_t p = argc; p < argc + kwonly; ++p)
      if (fast[p]) ++kwonly_given;
    size_t defcount = fn->defaults.size();
    std::string sig;
    bool plural;
    if (defcount) {
      sig = fmt::format("from {} to {}", argc - defcount, argc);
      plural = true;
    } else {
      sig = fmt::format("{}", argc);
      plural = argc != 1;
    }
    std::string kwsig;
    if (kwonly_given)
      kwsig = fmt::format(" positional argument{} (and {} keyword-only argument{})", given != 1 ? "s" : "", kwonly_given,
                          kwonly_given != 1 ? "s" : "");
    raisef(I, I.exc.TypeError, "{}() takes {} positional argument{} but {}{} {} given", fn_qualname(I, fn), sig,
           plural ? "s" : "", given, kwsig, given == 1 && !kwonly_given ? "was" : "were");
  }
  // Defaults and missing arguments.
  size_t ndef = fn->defaults.size();
  size_t first_default = argc >= ndef ? argc - ndef : 0;
  std::vector<std::string> missing;
  for (uint32_t p = 0; p < argc; ++p) {
    if (fast[p]) continue;
    if (p >= first_default) {
      fast[p] = fn->defaults[p - first_default];
    } else {
      missing.push_back(c->slot_names[p]->s);
    }
  }
  if (!missing.empty())
    raisef(I, I.exc.TypeError, "{}() missing {} required positional argument{}: {}", fn_qualname(I, fn),
           missing.size(), missing.size() == 1 ? "" : "s", join_names(missing));
  for (uint32_t p = argc; p < argc + kwonly; ++p) {
    if (fast[p]) continue;
    Value d = fn->kwdefaults ? dict_get_str(fn->kwdefaults.get(), c->slot_names[p]) : Value();
    if (d)
      fast[p] = d;
    else
      missing.push_back(c->slot_names[p]->s);
  }
  if (!missing.empty())
    raisef(I, I.exc.TypeError, "{}() missing {} required keyword-only argument{}: {}", fn_qualname(I, fn),
           missing.size(), missing.size() == 1 ? "" : "s", join_names(missing));
}

void setup_cells(Interp& I, Code* c, Value* fast, const std::vector<Ref<Cell>>* closure, Frame* outer) {
  for (uint32_t s : c->cell_slots) {
    auto cell = I.make<Cell>(I.t.cell);
    cell->v = std::move(fast[s]);
    fast[s] = cell.take_value();
  }
  for (size_t i = 0; i < c->free_slots.size(); ++i) {
    if (closure) {
      fast[c->free_slots[i]] = (*closure)[i].value();
    } else if (outer) {
      fast[c->free_slots[i]] = outer->fast[c->free_source_slots[i]];
    }
  }
}

Value raise_stmt_exception(Interp& I, Frame& f, const RaiseStmt* s);  // exec_stmt.cpp

// Runs a function's body. With `raised` set (catching mode), a `raise EXC` statement at the top
// level of the body hands its exception back there instead of throwing it: hasattr() on an object
// whose __getattr__ ends in `raise AttributeError(...)` (torch.nn.Module's) then costs no C++
// exception. Everything else, and any exception raised deeper, propagates as usual.
static Value run_function(Interp& I, Function* fn, Value* fast, Value* raised = nullptr) {
  Code* c = fn->code;
  setup_cells(I, c, fast, &fn->closure, nullptr);
  Frame fr;
  fr.code = c;
  fr.fast = fast;
  fr.globals = fn->globals.get();
  fr.builtins = fn->builtins;
  fr.func = fn;
  FrameScope scope(I, fr);
  try {
    if (c->body_expr) return eval(I, fr, c->body_expr);
    if (!raised) {
      exec_block(I, fr, c->body);
    } else {
      for (const Stmt* s : c->body) {
        if (s->kind == SK::Raise && static_cast<const RaiseStmt*>(s)->exc) {
          I.tick();  // what exec_stmt does first
          fr.cur = s;
          Value exc = raise_stmt_exception(I, fr, static_cast<const RaiseStmt*>(s));
          add_traceback(I, exc, fr);
          *raised = std::move(exc);
          return Value();
        }
        if (exec_stmt(I, fr, s) != Exit::Normal) break;
      }
    }
  } catch (PyException& e) {
    add_traceback(I, e.exc, fr);
    throw;
  } catch (Diagnostic& d) {
    SourceRange r = fr.range();
    if (r.known() && d.notes().size() < 8 && !(d.range().begin == r.begin && d.range().file == r.file))
      d.with_note(Diagnostic::note(fmt::format("in {}()", fn_qualname(I, fn)), r));
    throw;
  }
  if (fr.retval) return std::move(fr.retval);
  return Value::none();
}

static Value transparent_result(Interp& I, Function* fn, const Value* self, const Args& a) {
  const Value* p = self && is_poison(*self) ? self : first_poison_arg(a);
  if (!p) return Value();
  std::string name = fn_qualname(I, fn);
  if (is_str(fn->module)) name = as_str(fn->module)->s + "." + name;
  return transparent_call_result(I, *p, name);
}

Value call_function(Interp& I, Function* fn, const Args& a) {
  if (fn->poison_transparent)
    if (Value r = transparent_result(I, fn, nullptr, a)) return r;
  Code* c = fn->code;
  if (c->generator) {
    std::vector<Value> slots(c->nslots);
    bind_args(I, fn, nullptr, a, slots.data());
    setup_cells(I, c, slots.data(), &fn->closure, nullptr);
    return make_generator(I, fn, std::move(slots));
  }
  RecursionGuard guard(I, "");
  I.tick();
  SlotArray slots(c->nslots);
  Value* fast = slots.data();
  if (a.nkw == 0 && a.npos == c->argcount && !c->varargs && !c->varkw && c->kwonlycount == 0) {
    for (uint32_t i = 0; i < a.npos; ++i) fast[i] = a.pos[i];
  } else {
    bind_args(I, fn, nullptr, a, fast);
  }
  return run_function(I, fn, fast);
}

// call_function_with_self in catching mode (see run_function): when `*raised` is set on return,
// the call raised that exception (traceback included) and returned Null.
Value call_function_with_self(Interp& I, Function* fn, const Value& self, const Args& a, Value* raised) {
  if (fn->poison_transparent)
    if (Value r = transparent_result(I, fn, &self, a)) return r;
  Code* c = fn->code;
  if (c->generator) {
    std::vector<Value> slots(c->nslots);
    bind_args(I, fn, &self, a, slots.data());
    setup_cells(I, c, slots.data(), &fn->closure, nullptr);
    return make_generator(I, fn, std::move(slots));
  }
  RecursionGuard guard(I, "");
  I.tick();
  SlotArray slots(c->nslots);
  Value* fast = slots.data();
  if (a.nkw == 0 && a.npos + 1 == c->argcount && !c->varargs && !c->varkw && c->kwonlycount == 0) {
    fast[0] = self;
    for (uint32_t i = 0; i < a.npos; ++i) fast[i + 1] = a.pos[i];
  } else {
    bind_args(I, fn, &self, a, fast);
  }
  return run_function(I, fn, fast, raised);
}

Value call_function_with_self(Interp& I, Function* fn, const Value& self, const Args& a) {
  return call_function_with_self(I, fn, self, a, nullptr);
}

// ---- making functions ---------------------------------------------------------------------------------

Value make_function(Interp& I, Frame& f, const FuncDef* def) {
  Code* c = def->code;
  auto fn = I.make<Function>(I.t.function);
  fn->code = c;
  fn->globals = Ref<Dict>(f.globals);
  fn->builtins = f.builtins;
  for (const Expr* d : def->defaults) fn->defaults.push_back(eval(I, f, d));
  for (size_t i = 0; i < def->kw_defaults.size(); ++i) {
    if (!def->kw_defaults[i]) continue;
    if (!fn->kwdefaults) fn->kwdefaults = new_dict_ref(I);
    Value v = eval(I, f, def->kw_defaults[i]);
    dict_set_str(I, fn->kwdefaults.get(), c->slot_names[c->argcount + i], v);
  }
  if (!def->annotations.empty() || !def->string_annotations.empty()) {
    Ref<Dict> ann = new_dict_ref(I);
    for (const auto& [name, e] : def->annotations) dict_set_str(I, ann.get(), name, eval(I, f, e));
    for (const auto& [name, text] : def->string_annotations) dict_set_str(I, ann.get(), name, I.str(text));
    fn->annotations = ann.take_value();
  } else {
    fn->annotations = Value::none();
  }
  for (size_t i = 0; i < c->free_slots.size(); ++i) {
    const Value& cell = f.fast[c->free_source_slots[i]];
    fn->closure.push_back(Ref<Cell>(as<Cell>(cell)));
  }
  fn->name = Value::borrow(c->name);
  fn->qualname = Value::borrow(c->qualname);
  fn->doc = def->doc ? Value::borrow(def->doc) : Value::none();
  Value modname = dict_get_str(f.globals, I.names.__name__);
  fn->module = modname ? modname : Value::none();
  return fn.take_value();
}

// ---- module and class bodies ------------------------------------------------------------------------------

static bool has_annotations(const Block& b) {
  for (const Stmt* s : b) {
    if (s->kind == SK::AnnAssign && static_cast<const AnnAssignStmt*>(s)->store_annotation) return true;
  }
  return false;
}

void exec_module_code(Interp& I, Code* code, Dict* globals) {
  SlotArray slots(code->nslots);
  setup_cells(I, code, slots.data(), nullptr, nullptr);
  Frame fr;
  fr.code = code;
  fr.fast = slots.data();
  fr.globals = globals;
  fr.builtins = I.builtins.value();
  fr.ns = Value::borrow(globals);
  if (has_annotations(code->body) && !dict_get_str(globals, I.names.__annotations__))
    dict_set_str(I, globals, I.names.__annotations__, new_dict(I));
  FrameScope scope(I, fr);
  try {
    exec_block(I, fr, code->body);
  } catch (PyException& e) {
    add_traceback(I, e.exc, fr);
    throw;
  }
}

Value run_class_body(Interp& I, Frame& f, const ClassDefStmt* s, const Value& ns) {
  Code* c = s->body;
  SlotArray slots(c->nslots);
  Frame fr;
  fr.code = c;
  fr.fast = slots.data();
  setup_cells(I, c, fr.fast, nullptr, &f);
  fr.globals = f.globals;
  fr.builtins = f.builtins;
  fr.ns = ns;
  fr.func = nullptr;
  FrameScope scope(I, fr);
  try {
    Value modname = dict_get_str(f.globals, I.names.__name__);
    if (modname) setitem(I, ns, Value::borrow(I.names.__module__), modname);
    setitem(I, ns, Value::borrow(I.names.__qualname__), Value::borrow(c->qualname));
    if (has_annotations(c->body)) setitem(I, ns, Value::borrow(I.names.__annotations__), new_dict(I));
    exec_block(I, fr, c->body);
    if (c->classcell_slot >= 0) setitem(I, ns, Value::borrow(I.names.__classcell__), fr.fast[c->classcell_slot]);
  } catch (PyException& e) {
    add_traceback(I, e.exc, fr);
    throw;
  }
  return Value::none();
}

bool frame_super_args(Interp& I, Value* type, Value* obj) {
  Frame* f = I.frame;
  if (!f || !f->code) return false;
  Code* c = f->code;
  if (c->kind != CodeKind::Function && c->kind != CodeKind::Lambda) return false;
  if (c->argcount == 0 && !c->varargs) return false;
  Value first = f->fast[0];
  if (has_layout(first, Layout::Cell)) first = as<Cell>(first)->v;
  if (c->argcount == 0 && c->varargs && is_tuple(first)) {
    if (as_tuple(first)->items.empty()) return false;
    first = as_tuple(first)->items[0];
  }
  if (!first) raise(I, I.exc.RuntimeError, "super(): arg[0] deleted");
  if (c->class_cell_slot < 0) raise(I, I.exc.RuntimeError, "super(): __class__ cell not found");
  Value cell = f->fast[c->class_cell_slot];
  Value cls = has_layout(cell, Layout::Cell) ? as<Cell>(cell)->v : Value();
  if (!cls) raise(I, I.exc.RuntimeError, "super(): empty __class__ cell");
  if (!is_type(cls)) raise(I, I.exc.RuntimeError, "super(): __class__ is not a type");
  *type = cls;
  *obj = first;
  return true;
}

// ---- function.__code__ ------------------------------------------------------------------------------

Value function_code_object(Interp& I, Function* fn) {
  Code* c = fn->code;
  Value o = alloc_instance(I, I.t.code);
  Dict* d = o.obj()->dict;
  dict_set(I, d, "co_name", Value::borrow(c->name));
  dict_set(I, d, "co_qualname", Value::borrow(c->qualname));
  std::vector<Value> names;
  for (Str* n : c->slot_names) names.push_back(Value::borrow(n));
  dict_set(I, d, "co_varnames", new_tuple(I, names));
  dict_set(I, d, "co_argcount", Value::integer(c->argcount));
  dict_set(I, d, "co_posonlyargcount", Value::integer(c->posonlycount));
  dict_set(I, d, "co_kwonlyargcount", Value::integer(c->kwonlycount));
  dict_set(I, d, "co_nlocals", Value::integer(c->nslots));
  int64_t flags = 0;
  if (c->varargs) flags |= 0x04;
  if (c->varkw) flags |= 0x08;
  if (c->generator) flags |= 0x20;
  dict_set(I, d, "co_flags", Value::integer(flags));
  dict_set(I, d, "co_filename", I.str(c->unit && c->unit->file ? c->unit->file->path() : "<unknown>"));
  dict_set(I, d, "co_firstlineno", Value::integer(c->where.line));
  std::vector<Value> freevars;
  for (uint32_t s : c->free_slots) freevars.push_back(Value::borrow(c->slot_names[s]));
  dict_set(I, d, "co_freevars", new_tuple(I, freevars));
  // The function it came from, so that types.FunctionType(code, globals, ...) can make another
  // function of the same code (functools-style copies); not visible as a co_ attribute.
  dict_set(I, d, "__onnxify_function__", Value::borrow(fn));
  return o;
}

}  // namespace onnxify::eval
