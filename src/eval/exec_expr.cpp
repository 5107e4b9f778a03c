// Expression evaluation: names, attributes (with per-site type caches), calls (with the method-call
// path that skips making bound methods), operators with int/float fast paths, displays,
// comprehensions, f-strings, and assignment targets.
#include <cmath>

#include "eval/control_flow.h"
#include "eval/frame.h"
#include "eval/generator.h"
#include "eval/internal.h"
#include "eval/poison.h"
#include "eval/recursion.h"

namespace onnxify::eval {

std::string ascii_of(Interp& I, const Value& v);

// ---- names ----------------------------------------------------------------------------------------------

[[noreturn]] static void unbound_local(Interp& I, Frame& f, const NameExpr* n) {
  f.cur = n;
  raisef(I, I.exc.UnboundLocalError, "cannot access local variable '{}' where it is not associated with a value",
         n->name->s);
}

[[noreturn]] static void name_error(Interp& I, Frame& f, const Node* where, Str* name) {
  f.cur = where;
  Value exc = make_exception(I, I.exc.NameError, fmt::format("name '{}' is not defined", name->s));
  if (!exc.obj()->dict) exc.obj()->dict = new_dict_ref(I).release();
  dict_set(I, exc.obj()->dict, "name", Value::borrow(name));
  throw PyException{exc};
}

static Value load_cell(Interp& I, Frame& f, const NameExpr* n) {
  const Value& c = f.fast[n->slot];
  if (c.is_obj()) {
    const Value& v = as<Cell>(c)->v;
    if (v) return v;
  }
  f.cur = n;
  // Free variables (from an enclosing function) and the function's own cell variables differ.
  bool is_free = false;
  for (uint32_t s : f.code->free_slots)
    if (s == n->slot) is_free = true;
  if (is_free)
    raisef(I, I.exc.NameError,
           "cannot access free variable '{}' where it is not associated with a value in enclosing scope", n->name->s);
  raisef(I, I.exc.UnboundLocalError, "cannot access local variable '{}' where it is not associated with a value",
         n->name->s);
}

static Value load_global(Interp& I, Frame& f, const NameExpr* n) {
  Dict* g = f.globals;
  Dict* b = as_dict(f.builtins);
  GlobalCache& c = const_cast<GlobalCache&>(n->cache);
  if (c.globals == g && c.globals_version == g->keys_version) {
    if (c.index >= 0) return g->entries[c.index].value;
    if (c.builtins_version == b->keys_version && c.builtin_index >= 0) return b->entries[c.builtin_index].value;
  }
  int64_t ix = dict_find_str(g, n->name);
  c.globals = g;
  c.globals_version = g->keys_version;
  c.builtins_version = b->keys_version;
  if (ix >= 0) {
    c.index = static_cast<int32_t>(ix);
    return g->entries[ix].value;
  }
  c.index = -1;
  int64_t bx = dict_find_str(b, n->name);
  c.builtin_index = static_cast<int32_t>(bx);
  if (bx >= 0) return b->entries[bx].value;
  name_error(I, f, n, n->name);
}

// A lookup in a class-body namespace, which may be any mapping (enum's namespace is a dict subclass).
static Value ns_lookup(Interp& I, const Value& ns, Str* name) {
  Type* t = ns.obj()->type;
  if (t == I.t.dict) return dict_get_str(as_dict(ns), name);
  // A dict subclass that keeps dict's __getitem__ (enum's class namespace): dict's lookup and then
  // __missing__, as dict.__getitem__ does, without raising KeyError for the common miss.
  if (t->layout == Layout::Dict && t->slots.getitem == I.t.dict->slots.getitem) {
    Value v = dict_get(I, as_dict(ns), Value::borrow(name));
    if (v || !type_lookup(t, I.names.__missing__)) return v;
  }
  try {
    return getitem(I, ns, Value::borrow(name));
  } catch (PyException& e) {
    if (!isinstance(I, e.exc, I.exc.KeyError)) throw;
  }
  return Value();
}

static Value load_name(Interp& I, Frame& f, const NameExpr* n) {
  if (f.ns && (!f.ns.is_obj() || f.ns.obj() != f.globals)) {
    Value v = ns_lookup(I, f.ns, n->name);
    if (v) return v;
  }
  return load_global(I, f, n);
}

static void store_name(Interp& I, Frame& f, Str* name, const Value& v) {
  if (f.ns.obj()->type == I.t.dict)
    dict_set_str(I, as_dict(f.ns), name, v);
  else
    setitem(I, f.ns, Value::borrow(name), v);
}

// ---- attributes ---------------------------------------------------------------------------------------

enum AttrKind : uint8_t { kAttrInvalid = 0, kAttrAbsent, kAttrData, kAttrMethod, kAttrDescr, kAttrPlain };

static void fill_attr_cache(Interp& I, AttrCache& c, Type* t, Str* name) {
  Value d = type_lookup(t, name);
  c.type = t;
  c.version = t->version;
  c.descr = d;
  if (!d) {
    c.kind = kAttrAbsent;
    return;
  }
  Type* dt = I.type_of(d);
  if (dt->slots.get && (dt->slots.set || dt->slots.delete_))
    c.kind = kAttrData;
  else if (dt == I.t.function || (dt == I.t.method_descriptor && (as<NativeFunc>(d)->flags & kNativeMethod)))
    c.kind = kAttrMethod;
  else if (dt->slots.get)
    c.kind = kAttrDescr;
  else
    c.kind = kAttrPlain;
}

static inline bool generic_getattribute(Interp& I, Type* t) {
  return t->slots.getattribute == I.t.object->slots.getattribute;
}

static Value attr_missing(Interp& I, const Value& obj, Str* name) {
  Type* t = I.type_of(obj);
  if (t->flags & kTypeHasGetattr) {
    Value ga = type_lookup(t, I.names.__getattr__);
    if (ga) return call_unbound(I, ga, obj, Value::borrow(name));
  }
  raise_no_attribute(I, obj, name);
}

static Value load_attr(Interp& I, const AttrExpr* a, const Value& obj) {
  Type* t = I.type_of(obj);
  if (!generic_getattribute(I, t)) return getattr(I, obj, a->name);
  AttrCache& c = const_cast<AttrCache&>(a->cache);
  if (c.type != t || c.version != t->version) fill_attr_cache(I, c, t, a->name);
  if (c.kind == kAttrData) return I.type_of(c.descr)->slots.get(I, c.descr, obj, Value::borrow(t));
  if (obj.is_obj() && obj.obj()->dict) {
    int64_t ix = dict_find_str(obj.obj()->dict, a->name);
    if (ix >= 0) return obj.obj()->dict->entries[ix].value;
  }
  switch (c.kind) {
    case kAttrMethod:
    case kAttrDescr: {
      Value d = c.descr;  // the call may refill the cache
      return I.type_of(d)->slots.get(I, d, obj, Value::borrow(t));
    }
    case kAttrPlain: return c.descr;
    default: return attr_missing(I, obj, a->name);
  }
}

// For obj.name(...): returns true with the unbound function in *meth when the call can pass obj as
// the first argument directly (no bound method object).
static bool lookup_method(Interp& I, const AttrExpr* a, const Value& obj, Value* meth) {
  Type* t = I.type_of(obj);
  if (generic_getattribute(I, t)) {
    AttrCache& c = const_cast<AttrCache&>(a->cache);
    if (c.type != t || c.version != t->version) fill_attr_cache(I, c, t, a->name);
    if (c.kind == kAttrMethod && !(obj.is_obj() && obj.obj()->dict && dict_find_str(obj.obj()->dict, a->name) >= 0)) {
      *meth = c.descr;
      return true;
    }
  }
  *meth = load_attr(I, a, obj);
  return false;
}

static void store_attr(Interp& I, Frame& f, const AttrExpr* a, const Value& obj, const Value& v) {
  Type* t = I.type_of(obj);
  if (t->slots.setattr == I.t.object->slots.setattr) {
    AttrCache& c = const_cast<AttrCache&>(a->cache);
    if (c.type != t || c.version != t->version) fill_attr_cache(I, c, t, a->name);
    if (c.kind == kAttrData) {
      Value d = c.descr;
      DescrSetFn set = I.type_of(d)->slots.set;
      if (set) {
        set(I, d, obj, v);
        return;
      }
    } else if (obj.is_obj() && obj.obj()->dict) {
      dict_set_str(I, obj.obj()->dict, a->name, v);
      return;
    }
    generic_setattr(I, obj, a->name, v);
    return;
  }
  setattr(I, obj, a->name, v);
}

// ---- calls ---------------------------------------------------------------------------------------------

// Argument values for one call: inline for the common small calls.
class ArgBuf {
 public:
  explicit ArgBuf(size_t n) : n_(n) {
    if (n > kInline) {
      heap_.resize(n);
      data_ = heap_.data();
    } else {
      data_ = inline_;
    }
  }
  Value* data() { return data_; }
  Value& operator[](size_t i) { return data_[i]; }

 private:
  static constexpr size_t kInline = 8;
  Value inline_[kInline];
  std::vector<Value> heap_;
  Value* data_;
  size_t n_;
};

// A call with *args or **kwargs: collects the positional values and keyword pairs.
static Value eval_call_general(Interp& I, Frame& f, const CallExpr* c, const Value& fn, const Value* self) {
  std::vector<Value> pos;
  if (self) pos.push_back(*self);
  for (const Expr* a : c->args) {
    if (a->kind == EK::Starred) {
      Value it = eval(I, f, static_cast<const StarredExpr*>(a)->value);
      Type* t = I.type_of(it);
      if (!t->slots.iter && !t->slots.getitem) {
        f.cur = c;
        Value fname = getattr_opt(I, fn, I.names.__qualname__);
        raisef(I, I.exc.TypeError, "{}() argument after * must be an iterable, not {}",
               fname && is_str(fname) ? as_str(fname)->s : std::string(type_name(I, fn)), type_name(I, it));
      }
      for_each(I, it, [&](Value& x) { pos.push_back(std::move(x)); });
    } else {
      pos.push_back(eval(I, f, a));
    }
  }
  std::vector<Str*> names;
  std::vector<Value> vals;
  auto add_kw = [&](Str* n, Value v) {
    for (Str* m : names) {
      if (str_eq(m, n)) {
        Value fname = getattr_opt(I, fn, I.names.__qualname__);
        raisef(I, I.exc.TypeError, "{}() got multiple values for keyword argument '{}'",
               fname && is_str(fname) ? as_str(fname)->s : std::string(type_name(I, fn)), n->s);
      }
    }
    names.push_back(n);
    vals.push_back(std::move(v));
  };
  for (const Keyword& k : c->keywords) {
    if (k.name) {
      add_kw(k.name, eval(I, f, k.value));
      continue;
    }
    Value m = eval(I, f, k.value);
    f.cur = c;
    if (is_dict(m)) {
      Dict* d = as_dict(m);
      std::vector<std::pair<Value, Value>> items;
      for (auto& e : d->entries)
        if (!e.key.is_null()) items.emplace_back(e.key, e.value);
      for (auto& [key, v] : items) {
        if (!is_str(key)) raise(I, I.exc.TypeError, "keywords must be strings");
        add_kw(I.intern(as_str(key)->s), v);
      }
    } else {
      Value keys = getattr_opt(I, m, I.names.keys);
      if (!keys) {
        Value fname = getattr_opt(I, fn, I.names.__qualname__);
        raisef(I, I.exc.TypeError, "{}() argument after ** must be a mapping, not {}",
               fname && is_str(fname) ? as_str(fname)->s : std::string(type_name(I, fn)), type_name(I, m));
      }
      for (const Value& key : to_vector(I, call(I, keys))) {
        if (!is_str(key)) raise(I, I.exc.TypeError, "keywords must be strings");
        add_kw(I.intern(as_str(key)->s), getitem(I, m, key));
      }
    }
  }
  size_t npos = pos.size();
  for (Value& v : vals) pos.push_back(std::move(v));
  Args a(pos.data(), static_cast<uint32_t>(npos));
  a.nkw = static_cast<uint32_t>(names.size());
  a.kwvals = pos.data() + npos;
  a.kwnames = names.data();
  f.cur = c;
  return call(I, fn, a);
}

static Value eval_call(Interp& I, Frame& f, const CallExpr* c) {
  check_native_stack(I);
  size_t npos = c->args.size(), nkw = c->keywords.size();
  if (c->simple && c->func->kind == EK::Attr) {
    const auto* at = static_cast<const AttrExpr*>(c->func);
    Value obj = eval(I, f, at->obj);
    f.cur = at;
    Value meth;
    bool with_self = lookup_method(I, at, obj, &meth);
    ArgBuf buf(1 + npos + nkw);
    for (size_t i = 0; i < npos; ++i) buf[1 + i] = eval(I, f, c->args[i]);
    for (size_t k = 0; k < nkw; ++k) buf[1 + npos + k] = eval(I, f, c->keywords[k].value);
    f.cur = c;
    if (with_self) {
      Type* mt = meth.obj()->type;
      if (mt == I.t.function) {
        buf[0] = std::move(obj);
        Args a(buf.data(), static_cast<uint32_t>(npos + 1));
        a.nkw = static_cast<uint32_t>(nkw);
        a.kwvals = buf.data() + 1 + npos;
        a.kwnames = c->kwnames.data();
        return call_function(I, as<Function>(meth), a);
      }
      Args a(buf.data() + 1, static_cast<uint32_t>(npos));
      a.nkw = static_cast<uint32_t>(nkw);
      a.kwvals = buf.data() + 1 + npos;
      a.kwnames = c->kwnames.data();
      return as<NativeFunc>(meth)->fn(I, obj, a);
    }
    Args a(buf.data() + 1, static_cast<uint32_t>(npos));
    a.nkw = static_cast<uint32_t>(nkw);
    a.kwvals = buf.data() + 1 + npos;
    a.kwnames = c->kwnames.data();
    return call(I, meth, a);
  }
  Value fn = eval(I, f, c->func);
  if (!c->simple) return eval_call_general(I, f, c, fn, nullptr);
  ArgBuf buf(npos + nkw);
  for (size_t i = 0; i < npos; ++i) buf[i] = eval(I, f, c->args[i]);
  for (size_t k = 0; k < nkw; ++k) buf[npos + k] = eval(I, f, c->keywords[k].value);
  Args a(buf.data(), static_cast<uint32_t>(npos));
  a.nkw = static_cast<uint32_t>(nkw);
  a.kwvals = buf.data() + npos;
  a.kwnames = c->kwnames.data();
  f.cur = c;
  return call(I, fn, a);
}

// ---- operators -----------------------------------------------------------------------------------------

static Value eval_binop(Interp& I, Frame& f, const BinOpExpr* e) {
  Value a = eval(I, f, e->left);
  Value b = eval(I, f, e->right);
  BinOp op = static_cast<BinOp>(e->op);
  if (a.is_int() && b.is_int()) {
    int64_t x = a.i(), y = b.i(), r;
    switch (op) {
      case BinOp::Add:
        if (!__builtin_add_overflow(x, y, &r)) return Value::integer(r);
        break;
      case BinOp::Sub:
        if (!__builtin_sub_overflow(x, y, &r)) return Value::integer(r);
        break;
      case BinOp::Mul:
        if (!__builtin_mul_overflow(x, y, &r)) return Value::integer(r);
        break;
      case BinOp::FloorDiv:
        if (y > 0 && x >= 0) return Value::integer(x / y);
        break;
      case BinOp::Mod:
        if (y > 0 && x >= 0) return Value::integer(x % y);
        break;
      case BinOp::BitAnd: return Value::integer(x & y);
      case BinOp::BitOr: return Value::integer(x | y);
      case BinOp::BitXor: return Value::integer(x ^ y);
      case BinOp::RShift:
        if (y >= 0 && y < 64) return Value::integer(x >> y);
        break;
      default: break;
    }
  } else if (a.is_float() && b.is_float()) {
    double x = a.f(), y = b.f();
    switch (op) {
      case BinOp::Add: return Value::real(x + y);
      case BinOp::Sub: return Value::real(x - y);
      case BinOp::Mul: return Value::real(x * y);
      case BinOp::TrueDiv:
        if (y != 0) return Value::real(x / y);
        break;
      default: break;
    }
  }
  f.cur = e;
  return binary_op(I, op, a, b);
}

static Value fast_compare(Interp& I, CmpOp op, const Value& a, const Value& b, bool* done) {
  *done = true;
  if (a.is_int() && b.is_int()) {
    int64_t x = a.i(), y = b.i();
    switch (op) {
      case CmpOp::Eq: return Value::boolean(x == y);
      case CmpOp::Ne: return Value::boolean(x != y);
      case CmpOp::Lt: return Value::boolean(x < y);
      case CmpOp::Le: return Value::boolean(x <= y);
      case CmpOp::Gt: return Value::boolean(x > y);
      case CmpOp::Ge: return Value::boolean(x >= y);
      default: break;
    }
  } else if (a.is_float() && b.is_float()) {
    double x = a.f(), y = b.f();
    switch (op) {
      case CmpOp::Eq: return Value::boolean(x == y);
      case CmpOp::Ne: return Value::boolean(x != y);
      case CmpOp::Lt: return Value::boolean(x < y);
      case CmpOp::Le: return Value::boolean(x <= y);
      case CmpOp::Gt: return Value::boolean(x > y);
      case CmpOp::Ge: return Value::boolean(x >= y);
      default: break;
    }
  }
  if ((op == CmpOp::Is || op == CmpOp::IsNot) && !is_poison(a) && !is_poison(b) &&
      !(I.symbolic.is_none && a.is_none() != b.is_none()))  // compare() asks the hook
    return Value::boolean(a.is(b) == (op == CmpOp::Is));
  *done = false;
  return Value();
}

static Value eval_compare(Interp& I, Frame& f, const CompareExpr* e) {
  Value left = eval(I, f, e->left);
  size_t n = e->ops.size();
  for (size_t i = 0; i < n; ++i) {
    Value right = eval(I, f, e->comparators[i]);
    bool done;
    Value r = fast_compare(I, e->ops[i], left, right, &done);
    if (!done) {
      f.cur = e;
      r = compare(I, e->ops[i], left, right);
    }
    if (i + 1 == n) return r;
    if (r.is_bool()) {
      if (!r.b()) return r;
    } else if (!is_true(I, r)) {
      return r;
    }
    left = std::move(right);
  }
  return Value::boolean(true);
}

Truth condition_truth(Interp& I, Frame& f, const Expr* test, const Value& v) {
  if (v.is_bool()) return v.b() ? kTrue : kFalse;
  Truth t = truth(I, v);
  if (t == kSymbolic && !I.control_flow_hook) {
    f.cur = test;
    fatal(I,
          fmt::format("the truth value of this condition depends on a symbolic '{}' and is not known at conversion time",
                      type_name(I, v)),
          "only Python values can decide a branch here");
  }
  return t;
}

static Value eval_boolop(Interp& I, Frame& f, const BoolOpExpr* e) {
  bool is_and = e->kind == EK::And;
  Value v;
  for (size_t i = 0; i < e->values.size(); ++i) {
    v = eval(I, f, e->values[i]);
    if (i + 1 == e->values.size()) break;
    f.cur = e->values[i];
    Truth t = condition_truth(I, f, e->values[i], v);
    if (t == kSymbolic) return I.control_flow_hook->on_boolop(I, f, *e, i, v);
    if (is_and ? t == kFalse : t == kTrue) return v;
  }
  return v;
}

// ---- displays ------------------------------------------------------------------------------------------

static void expand_into(Interp& I, Frame& f, const std::vector<Expr*>& elts, std::vector<Value>& out) {
  for (const Expr* x : elts) {
    if (x->kind == EK::Starred) {
      Value it = eval(I, f, static_cast<const StarredExpr*>(x)->value);
      Type* t = I.type_of(it);
      if (!t->slots.iter && !t->slots.getitem) {
        f.cur = x;
        raisef(I, I.exc.TypeError, "Value after * must be an iterable, not {}", t->name_view());
      }
      for_each(I, it, [&](Value& v) { out.push_back(std::move(v)); });
    } else {
      out.push_back(eval(I, f, x));
    }
  }
}

static Value eval_dict_display(Interp& I, Frame& f, const DictExpr* e) {
  Ref<Dict> d = new_dict_ref(I);
  for (size_t i = 0; i < e->values.size(); ++i) {
    if (!e->keys[i]) {
      Value m = eval(I, f, e->values[i]);
      f.cur = e->values[i];
      if (!is_dict(m) && !getattr_opt(I, m, I.names.keys))
        raisef(I, I.exc.TypeError, "'{}' object is not a mapping", type_name(I, m));
      dict_update(I, d.get(), m);
      continue;
    }
    Value k = eval(I, f, e->keys[i]);
    Value v = eval(I, f, e->values[i]);
    f.cur = e->keys[i];
    dict_set(I, d.get(), k, std::move(v));
  }
  return d.take_value();
}

// ---- comprehensions ------------------------------------------------------------------------------------

void setup_cells(Interp& I, Code* c, Value* fast, const std::vector<Ref<Cell>>* closure, Frame* outer);

template <class Emit>
static void comp_loop(Interp& I, Frame& fr, Code* c, size_t level, const Value& iterable, Emit& emit) {
  const CompGen& g = c->gens[level];
  for_each(I, iterable, [&](Value& item) {
    I.tick();
    assign(I, fr, g.target, item);
    for (const Expr* cond : g.ifs) {
      Value cv = eval(I, fr, cond);
      if (condition_truth(I, fr, cond, cv) != kTrue) return;
    }
    if (level + 1 < c->gens.size()) {
      Value next_iter = eval(I, fr, c->gens[level + 1].iter);
      comp_loop(I, fr, c, level + 1, next_iter, emit);
    } else {
      emit();
    }
  });
}

// A comprehension's own frame, over `slots`, seeing the enclosing scope's globals and cells.
static void comprehension_frame(Interp& I, Frame& outer, Code* c, Value* slots, Frame& fr) {
  fr.code = c;
  fr.fast = slots;
  fr.globals = outer.globals;
  fr.builtins = outer.builtins;
  fr.func = outer.func;
  setup_cells(I, c, fr.fast, nullptr, &outer);
}

// A list comprehension or generator expression the control-flow hook may run as a Loop (over a
// tensor's rows, a range or a zip whose length is only known at run time) is offered to it as its
// `for` statement form (Code::loop_form), in a frame of its own; the first iterable is evaluated
// then, in the enclosing scope, as usual. True when the hook ran it (*made: the list of its items);
// otherwise *first is the first iterable's value, evaluated once.
static bool comprehension_as_loop(Interp& I, Frame& outer, const CompExpr* ce, Value* first, Value* made) {
  Code* c = ce->code;
  SlotArray slots(c->nslots);
  Frame fr;
  comprehension_frame(I, outer, c, slots.data(), fr);
  fr.fast[c->acc_slot] = new_list(I, {});
  Exit x;
  if (!offer_for_to_hook(I, outer, ce->first_iter, fr, *c->loop_form, first, &x)) return false;
  *made = fr.fast[c->acc_slot];
  return true;
}

static Value eval_comprehension(Interp& I, Frame& outer, const CompExpr* ce) {
  check_native_stack(I);
  Code* c = ce->code;
  Value first;
  if (I.control_flow_hook && c->loop_form) {
    Value made;
    if (comprehension_as_loop(I, outer, ce, &first, &made)) return made;
  } else {
    first = eval(I, outer, ce->first_iter);
  }
  SlotArray slots(c->nslots);
  Frame fr;
  comprehension_frame(I, outer, c, slots.data(), fr);
  outer.cur = ce;
  if (!I.type_of(first)->slots.iter && !I.type_of(first)->slots.getitem)
    raisef(I, I.exc.TypeError, "'{}' object is not iterable", type_name(I, first));
  FrameScope scope(I, fr);
  try {
    if (ce->kind == EK::ListComp) {
      Ref<List> out = new_list_ref(I);
      auto emit = [&] { list_append(I, out.get(), eval(I, fr, c->elt)); };
      comp_loop(I, fr, c, 0, first, emit);
      return out.take_value();
    }
    if (ce->kind == EK::SetComp) {
      Value out = new_set(I);
      auto emit = [&] {
        Value v = eval(I, fr, c->elt);
        fr.cur = c->elt;
        set_add(I, as<Set>(out), v);
      };
      comp_loop(I, fr, c, 0, first, emit);
      return out;
    }
    Ref<Dict> out = new_dict_ref(I);
    auto emit = [&] {
      Value k = eval(I, fr, c->elt);
      Value v = eval(I, fr, c->value);
      fr.cur = c->elt;
      dict_set(I, out.get(), k, std::move(v));
    };
    comp_loop(I, fr, c, 0, first, emit);
    return out.take_value();
  } catch (PyException& e) {
    add_traceback(I, e.exc, fr);
    throw;
  }
}

// ---- f-strings -------------------------------------------------------------------------------------------

// Text built from an unknown value is unknown (a warning message naming a tensor): it matters only
// where the text does (printed, compared, used as a key).
static Value eval_formatted(Interp& I, Frame& f, const FormattedExpr* e) {
  Value v = eval(I, f, e->value);
  f.cur = e;
  if (is_poison(v)) return derive_poison(I, v, "f-string");
  if (e->conversion == 'r') v = repr(I, v);
  else if (e->conversion == 's') v = to_str(I, v);
  else if (e->conversion == 'a') v = I.str(ascii_of(I, v));
  std::string spec;
  if (e->spec) {
    Value s = eval(I, f, e->spec);
    spec = as_str(s)->s;
    f.cur = e;
  }
  if (spec.empty() && is_str(v) && v.obj()->type == I.t.str) return v;
  return I.str(format_value(I, v, spec));
}

static Value eval_joined(Interp& I, Frame& f, const JoinedStrExpr* e) {
  std::string out;
  for (const Expr* part : e->values) {
    Value v = eval(I, f, part);
    if (is_poison(v)) return v;
    out += as_str(v)->s;
  }
  return I.str(std::move(out));
}

// ---- eval ------------------------------------------------------------------------------------------------

Value eval(Interp& I, Frame& f, const Expr* e) {
  switch (e->kind) {
    case EK::Const: return static_cast<const ConstExpr*>(e)->value;
    case EK::Local: {
      const auto* n = static_cast<const NameExpr*>(e);
      const Value& v = f.fast[n->slot];
      if (v.is_null()) unbound_local(I, f, n);
      return v;
    }
    case EK::Cell: return load_cell(I, f, static_cast<const NameExpr*>(e));
    case EK::Global: return load_global(I, f, static_cast<const NameExpr*>(e));
    case EK::Name: return load_name(I, f, static_cast<const NameExpr*>(e));
    case EK::ClassDeref: {
      const auto* n = static_cast<const NameExpr*>(e);
      Value v = ns_lookup(I, f.ns, n->name);
      if (v) return v;
      return load_cell(I, f, n);
    }
    case EK::Attr: {
      const auto* a = static_cast<const AttrExpr*>(e);
      Value obj = eval(I, f, a->obj);
      f.cur = e;
      return load_attr(I, a, obj);
    }
    case EK::Subscript: {
      const auto* s = static_cast<const SubscriptExpr*>(e);
      Value obj = eval(I, f, s->obj);
      Value key = eval(I, f, s->index);
      f.cur = e;
      if (obj.is_obj()) {
        Type* t = obj.obj()->type;
        if (key.is_int()) {
          int64_t i = key.i();
          if (t == I.t.list) {
            List* l = as_list(obj);
            if (norm_index(i, l->size())) return l->items[i];
          } else if (t == I.t.tuple) {
            Tuple* tu = as_tuple(obj);
            if (norm_index(i, tu->size())) return tu->items[i];
          }
        }
        if (t == I.t.dict) {
          Value v = dict_get(I, as_dict(obj), key);
          if (v) return v;
          raise_key_error(I, key);
        }
      }
      return getitem(I, obj, key);
    }
    case EK::Slice: {
      const auto* s = static_cast<const SliceExpr*>(e);
      Value lo = s->lower ? eval(I, f, s->lower) : Value::none();
      Value hi = s->upper ? eval(I, f, s->upper) : Value::none();
      Value st = s->step ? eval(I, f, s->step) : Value::none();
      return new_slice(I, lo, hi, st);
    }
    case EK::Call: return eval_call(I, f, static_cast<const CallExpr*>(e));
    case EK::BinOp: return eval_binop(I, f, static_cast<const BinOpExpr*>(e));
    case EK::Unary: {
      const auto* u = static_cast<const UnaryExpr*>(e);
      Value v = eval(I, f, u->operand);
      UnaryOp op = static_cast<UnaryOp>(e->op);
      f.cur = e;
      if (op == UnaryOp::Not) {
        if (v.is_bool()) return Value::boolean(!v.b());
        return unary_op(I, op, v);  // a symbolic operand gives a symbolic result (__onnxify_not__)
      }
      if (v.is_int()) {
        if (op == UnaryOp::Neg && v.i() != INT64_MIN) return Value::integer(-v.i());
        if (op == UnaryOp::Invert) return Value::integer(~v.i());
        if (op == UnaryOp::Pos) return v;
      }
      if (v.is_float()) {
        if (op == UnaryOp::Neg) return Value::real(-v.f());
        if (op == UnaryOp::Pos) return v;
      }
      return unary_op(I, op, v);
    }
    case EK::And:
    case EK::Or: return eval_boolop(I, f, static_cast<const BoolOpExpr*>(e));
    case EK::Compare: return eval_compare(I, f, static_cast<const CompareExpr*>(e));
    case EK::IfExp: {
      const auto* x = static_cast<const IfExpExpr*>(e);
      Value cond = eval(I, f, x->test);
      Truth t = condition_truth(I, f, x->test, cond);
      if (t == kSymbolic) return I.control_flow_hook->on_ifexp(I, f, *x, cond);
      return eval(I, f, t == kTrue ? x->body : x->orelse);
    }
    case EK::Lambda: return make_function(I, f, static_cast<const LambdaExpr*>(e)->def);
    case EK::Tuple: {
      const auto* s = static_cast<const SeqExpr*>(e);
      std::vector<Value> items;
      items.reserve(s->elts.size());
      if (s->has_star) {
        expand_into(I, f, s->elts, items);
      } else {
        for (const Expr* x : s->elts) items.push_back(eval(I, f, x));
      }
      return new_tuple(I, std::move(items));
    }
    case EK::List: {
      const auto* s = static_cast<const SeqExpr*>(e);
      std::vector<Value> items;
      items.reserve(s->elts.size());
      if (s->has_star) {
        expand_into(I, f, s->elts, items);
      } else {
        for (const Expr* x : s->elts) items.push_back(eval(I, f, x));
      }
      return new_list(I, std::move(items));
    }
    case EK::Set: {
      const auto* s = static_cast<const SeqExpr*>(e);
      if (s->const_set) {
        Value out = new_set(I);
        set_update(I, as<Set>(out), s->const_set);
        return out;
      }
      std::vector<Value> items;
      expand_into(I, f, s->elts, items);
      Value out = new_set(I);
      f.cur = e;
      for (const Value& v : items) set_add(I, as<Set>(out), v);
      return out;
    }
    case EK::Dict: return eval_dict_display(I, f, static_cast<const DictExpr*>(e));
    case EK::ListComp:
    case EK::SetComp:
    case EK::DictComp: return eval_comprehension(I, f, static_cast<const CompExpr*>(e));
    case EK::GenExp: {
      const auto* ce = static_cast<const CompExpr*>(e);
      Value first;
      // Over a length only known at run time, a generator expression runs now, as the Loop of its
      // list comprehension form, and is the list of its items (`sum(t.sum() for t in x)`): laziness
      // cannot be recorded. Otherwise it is a lazy generator as usual.
      if (I.control_flow_hook && ce->code->loop_form) {
        Value made;
        if (comprehension_as_loop(I, f, ce, &first, &made)) return made;
      } else {
        first = eval(I, f, ce->first_iter);
      }
      f.cur = e;
      return make_genexpr(I, f, ce, first);
    }
    case EK::Yield: {
      const auto* y = static_cast<const YieldExpr*>(e);
      Value v = y->value ? eval(I, f, y->value) : Value::none();
      f.cur = e;
      return generator_yield(I, f, std::move(v));
    }
    case EK::YieldFrom: {
      const auto* y = static_cast<const YieldExpr*>(e);
      Value v = eval(I, f, y->value);
      f.cur = e;
      return generator_yield_from(I, f, v);
    }
    case EK::Await:
      f.cur = e;
      fatal(I, "'await' is not supported: onnxify does not run async code");
    case EK::JoinedStr: return eval_joined(I, f, static_cast<const JoinedStrExpr*>(e));
    case EK::Formatted: return eval_formatted(I, f, static_cast<const FormattedExpr*>(e));
    case EK::Starred:
      f.cur = e;
      raise(I, I.exc.SyntaxError, "can't use starred expression here");
    case EK::NamedExpr: {
      const auto* n = static_cast<const NamedExprExpr*>(e);
      Value v = eval(I, f, n->value);
      assign(I, f, n->target, v);
      return v;
    }
    case EK::BigInt:
      f.cur = e;
      int_overflow(I, "an int literal");
  }
  return Value::none();
}

// ---- assignment targets ----------------------------------------------------------------------------------

static void unpack(Interp& I, Frame& f, const SeqExpr* t, const Value& v) {
  size_t n = t->elts.size();
  int star = -1;
  for (size_t i = 0; i < n; ++i)
    if (t->elts[i]->kind == EK::Starred) star = static_cast<int>(i);
  std::vector<Value> items;
  if (v.is_obj() && (v.obj()->type == I.t.tuple || v.obj()->type == I.t.list)) {
    items = is_tuple(v) ? as_tuple(v)->items : as_list(v)->items;
  } else {
    Type* vt = I.type_of(v);
    if (!vt->slots.iter && !vt->slots.getitem) {
      f.cur = t;
      raisef(I, I.exc.TypeError, "cannot unpack non-iterable {} object", vt->name_view());
    }
    Value it = iter(I, v);
    for (;;) {
      Value x = next(I, it);
      if (x.is_null()) break;
      items.push_back(std::move(x));
      if (star < 0 && items.size() > n) break;
    }
  }
  f.cur = t;
  if (star < 0) {
    if (items.size() > n) raisef(I, I.exc.ValueError, "too many values to unpack (expected {})", n);
    if (items.size() < n)
      raisef(I, I.exc.ValueError, "not enough values to unpack (expected {}, got {})", n, items.size());
    for (size_t i = 0; i < n; ++i) assign(I, f, t->elts[i], items[i]);
    return;
  }
  size_t before = static_cast<size_t>(star), after = n - before - 1;
  if (items.size() < before + after)
    raisef(I, I.exc.ValueError, "not enough values to unpack (expected at least {}, got {})", before + after,
           items.size());
  for (size_t i = 0; i < before; ++i) assign(I, f, t->elts[i], items[i]);
  std::vector<Value> mid(items.begin() + before, items.end() - after);
  assign(I, f, static_cast<const StarredExpr*>(t->elts[star])->value, new_list(I, std::move(mid)));
  for (size_t i = 0; i < after; ++i) assign(I, f, t->elts[before + 1 + i], items[items.size() - after + i]);
}

void assign(Interp& I, Frame& f, const Expr* target, const Value& v) {
  switch (target->kind) {
    case EK::Local: f.fast[static_cast<const NameExpr*>(target)->slot] = v; return;
    case EK::Cell: {
      const auto* n = static_cast<const NameExpr*>(target);
      as<Cell>(f.fast[n->slot])->v = v;
      return;
    }
    case EK::Global: dict_set_str(I, f.globals, static_cast<const NameExpr*>(target)->name, v); return;
    case EK::Name:
    case EK::ClassDeref: store_name(I, f, static_cast<const NameExpr*>(target)->name, v); return;
    case EK::Attr: {
      const auto* a = static_cast<const AttrExpr*>(target);
      Value obj = eval(I, f, a->obj);
      f.cur = target;
      store_attr(I, f, a, obj, v);
      return;
    }
    case EK::Subscript: {
      const auto* s = static_cast<const SubscriptExpr*>(target);
      Value obj = eval(I, f, s->obj);
      Value key = eval(I, f, s->index);
      f.cur = target;
      if (obj.is_obj()) {
        Type* t = obj.obj()->type;
        if (t == I.t.dict) {
          dict_set(I, as_dict(obj), key, v);
          return;
        }
        if (t == I.t.list && key.is_int()) {
          int64_t i = key.i();
          List* l = as_list(obj);
          if (norm_index(i, l->size())) {
            l->items[i] = v;
            return;
          }
        }
      }
      setitem(I, obj, key, v);
      return;
    }
    case EK::Tuple:
    case EK::List: unpack(I, f, static_cast<const SeqExpr*>(target), v); return;
    case EK::Starred: assign(I, f, static_cast<const StarredExpr*>(target)->value, v); return;
    default:
      f.cur = target;
      raise(I, I.exc.SyntaxError, "cannot assign to expression");
  }
}

void delete_target(Interp& I, Frame& f, const Expr* target) {
  f.cur = target;
  switch (target->kind) {
    case EK::Local: {
      const auto* n = static_cast<const NameExpr*>(target);
      if (f.fast[n->slot].is_null()) unbound_local(I, f, n);
      f.fast[n->slot] = Value();
      return;
    }
    case EK::Cell: {
      const auto* n = static_cast<const NameExpr*>(target);
      Cell* c = as<Cell>(f.fast[n->slot]);
      if (!c->v) load_cell(I, f, n);
      c->v = Value();
      return;
    }
    case EK::Global: {
      const auto* n = static_cast<const NameExpr*>(target);
      if (!dict_del(I, f.globals, Value::borrow(n->name))) name_error(I, f, n, n->name);
      return;
    }
    case EK::Name:
    case EK::ClassDeref: {
      const auto* n = static_cast<const NameExpr*>(target);
      if (f.ns.obj()->type == I.t.dict) {
        if (!dict_del(I, as_dict(f.ns), Value::borrow(n->name))) name_error(I, f, n, n->name);
      } else {
        try {
          delitem(I, f.ns, Value::borrow(n->name));
        } catch (PyException& e) {
          if (!isinstance(I, e.exc, I.exc.KeyError)) throw;
          name_error(I, f, n, n->name);
        }
      }
      return;
    }
    case EK::Attr: {
      const auto* a = static_cast<const AttrExpr*>(target);
      Value obj = eval(I, f, a->obj);
      f.cur = target;
      delattr(I, obj, a->name);
      return;
    }
    case EK::Subscript: {
      const auto* s = static_cast<const SubscriptExpr*>(target);
      Value obj = eval(I, f, s->obj);
      Value key = eval(I, f, s->index);
      f.cur = target;
      delitem(I, obj, key);
      return;
    }
    case EK::Tuple:
    case EK::List:
      for (const Expr* x : static_cast<const SeqExpr*>(target)->elts) delete_target(I, f, x);
      return;
    default: raise(I, I.exc.SyntaxError, "cannot delete expression");
  }
}

// ---- variables, for the control-flow hook ----------------------------------------------------------------

Value read_var(Interp& I, Frame& f, const VarRef& v) {
  switch (v.kind) {
    case VarRef::Fast: return f.fast[v.slot];
    case VarRef::CellVar: return f.fast[v.slot].is_obj() ? as<Cell>(f.fast[v.slot])->v : Value();
    case VarRef::Namespace: return ns_lookup(I, f.ns, v.name);
    case VarRef::Global: return dict_get_str(f.globals, v.name);
  }
  return Value();
}

void write_var(Interp& I, Frame& f, const VarRef& v, const Value& val) {
  switch (v.kind) {
    case VarRef::Fast: f.fast[v.slot] = val; return;
    case VarRef::CellVar: as<Cell>(f.fast[v.slot])->v = val; return;
    case VarRef::Namespace:
      if (val)
        store_name(I, f, v.name, val);
      else if (f.ns.obj()->type == I.t.dict)
        dict_del(I, as_dict(f.ns), Value::borrow(v.name));
      return;
    case VarRef::Global:
      if (val)
        dict_set_str(I, f.globals, v.name, val);
      else
        dict_del(I, f.globals, Value::borrow(v.name));
      return;
  }
}

VarSnapshot snapshot_vars(Interp& I, Frame& f, const std::vector<VarRef>& vars) {
  VarSnapshot s;
  for (const VarRef& v : vars) s.values.push_back(read_var(I, f, v));
  return s;
}

void restore_vars(Interp& I, Frame& f, const std::vector<VarRef>& vars, const VarSnapshot& s) {
  for (size_t i = 0; i < vars.size(); ++i) write_var(I, f, vars[i], s.values[i]);
}

}  // namespace onnxify::eval
