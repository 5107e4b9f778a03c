// Statement execution: assignment, loops and conditions (symbolic conditions go to the control-flow
// hook), try/except/finally, with, raise, def/class, import, match.
//
// Python handlers (`except` bodies, `finally` bodies, `__exit__`) never run inside a C++ catch
// block: the exception is copied out first. That keeps generator fibers from interleaving the C++
// runtime's per-thread exception state, and keeps exceptions raised by handlers ordinary.
#include "eval/control_flow.h"
#include "eval/frame.h"
#include "eval/generator.h"
#include "eval/internal.h"
#include "eval/loader.h"
#include "eval/poison.h"
#include "eval/recursion.h"

namespace onnxify::eval {

Exit exec_block(Interp& I, Frame& f, const Block& b) {
  for (const Stmt* s : b) {
    Exit x = exec_stmt(I, f, s);
    if (x != Exit::Normal) return x;
  }
  return Exit::Normal;
}

// ---- helpers ---------------------------------------------------------------------------------------

void add_traceback(Interp& I, Value& exc, const Frame& f) {
  if (!is_exc(exc) || !f.code || !f.cur) return;
  auto* e = as<Exc>(exc);
  if (!e->traceback.empty() && e->traceback.back().frame == &f) return;  // another catch point of this frame
  TraceEntry t;
  t.range = f.code->range(*f.cur);
  t.function = f.code->name ? f.code->name->s : "<module>";
  t.frame = &f;
  if (!e->traceback.empty()) {
    TraceEntry& last = e->traceback.back();
    if (last.range.begin == t.range.begin && last.range.file == t.range.file) {  // recursion: fold
      ++last.repeats;
      last.frame = &f;
      return;
    }
  }
  if (e->traceback.size() >= Exc::kMaxTraceback) {  // drop from the middle, keep the outermost
    e->traceback_omitted += 1 + e->traceback.back().repeats;
    e->traceback.back() = std::move(t);
    return;
  }
  e->traceback.push_back(std::move(t));
}

// The exception being handled by the innermost `except` (for bare `raise` and __context__).
static Value handled_exception(Interp& I, Frame& f) {
  for (Frame* p = &f; p; p = p->back)
    if (p->handling) return p->handling;
  return Value();
}

static void set_context(Interp& I, const Value& exc, const Value& ctx) {
  if (!ctx || !is_exc(exc) || exc.is(ctx)) return;
  auto* e = as<Exc>(exc);
  if (!e->context.is_none() && e->context) return;
  // Avoid a cycle (ctx already has exc in its context chain).
  Value c = ctx;
  for (int k = 0; k < 100 && is_exc(c); ++k) {
    if (c.is(exc)) return;
    c = as<Exc>(c)->context;
  }
  e->context = ctx;
}

static Value instantiate_exception(Interp& I, const Value& v, const char* what) {
  if (is_type(v) && as_type(v)->is_subtype_of(I.exc.BaseException)) {
    Value inst = call(I, v);
    if (!isinstance(I, inst, I.exc.BaseException))
      raisef(I, I.exc.TypeError, "calling {} should have returned an instance of BaseException, not {}",
             repr_string(I, v), type_name(I, inst));
    return inst;
  }
  if (isinstance(I, v, I.exc.BaseException)) return v;
  if (is_poison(v)) poison_matters(I, v, "an exception");
  raise(I, I.exc.TypeError, what);
}

// The exception `raise EXC [from CAUSE]` raises (s->exc is set), with its cause and context; the
// caller throws it, or hands it back without a C++ exception (run_function's catching mode).
Value raise_stmt_exception(Interp& I, Frame& f, const RaiseStmt* s) {
  Value v = eval(I, f, s->exc);
  f.cur = s;
  Value exc = instantiate_exception(I, v, "exceptions must derive from BaseException");
  if (s->cause) {
    Value c = eval(I, f, s->cause);
    f.cur = s;
    if (c.is_none()) {
      as<Exc>(exc)->cause = Value::none();
    } else {
      as<Exc>(exc)->cause = instantiate_exception(I, c, "exception causes must derive from BaseException");
    }
    as<Exc>(exc)->suppress_context = true;
  }
  set_context(I, exc, handled_exception(I, f));
  return exc;
}

static Exit exec_raise(Interp& I, Frame& f, const RaiseStmt* s) {
  if (!s->exc) {
    Value h = handled_exception(I, f);
    if (!h) raise(I, I.exc.RuntimeError, "No active exception to reraise");
    throw PyException{h};
  }
  throw PyException{raise_stmt_exception(I, f, s)};
}

// ---- loops and conditions ------------------------------------------------------------------------------

// `range(...)` called with positional arguments: its evaluated arguments, so the control-flow hook
// may see a bound that is only known at run time before range() would refuse it.
static bool range_call_args(Interp& I, Frame& f, const Expr* e, std::vector<Value>& args) {
  if (e->kind != EK::Call) return false;
  const auto* c = static_cast<const CallExpr*>(e);
  if (!c->simple || !c->keywords.empty() || c->args.empty() || c->args.size() > 3) return false;
  for (const Expr* a : c->args)
    if (a->kind == EK::Starred) return false;
  if (c->func->kind != EK::Global && c->func->kind != EK::Name) return false;
  Value fn = eval(I, f, c->func);
  if (!fn.is_obj() || fn.obj() != I.t.range) return false;  // a name lookup: evaluating it again is harmless
  for (const Expr* a : c->args) args.push_back(eval(I, f, a));
  return true;
}

// The builtin type a simple call `NAME(positional args...)` calls, when it is one of `want` (a
// name lookup: evaluating it again is harmless); null otherwise.
static Type* builtin_call(Interp& I, Frame& f, const Expr* e, std::initializer_list<Type*> want) {
  if (e->kind != EK::Call) return nullptr;
  const auto* c = static_cast<const CallExpr*>(e);
  if (!c->simple || c->args.empty()) return nullptr;
  for (const Expr* a : c->args)
    if (a->kind == EK::Starred) return nullptr;
  if (c->func->kind != EK::Global && c->func->kind != EK::Name) return nullptr;
  Value fn = eval(I, f, c->func);
  for (Type* t : want)
    if (fn.is_obj() && fn.obj() == t) return t;
  return nullptr;
}

// `zip(...)`, `enumerate(x[, start])` or `enumerate(zip(...)[, start])` with positional arguments
// (enumerate's start may be `start=`): their evaluated arguments, so the control-flow hook may see a
// tensor whose rows are only known at run time before the calls iterate it. False when the
// expression is something else.
struct ZipCall {
  bool enumerate = false, zipped = false;
  const Expr* start = nullptr;  // enumerate's start expression (none: 0)
  std::vector<Value> rows;
};
static bool zip_call_args(Interp& I, Frame& f, const Expr* e, ZipCall& z) {
  Type* t = builtin_call(I, f, e, {I.t.enumerate, I.t.zip});
  if (!t) return false;
  const auto* c = static_cast<const CallExpr*>(e);
  z.enumerate = t == I.t.enumerate;
  if (!z.enumerate) {
    if (!c->keywords.empty()) return false;
    z.zipped = true;
    for (const Expr* a : c->args) z.rows.push_back(eval(I, f, a));
    return true;
  }
  if (c->args.size() + c->keywords.size() > 2) return false;
  for (const auto& kw : c->keywords)
    if (!kw.name || kw.name->view() != "start") return false;
  const Expr* inner = c->args[0];
  if (builtin_call(I, f, inner, {I.t.zip}) && static_cast<const CallExpr*>(inner)->keywords.empty()) {
    z.zipped = true;
    for (const Expr* a : static_cast<const CallExpr*>(inner)->args) z.rows.push_back(eval(I, f, a));
  } else {
    z.rows.push_back(eval(I, f, inner));
  }
  if (c->args.size() > 1) z.start = c->args[1];
  for (const auto& kw : c->keywords) z.start = kw.value;
  return true;
}

bool offer_for_to_hook(Interp& I, Frame& outer, const Expr* iter_expr, Frame& f, const ForStmt& s, Value* src,
                       Exit* exit) {
  ControlFlowHook* hook = I.control_flow_hook;
  // The hook runs the loop in the body's frame (a comprehension's own, pushed for just that call);
  // the iterable's parts are evaluated before, in `outer`.
  auto in_body = [&](auto&& offer) -> bool {
    if (&f == &outer) return offer();
    FrameScope scope(I, f);
    try {
      return offer();
    } catch (PyException& e) {
      add_traceback(I, e.exc, f);
      throw;
    }
  };
  std::vector<Value> args;
  if (range_call_args(I, outer, iter_expr, args)) {
    outer.cur = iter_expr;
    Value items;
    if (in_body([&] { return hook->on_for_range(I, f, s, args, exit, &items); })) return true;
    *src = items ? items : call(I, Value::borrow(I.t.range), Args(args.data(), static_cast<uint32_t>(args.size())));
  } else if (ZipCall z; zip_call_args(I, outer, iter_expr, z)) {
    outer.cur = iter_expr;
    auto start = [&] { return z.start ? eval(I, outer, z.start) : Value::integer(0); };
    if (in_body([&] { return hook->on_for_zip(I, f, s, z.enumerate, z.zipped, start, z.rows, exit); })) return true;
    *src = z.zipped ? call(I, Value::borrow(I.t.zip), Args(z.rows.data(), static_cast<uint32_t>(z.rows.size())))
                    : z.rows[0];
    if (z.enumerate) {
      Value en[2] = {*src, start()};
      *src = call(I, Value::borrow(I.t.enumerate), Args(en, 2));
      outer.cur = iter_expr;
    }
  } else {
    *src = eval(I, outer, iter_expr);
  }
  outer.cur = iter_expr;
  if (src->is_obj() && src->obj()->type != I.t.list && src->obj()->type != I.t.tuple &&
      src->obj()->type != I.t.range)
    return in_body([&] { return hook->on_for_iter(I, f, s, *src, exit); });
  return false;
}

static Exit exec_for(Interp& I, Frame& f, const ForStmt* s) {
  Value src;
  if (I.control_flow_hook) {
    Exit x;
    if (offer_for_to_hook(I, f, s->iter, f, *s, &src, &x)) return x;
  } else {
    src = eval(I, f, s->iter);
  }
  f.cur = s->iter;
  bool broke = false;
  // The hook sees each iteration: a `break` under a tensor-dependent condition guards the ones after.
  struct Unrolled {
    Interp& I;
    Frame& f;
    const ForStmt* s;
    bool open = false;
    bool leave() {
      if (!open) return false;
      open = false;
      return I.control_flow_hook->on_unrolled_leave(I, f, *s);
    }
    ~Unrolled() { leave(); }
  } unrolled{I, f, s};
  if (I.control_flow_hook) {
    I.control_flow_hook->on_unrolled_enter(I, f, *s);
    unrolled.open = true;
  }
  // Runs the `else` of the loop when it was not left by `break`.
  auto orelse = [&]() -> Exit {
    if (unrolled.leave() && !s->orelse.empty()) {
      f.cur = s->iter;
      fatal(I, "the `else` of this loop runs only when no `break` ended it, which a `break` under a "
            "tensor-dependent condition decides at run time; this is not supported",
            "keep a tensor flag of whether the loop ended early and use torch.where after the loop");
    }
    return exec_block(I, f, s->orelse);
  };
  // Python loops are unrolled while recording: a limit on the iterations of user code's loops.
  int64_t limit = I.max_unroll > 0 && f.code && !f.code->unit->library ? I.max_unroll : 0;
  int64_t count = 0;
  auto body = [&](const Value& item) -> int {  // 0 continue, 1 break, 2 return
    I.tick();
    if (limit && ++count > limit) {
      f.cur = s->iter;
      fatal(I, fmt::format("this loop runs more than {} iterations, the unroll limit", limit),
            "loops over Python values are unrolled into the graph; raise the limit with --max-unroll N");
    }
    Exit x;
    if (I.control_flow_hook) {
      x = I.control_flow_hook->on_unrolled_body(I, f, *s, item);
    } else {
      assign(I, f, s->target, item);
      x = exec_block(I, f, s->body);
    }
    if (x == Exit::Break) {
      broke = true;
      return 1;
    }
    if (x == Exit::Return) return 2;
    return 0;
  };
  if (src.is_obj()) {
    Type* t = src.obj()->type;
    if (t == I.t.range) {
      Range* r = as<Range>(src);
      int64_t n = r->length(), v = r->start, step = r->step;
      for (int64_t k = 0; k < n; ++k, v += step) {
        int c = body(Value::integer(v));
        if (c == 1) break;
        if (c == 2) return Exit::Return;
      }
      if (!broke) return orelse();
      return Exit::Normal;
    }
    if (t == I.t.list || t == I.t.tuple) {
      for (size_t k = 0;; ++k) {
        Value item;
        if (t == I.t.list) {
          List* l = as_list(src);
          if (k >= l->items.size()) break;
          item = l->items[k];
        } else {
          Tuple* tu = as_tuple(src);
          if (k >= tu->items.size()) break;
          item = tu->items[k];
        }
        int c = body(item);
        if (c == 1) break;
        if (c == 2) return Exit::Return;
      }
      if (!broke) return orelse();
      return Exit::Normal;
    }
  }
  Value it = iter(I, src);
  NextFn nx = I.type_of(it)->slots.next;
  for (;;) {
    f.cur = s->iter;
    Value item = nx(I, it);
    if (item.is_null()) break;
    int c = body(item);
    if (c == 1) break;
    if (c == 2) return Exit::Return;
  }
  if (!broke) return orelse();
  return Exit::Normal;
}

static Exit exec_while(Interp& I, Frame& f, const WhileStmt* s) {
  for (;;) {
    I.tick();
    Value c = eval(I, f, s->test);
    Truth t = condition_truth(I, f, s->test, c);
    if (t == kSymbolic) return I.control_flow_hook->on_while(I, f, *s, c);
    if (t == kFalse) break;
    Exit x = exec_block(I, f, s->body);
    if (x == Exit::Break) return Exit::Normal;
    if (x == Exit::Return) return x;
  }
  return exec_block(I, f, s->orelse);
}

static Exit exec_if(Interp& I, Frame& f, const IfStmt* s) {
  Value c = eval(I, f, s->test);
  Truth t = condition_truth(I, f, s->test, c);
  if (t == kSymbolic) return I.control_flow_hook->on_if(I, f, *s, c);
  return exec_block(I, f, t == kTrue ? s->body : s->orelse);
}

// ---- try / with ------------------------------------------------------------------------------------------

static Exit exec_try(Interp& I, Frame& f, const TryStmt* s) {
  Value pending;  // an exception to re-raise once finally has run
  Exit result = Exit::Normal;
  Value caught;
  try {
    result = exec_block(I, f, s->body);
  } catch (PyException& e) {
    caught = std::move(e.exc);
  }
  if (caught) {
    add_traceback(I, caught, f);
    const Handler* match = nullptr;
    try {
      for (const Handler& h : s->handlers) {
        if (!h.type) {
          match = &h;
          break;
        }
        Value spec = eval(I, f, h.type);
        f.cur = h.type;
        if (is_poison(spec)) poison_matters(I, spec, "an exception class in an except clause");
        if (exception_matches(I, caught, spec)) {
          match = &h;
          break;
        }
      }
    } catch (PyException& e) {
      pending = std::move(e.exc);
      add_traceback(I, pending, f);
    }
    if (!pending) {
      if (!match) {
        pending = caught;
      } else {
        if (match->target) assign(I, f, match->target, caught);
        Value prev = f.handling;
        f.handling = caught;
        Value raised;
        try {
          result = exec_block(I, f, match->body);
        } catch (PyException& e) {
          raised = std::move(e.exc);
          add_traceback(I, raised, f);
        }
        f.handling = prev;
        if (match->target) {
          // `except E as e:` unbinds e at the end of the handler.
          try {
            delete_target(I, f, match->target);
          } catch (PyException&) {
          }
        }
        if (raised) {
          set_context(I, raised, caught);
          pending = std::move(raised);
        }
      }
    }
  } else if (result == Exit::Normal && !s->orelse.empty()) {
    Value raised;
    try {
      result = exec_block(I, f, s->orelse);
    } catch (PyException& e) {
      raised = std::move(e.exc);
      add_traceback(I, raised, f);
    }
    if (raised) pending = std::move(raised);
  }
  if (!s->finalbody.empty()) {
    Value saved_ret = f.retval;
    Value prev = f.handling;
    if (pending) f.handling = pending;
    Value raised;
    Exit fx = Exit::Normal;
    try {
      fx = exec_block(I, f, s->finalbody);
    } catch (PyException& e) {
      raised = std::move(e.exc);
      add_traceback(I, raised, f);
    }
    f.handling = prev;
    if (raised) {
      if (pending) set_context(I, raised, pending);
      throw PyException{raised};
    }
    if (fx != Exit::Normal) {
      // return/break/continue in finally discards a pending exception.
      pending = Value();
      result = fx;
    } else if (result == Exit::Return) {
      f.retval = saved_ret;
    }
  }
  if (pending) throw PyException{pending};
  return result;
}

static Exit exec_with_items(Interp& I, Frame& f, const WithStmt* s, size_t k) {
  if (k == s->items.size()) return exec_block(I, f, s->body);
  const WithItem& item = s->items[k];
  Value mgr = eval(I, f, item.context);
  f.cur = item.context;
  if (is_poison(mgr)) poison_matters(I, mgr, "a context manager");
  Type* t = I.type_of(mgr);
  Value enter = type_lookup(t, I.names.__enter__);
  Value exit = type_lookup(t, I.names.__exit__);
  if (!enter || !exit)
    raisef(I, I.exc.TypeError, "'{}' object does not support the context manager protocol", t->name_view());
  Value entered = call_unbound(I, enter, mgr);
  Value caught;
  Exit result = Exit::Normal;
  try {
    if (item.vars) assign(I, f, item.vars, entered);
    result = exec_with_items(I, f, s, k + 1);
  } catch (PyException& e) {
    caught = std::move(e.exc);
  }
  f.cur = item.context;
  if (caught) {
    add_traceback(I, caught, f);
    Value args[3] = {Value::borrow(I.type_of(caught)), caught, Value::none()};
    Value prev = f.handling;
    f.handling = caught;
    Value r;
    Value raised;
    try {
      r = call_unbound(I, exit, mgr, Args(args, 3));
    } catch (PyException& e) {
      raised = std::move(e.exc);
      add_traceback(I, raised, f);
    }
    f.handling = prev;
    if (raised) {
      set_context(I, raised, caught);
      throw PyException{raised};
    }
    if (is_true(I, r)) return Exit::Normal;
    throw PyException{caught};
  }
  Value args[3] = {Value::none(), Value::none(), Value::none()};
  call_unbound(I, exit, mgr, Args(args, 3));
  return result;
}

// ---- definitions -------------------------------------------------------------------------------------------

Value frame_global_name(Interp& I) {
  if (!I.frame || !I.frame->globals) return Value();
  return dict_get_str(I.frame->globals, I.names.__name__);
}

extern Value run_class_body(Interp& I, Frame& f, const ClassDefStmt* s, const Value& ns);

static Exit exec_classdef(Interp& I, Frame& f, const ClassDefStmt* s) {
  std::vector<Value> decorators;
  for (const Expr* d : s->decorators) decorators.push_back(eval(I, f, d));
  std::vector<Value> orig_bases;
  for (const Expr* b : s->bases) {
    if (b->kind == EK::Starred) {
      Value it = eval(I, f, static_cast<const StarredExpr*>(b)->value);
      for_each(I, it, [&](Value& x) { orig_bases.push_back(std::move(x)); });
    } else {
      orig_bases.push_back(eval(I, f, b));
    }
  }
  std::vector<Str*> kwnames;
  std::vector<Value> kwvals;
  Value meta;
  for (const Keyword& k : s->keywords) {
    Value v = eval(I, f, k.value);
    if (!k.name) {
      f.cur = s;
      if (!is_dict(v)) raisef(I, I.exc.TypeError, "argument after ** must be a mapping, not {}", type_name(I, v));
      for (auto& e : as_dict(v)->entries) {
        if (e.key.is_null()) continue;
        if (!is_str(e.key)) raise(I, I.exc.TypeError, "keywords must be strings");
        Str* n = I.intern(as_str(e.key)->s);
        if (n->s == "metaclass") meta = e.value;
        else {
          kwnames.push_back(n);
          kwvals.push_back(e.value);
        }
      }
      continue;
    }
    if (k.name->s == "metaclass") {
      meta = v;
      continue;
    }
    kwnames.push_back(k.name);
    kwvals.push_back(v);
  }
  f.cur = s;
  // A class deriving from something unknown (ssl.SSLContext of a refused module) is a real class
  // over a stand-in for that base: it can be decorated, stored and compared, and its instances are
  // unknown (poison.h, opaque_class).
  for (Value& b : orig_bases)
    if (is_poison(b)) b = opaque_class(I, b);
  if (meta && is_poison(meta)) {
    assign(I, f, s->target, make_poison(I, s->name->s, as<Poison>(meta)->reason, as<Poison>(meta)->origin));
    return Exit::Normal;
  }
  // PEP 560: bases that are not classes may provide __mro_entries__ (typing's Generic[T]).
  std::vector<Value> bases;
  bool changed = false;
  Value orig_tuple = new_tuple(I, orig_bases);
  for (const Value& b : orig_bases) {
    if (!is_type(b)) {
      Value me = getattr_opt(I, b, I.names.__mro_entries__);
      if (me) {
        Value r = call(I, me, orig_tuple);
        if (!is_tuple(r)) raise(I, I.exc.TypeError, "__mro_entries__ must return a tuple");
        for (const Value& x : as_tuple(r)->items) bases.push_back(x);
        changed = true;
        continue;
      }
    }
    bases.push_back(b);
  }
  Value bases_tuple = new_tuple(I, bases);
  if (!meta) meta = bases.empty() ? Value::borrow(I.t.type) : Value::borrow(I.type_of(bases[0]));
  if (is_type(meta)) meta = Value::borrow(calculate_metaclass(I, as_type(meta), bases));
  Args kwa;
  kwa.nkw = static_cast<uint32_t>(kwnames.size());
  kwa.kwnames = kwnames.data();
  kwa.kwvals = kwvals.data();
  Value ns;
  Value prepare = getattr_opt(I, meta, I.names.__prepare__);
  if (prepare) {
    std::vector<Value> pargs = {Value::borrow(s->name), bases_tuple};
    for (auto& v : kwvals) pargs.push_back(v);
    Args pa(pargs.data(), 2);
    pa.nkw = kwa.nkw;
    pa.kwnames = kwa.kwnames;
    pa.kwvals = pargs.data() + 2;
    ns = call(I, prepare, pa);
  } else {
    ns = new_dict(I);
  }
  if (!I.type_of(ns)->slots.getitem || !I.type_of(ns)->slots.setitem)
    raisef(I, I.exc.TypeError, "{}.__prepare__() must return a mapping, not {}", repr_string(I, meta), type_name(I, ns));
  Value body_result = run_class_body(I, f, s, ns);
  if (changed) setitem(I, ns, Value::borrow(I.names.__orig_bases__), orig_tuple);
  std::vector<Value> cargs = {Value::borrow(s->name), bases_tuple, ns};
  for (auto& v : kwvals) cargs.push_back(v);
  Args ca(cargs.data(), 3);
  ca.nkw = kwa.nkw;
  ca.kwnames = kwa.kwnames;
  ca.kwvals = cargs.data() + 3;
  f.cur = s;
  Value cls = call(I, meta, ca);
  for (size_t i = decorators.size(); i-- > 0;) {
    f.cur = s->decorators[i];
    cls = call(I, decorators[i], cls);
  }
  assign(I, f, s->target, cls);
  (void)body_result;
  return Exit::Normal;
}

static Exit exec_funcdef(Interp& I, Frame& f, const FunctionDefStmt* s) {
  std::vector<Value> decorators;
  for (const Expr* d : s->decorators) decorators.push_back(eval(I, f, d));
  Value fn = make_function(I, f, s->def);
  for (size_t i = decorators.size(); i-- > 0;) {
    f.cur = s->decorators[i];
    fn = call(I, decorators[i], fn);
  }
  assign(I, f, s->target, fn);
  return Exit::Normal;
}

// ---- annotations ---------------------------------------------------------------------------------------------

static Value annotations_dict(Interp& I, Frame& f) {
  Value ns = f.ns ? f.ns : Value::borrow(f.globals);
  Value d;
  if (ns.obj()->type == I.t.dict) {
    d = dict_get_str(as_dict(ns), I.names.__annotations__);
    if (!d) {
      d = new_dict(I);
      dict_set_str(I, as_dict(ns), I.names.__annotations__, d);
    }
    return d;
  }
  try {
    return getitem(I, ns, Value::borrow(I.names.__annotations__));
  } catch (PyException& e) {
    if (!isinstance(I, e.exc, I.exc.KeyError)) throw;
  }
  d = new_dict(I);
  setitem(I, ns, Value::borrow(I.names.__annotations__), d);
  return d;
}

static Exit exec_annassign(Interp& I, Frame& f, const AnnAssignStmt* s) {
  if (s->value) {
    Value v = eval(I, f, s->value);
    assign(I, f, s->target, v);
  }
  if (s->store_annotation) {
    Value ann = s->annotation ? eval(I, f, s->annotation) : I.str(s->annotation_text);
    f.cur = s;
    Value d = annotations_dict(I, f);
    setitem(I, d, Value::borrow(s->name), ann);
  } else if (s->annotation && f.code->kind != CodeKind::Function) {
    eval(I, f, s->annotation);
  }
  return Exit::Normal;
}

// ---- match ---------------------------------------------------------------------------------------------------

static bool match_pattern(Interp& I, Frame& f, const Pattern* p, const Value& subject);

static bool is_sequence_subject(Interp& I, const Value& v) {
  if (is_str(v) || has_layout(v, Layout::Bytes) || is_dict(v)) return false;
  if (is_list(v) || is_tuple(v) || has_layout(v, Layout::Range)) return true;
  // collections.abc.Sequence registered classes are not tracked: user sequences match when they
  // subclass list/tuple, as most do.
  return false;
}

static bool match_pattern(Interp& I, Frame& f, const Pattern* p, const Value& subject) {
  f.cur = p;
  switch (p->kind) {
    case Pattern::Value: {
      Value v = eval(I, f, p->value);
      return eq(I, subject, v);
    }
    case Pattern::Singleton: return subject.is(p->constant);
    case Pattern::As: {
      if (p->sub && !match_pattern(I, f, p->sub, subject)) return false;
      if (p->target) assign(I, f, p->target, subject);
      return true;
    }
    case Pattern::Or:
      for (const Pattern* q : p->patterns)
        if (match_pattern(I, f, q, subject)) return true;
      return false;
    case Pattern::Sequence: {
      if (!is_sequence_subject(I, subject)) return false;
      std::vector<Value> items = to_vector(I, subject);
      int star = -1;
      for (size_t i = 0; i < p->patterns.size(); ++i)
        if (p->patterns[i]->kind == Pattern::Star) star = static_cast<int>(i);
      size_t n = p->patterns.size();
      if (star < 0) {
        if (items.size() != n) return false;
        for (size_t i = 0; i < n; ++i)
          if (!match_pattern(I, f, p->patterns[i], items[i])) return false;
        return true;
      }
      size_t before = star, after = n - star - 1;
      if (items.size() < before + after) return false;
      for (size_t i = 0; i < before; ++i)
        if (!match_pattern(I, f, p->patterns[i], items[i])) return false;
      for (size_t i = 0; i < after; ++i)
        if (!match_pattern(I, f, p->patterns[before + 1 + i], items[items.size() - after + i])) return false;
      if (p->patterns[star]->target)
        assign(I, f, p->patterns[star]->target,
               new_list(I, std::vector<Value>(items.begin() + before, items.end() - after)));
      return true;
    }
    case Pattern::Star: return true;
    case Pattern::Mapping: {
      if (!is_dict(subject) && !getattr_opt(I, subject, I.names.keys)) return false;
      std::vector<Value> keys;
      for (size_t i = 0; i < p->keys.size(); ++i) {
        Value k = eval(I, f, p->keys[i]);
        keys.push_back(k);
        if (!contains(I, subject, k)) return false;
        Value v = getitem(I, subject, k);
        if (!match_pattern(I, f, p->patterns[i], v)) return false;
      }
      if (p->rest) {
        Ref<Dict> rest = new_dict_ref(I);
        dict_update(I, rest.get(), subject);
        for (const Value& k : keys) dict_del(I, rest.get(), k);
        assign(I, f, p->rest, rest.value());
      }
      return true;
    }
    case Pattern::Class: {
      Value cls = eval(I, f, p->value);
      f.cur = p;
      if (!is_type(cls)) raise(I, I.exc.TypeError, "called match pattern must be a class");
      if (!isinstance_full(I, subject, cls)) return false;
      if (!p->patterns.empty()) {
        Type* ct = as_type(cls);
        bool self_match = ct == I.t.int_ || ct == I.t.float_ || ct == I.t.str || ct == I.t.bool_ || ct == I.t.bytes ||
                          ct == I.t.list || ct == I.t.tuple || ct == I.t.dict || ct == I.t.set || ct == I.t.frozenset;
        if (self_match && p->patterns.size() == 1) return match_pattern(I, f, p->patterns[0], subject);
        Value ma = getattr_opt(I, cls, I.names.__match_args__);
        if (!ma) raisef(I, I.exc.TypeError, "{}() accepts 0 positional sub-patterns ({} given)", ct->name_view(), p->patterns.size());
        std::vector<Value> names = to_vector(I, ma);
        if (names.size() < p->patterns.size())
          raisef(I, I.exc.TypeError, "{}() accepts {} positional sub-patterns ({} given)", ct->name_view(), names.size(),
                 p->patterns.size());
        for (size_t i = 0; i < p->patterns.size(); ++i) {
          Value v = getattr_opt(I, subject, I.intern(str_string(I, names[i])));
          if (!v || !match_pattern(I, f, p->patterns[i], v)) return false;
        }
      }
      for (size_t i = 0; i < p->kwd_attrs.size(); ++i) {
        Value v = getattr_opt(I, subject, p->kwd_attrs[i]);
        if (!v || !match_pattern(I, f, p->kwd_patterns[i], v)) return false;
      }
      return true;
    }
  }
  return false;
}

static Exit exec_match(Interp& I, Frame& f, const MatchStmt* s) {
  Value subject = eval(I, f, s->subject);
  for (const MatchCase& c : s->cases) {
    if (!match_pattern(I, f, c.pattern, subject)) continue;
    if (c.guard) {
      Value g = eval(I, f, c.guard);
      if (condition_truth(I, f, c.guard, g) != kTrue) continue;
    }
    return exec_block(I, f, c.body);
  }
  return Exit::Normal;
}

// ---- imports -----------------------------------------------------------------------------------------------

static Exit exec_import(Interp& I, Frame& f, const ImportStmt* s) {
  for (const ImportName& n : s->names) {
    f.cur = &n.where;
    if (n.asname) {
      // `import a.b.c as d` binds a.b's attribute c, one component at a time (CPython 3.7+'s
      // IMPORT_FROM), which is not sys.modules['a.b.c'] when the package rebound the name:
      // torch.nn.utils.spectral_norm is the function, not its module.
      Value m = I.loader().import_module(n.dotted, f.globals, 0, s->guarded, f.code->range(n.where));
      size_t dot = n.dotted.find('.');
      if (dot != std::string::npos && !is_poison(m)) {
        Value v = I.loader().import_top(n.dotted, f.globals, s->guarded, f.code->range(n.where));
        while (dot != std::string::npos) {
          size_t next = n.dotted.find('.', dot + 1);
          v = I.loader().import_from(v, n.dotted.substr(dot + 1, next == std::string::npos ? next : next - dot - 1),
                                     s->guarded, f.code->range(n.where));
          dot = next;
        }
        m = v;
      }
      assign(I, f, n.target, m);
    } else {
      Value top = I.loader().import_top(n.dotted, f.globals, s->guarded, f.code->range(n.where));
      assign(I, f, n.target, top);
    }
  }
  return Exit::Normal;
}

static Exit exec_import_from(Interp& I, Frame& f, const ImportFromStmt* s) {
  f.cur = s;
  Value m = I.loader().import_module(s->module, f.globals, s->level, s->guarded, f.code->range(*s));
  if (s->star) {
    f.cur = s;
    I.loader().import_star(m, f.ns ? f.ns : Value::borrow(f.globals));
    return Exit::Normal;
  }
  for (const ImportName& n : s->names) {
    f.cur = &n.where;
    Value v = I.loader().import_from(m, n.dotted, s->guarded, f.code->range(n.where));
    assign(I, f, n.target, v);
  }
  return Exit::Normal;
}

// ---- the statement switch ---------------------------------------------------------------------------------

Exit exec_stmt(Interp& I, Frame& f, const Stmt* s) {
  I.tick();
  f.cur = s;
  switch (s->kind) {
    case SK::Expr: eval(I, f, static_cast<const ExprStmt*>(s)->value); return Exit::Normal;
    case SK::Assign: {
      const auto* a = static_cast<const AssignStmt*>(s);
      Value v = eval(I, f, a->value);
      for (const Expr* t : a->targets) assign(I, f, t, v);
      return Exit::Normal;
    }
    case SK::AugAssign: {
      const auto* a = static_cast<const AugAssignStmt*>(s);
      const Expr* t = a->target;
      if (t->kind == EK::Attr) {
        const auto* at = static_cast<const AttrExpr*>(t);
        Value obj = eval(I, f, at->obj);
        f.cur = t;
        Value cur = getattr(I, obj, at->name);
        Value rhs = eval(I, f, a->value);
        f.cur = s;
        Value r = inplace_op(I, a->op, cur, rhs);
        f.cur = t;
        setattr(I, obj, at->name, r);
        return Exit::Normal;
      }
      if (t->kind == EK::Subscript) {
        const auto* st = static_cast<const SubscriptExpr*>(t);
        Value obj = eval(I, f, st->obj);
        Value key = eval(I, f, st->index);
        f.cur = t;
        Value cur = getitem(I, obj, key);
        Value rhs = eval(I, f, a->value);
        f.cur = s;
        Value r = inplace_op(I, a->op, cur, rhs);
        f.cur = t;
        setitem(I, obj, key, r);
        return Exit::Normal;
      }
      Value cur = eval(I, f, t);
      Value rhs = eval(I, f, a->value);
      f.cur = s;
      Value r;
      if (cur.is_int() && rhs.is_int()) {
        int64_t x;
        if (a->op == BinOp::Add && !__builtin_add_overflow(cur.i(), rhs.i(), &x)) r = Value::integer(x);
        else if (a->op == BinOp::Sub && !__builtin_sub_overflow(cur.i(), rhs.i(), &x)) r = Value::integer(x);
      }
      if (!r) r = inplace_op(I, a->op, cur, rhs);
      assign(I, f, t, r);
      return Exit::Normal;
    }
    case SK::AnnAssign: return exec_annassign(I, f, static_cast<const AnnAssignStmt*>(s));
    case SK::For: {
      Exit x = exec_for(I, f, static_cast<const ForStmt*>(s));
      return I.control_flow_hook ? I.control_flow_hook->on_unrolled_done(I, f, *static_cast<const ForStmt*>(s), x) : x;
    }
    case SK::While: return exec_while(I, f, static_cast<const WhileStmt*>(s));
    case SK::If: return exec_if(I, f, static_cast<const IfStmt*>(s));
    case SK::With: return exec_with_items(I, f, static_cast<const WithStmt*>(s), 0);
    case SK::Try: return exec_try(I, f, static_cast<const TryStmt*>(s));
    case SK::Raise: return exec_raise(I, f, static_cast<const RaiseStmt*>(s));
    case SK::Return: {
      const auto* r = static_cast<const ReturnStmt*>(s);
      f.retval = r->value ? eval(I, f, r->value) : Value::none();
      return Exit::Return;
    }
    case SK::Break: return Exit::Break;
    case SK::Continue: return Exit::Continue;
    case SK::Pass: return Exit::Normal;
    case SK::Delete:
      for (const Expr* t : static_cast<const DeleteStmt*>(s)->targets) delete_target(I, f, t);
      return Exit::Normal;
    case SK::Import: return exec_import(I, f, static_cast<const ImportStmt*>(s));
    case SK::ImportFrom: return exec_import_from(I, f, static_cast<const ImportFromStmt*>(s));
    case SK::FunctionDef: return exec_funcdef(I, f, static_cast<const FunctionDefStmt*>(s));
    case SK::ClassDef: return exec_classdef(I, f, static_cast<const ClassDefStmt*>(s));
    case SK::Assert: {
      const auto* a = static_cast<const AssertStmt*>(s);
      // A symbolic assertion cannot be checked at conversion time: it passes, also where a part of
      // its test needs a Python bool of a run-time value (list equality of symbolic sizes).
      Value t;
      ++I.assert_depth;
      try {
        t = eval(I, f, a->test);
      } catch (const SymbolicAssertion&) {
        --I.assert_depth;
        return Exit::Normal;
      } catch (...) {
        --I.assert_depth;
        throw;
      }
      --I.assert_depth;
      f.cur = a->test;
      if (truth(I, t) != kFalse) return Exit::Normal;
      f.cur = s;
      if (a->msg) {
        Value m = eval(I, f, a->msg);
        throw PyException{make_exception_args(I, I.exc.AssertionError, {m})};
      }
      throw PyException{make_exception_args(I, I.exc.AssertionError, {})};
    }
    case SK::Match: return exec_match(I, f, static_cast<const MatchStmt*>(s));
    case SK::Unsupported: {
      const auto* u = static_cast<const UnsupportedStmt*>(s);
      if (u->target) {
        const auto* n = static_cast<const NameExpr*>(u->target);
        assign(I, f, u->target,
               make_poison(I, n->name->s, fmt::format("{} functions are not supported: onnxify does not run async code", u->what),
                           f.code->range(*s)));
        return Exit::Normal;
      }
      fatal(I, fmt::format("{} is not supported: onnxify does not run async code", u->what));
    }
  }
  return Exit::Normal;
}

}  // namespace onnxify::eval
