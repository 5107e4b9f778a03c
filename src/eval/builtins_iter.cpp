// Iteration builtins: enumerate, zip, map, filter, reversed (types, as in CPython), and the
// reductions over iterables: sorted, min, max, sum, any, all, iter, next.
#include <algorithm>
#include <cmath>

#include "eval/generator.h"
#include "eval/internal.h"

namespace onnxify::eval {

void sort_values(Interp& I, std::vector<Value>& items, const Value& key, bool reverse);
Value new_callable_iterator(Interp& I, const Value& fn, const Value& sentinel);

static Value iter_self(Interp& I, const Value& self) { return self; }

// ---- enumerate --------------------------------------------------------------------------------------

struct EnumerateObj : Object {
  Value it;
  int64_t n = 0;
  Value last;  // the tuple given last (iter_tuple)
};
static Value enumerate_alloc(Interp& I, Type* cls) { return I.make<EnumerateObj>(cls).take_value(); }
static Value enumerate_new(Interp& I, Type* cls, const Args& a) {
  static const Signature sig("enumerate", "iterable, start=0");
  Value v[2];
  sig.bind(I, a, v);
  Value o = alloc_instance(I, cls);
  as<EnumerateObj>(o)->it = iter(I, v[0]);
  as<EnumerateObj>(o)->n = v[1] ? index(I, v[1]) : 0;
  return o;
}
static Value enumerate_next(Interp& I, const Value& self) {
  auto* e = as<EnumerateObj>(self);
  if (!e->it) return Value();
  Value x = next(I, e->it);
  if (!x) return Value();
  return iter_tuple(I, e->last, Value::integer(e->n++), std::move(x));
}

// ---- zip ----------------------------------------------------------------------------------------------

struct ZipObj : Object {
  std::vector<Value> its;
  bool strict = false;
  bool done = false;
  Value last;  // the tuple given last (iter_tuple)
};
static Value zip_alloc(Interp& I, Type* cls) { return I.make<ZipObj>(cls).take_value(); }
static Value zip_new(Interp& I, Type* cls, const Args& a) {
  Value o = alloc_instance(I, cls);
  auto* z = as<ZipObj>(o);
  for (uint32_t k = 0; k < a.nkw; ++k) {
    if (a.kwnames[k]->s != "strict") raisef(I, I.exc.TypeError, "zip() got an unexpected keyword argument '{}'", a.kwnames[k]->s);
    z->strict = is_true(I, a.kwvals[k]);
  }
  // An argument whose length is only known when the exported model runs (a tensor's symbolic
  // batch) zipped with ones of known length: zip stops at the shortest, so it is read by index up to
  // the shortest known length, assumed no longer than the run-time one (where it is, the exported
  // model indexes out of range: an error when it runs, never a silently shorter result).
  std::vector<Value> args(a.pos, a.pos + a.npos);
  std::vector<uint32_t> run_time;
  for (uint32_t k = 0; k < a.npos && !z->strict && I.symbolic.len; ++k)
    if (Value n = I.symbolic.len(I, args[k]); n && !n.is_int()) run_time.push_back(k);
  if (!run_time.empty()) {
    int64_t shortest = -1;
    for (uint32_t k = 0; k < a.npos; ++k) {
      // Sized iterables (lists, tuples, ranges, nn.ModuleList, ...): their len() is what zip reaches.
      if (std::find(run_time.begin(), run_time.end(), k) != run_time.end() || !I.type_of(args[k])->slots.len) continue;
      int64_t n = len(I, args[k]);
      shortest = shortest < 0 ? n : std::min(shortest, n);
    }
    for (uint32_t k : run_time) {
      if (shortest < 0) break;
      if (I.symbolic.assume_at_least)
        I.symbolic.assume_at_least(I, I.symbolic.len(I, args[k]), shortest,
                                   "zip() of an iterable of run-time length with ones of known length");
      std::vector<Value> items;
      for (int64_t i = 0; i < shortest; ++i) items.push_back(getitem(I, args[k], Value::integer(i)));
      args[k] = new_list(I, std::move(items));
    }
  }
  for (const Value& v : args) z->its.push_back(iter(I, v));
  return o;
}
static Value zip_next(Interp& I, const Value& self) {
  auto* z = as<ZipObj>(self);
  if (z->done || z->its.empty()) return Value();
  std::vector<Value> items;
  items.reserve(z->its.size());
  for (size_t k = 0; k < z->its.size(); ++k) {
    Value x = next(I, z->its[k]);
    if (!x) {
      z->done = true;
      if (z->strict) {
        if (k > 0)
          raisef(I, I.exc.ValueError, "zip() argument {} is shorter than argument{} {}", k + 1, k == 1 ? "" : "s",
                 k == 1 ? "1" : fmt::format("1-{}", k));
        for (size_t j = 1; j < z->its.size(); ++j) {
          Value y = next(I, z->its[j]);
          if (y)
            raisef(I, I.exc.ValueError, "zip() argument {} is longer than argument{} {}", j + 1, j == 1 ? "" : "s",
                   j == 1 ? "1" : fmt::format("1-{}", j));
        }
      }
      return Value();
    }
    items.push_back(std::move(x));
  }
  return iter_tuple(I, z->last, std::move(items));
}

// ---- map / filter -------------------------------------------------------------------------------------

struct MapObj : Object {
  Value fn;
  std::vector<Value> its;
};
static Value map_alloc(Interp& I, Type* cls) { return I.make<MapObj>(cls).take_value(); }
static Value map_new(Interp& I, Type* cls, const Args& a) {
  if (a.nkw) raise(I, I.exc.TypeError, "map() takes no keyword arguments");
  if (a.npos < 2) raise(I, I.exc.TypeError, "map() must have at least two arguments.");
  Value o = alloc_instance(I, cls);
  auto* m = as<MapObj>(o);
  m->fn = a[0];
  for (uint32_t k = 1; k < a.npos; ++k) m->its.push_back(iter(I, a[k]));
  return o;
}
static Value map_next(Interp& I, const Value& self) {
  auto* m = as<MapObj>(self);
  std::vector<Value> args;
  for (auto& it : m->its) {
    Value x = next(I, it);
    if (!x) return Value();
    args.push_back(std::move(x));
  }
  return call(I, m->fn, Args(args));
}

struct FilterObj : Object {
  Value fn;
  Value it;
};
static Value filter_alloc(Interp& I, Type* cls) { return I.make<FilterObj>(cls).take_value(); }
static Value filter_new(Interp& I, Type* cls, const Args& a) {
  if (a.nkw) raise(I, I.exc.TypeError, "filter() takes no keyword arguments");
  check_nargs(I, a, "filter", 2, 2);
  Value o = alloc_instance(I, cls);
  as<FilterObj>(o)->fn = a[0];
  as<FilterObj>(o)->it = iter(I, a[1]);
  return o;
}
static Value filter_next(Interp& I, const Value& self) {
  auto* fo = as<FilterObj>(self);
  for (;;) {
    Value x = next(I, fo->it);
    if (!x) return Value();
    bool keep = fo->fn.is_none() ? is_true(I, x) : is_true(I, call(I, fo->fn, x));
    if (keep) return x;
  }
}

// ---- reversed ------------------------------------------------------------------------------------------

struct ReversedObj : Object {
  Value seq;
  int64_t i = -1;
};
static Value reversed_alloc(Interp& I, Type* cls) { return I.make<ReversedObj>(cls).take_value(); }
static Value reversed_new(Interp& I, Type* cls, const Args& a) {
  if (a.nkw) raise(I, I.exc.TypeError, "reversed() takes no keyword arguments");
  check_nargs(I, a, "reversed", 1, 1);
  Value r = call_special(I, a[0], I.names.__reversed__, Args());
  if (r) return r;
  Type* t = I.type_of(a[0]);
  if (!t->slots.getitem || !t->slots.len || t->layout == Layout::Dict)
    raisef(I, I.exc.TypeError, "'{}' object is not reversible", t->name_view());
  Value o = alloc_instance(I, cls);
  as<ReversedObj>(o)->seq = a[0];
  as<ReversedObj>(o)->i = len(I, a[0]) - 1;
  return o;
}
static Value reversed_next(Interp& I, const Value& self) {
  auto* r = as<ReversedObj>(self);
  if (!r->seq || r->i < 0) {
    r->seq = Value();
    return Value();
  }
  return getitem(I, r->seq, Value::integer(r->i--));
}

// ---- functions ----------------------------------------------------------------------------------------

Value b_iter(Interp& I, const Value&, const Args& a) {
  check_nargs(I, a, "iter", 1, 2);
  if (a.npos == 2) {
    if (!callable(I, a[0])) raise(I, I.exc.TypeError, "iter(v, w): v must be callable");
    return new_callable_iterator(I, a[0], a[1]);
  }
  return iter(I, a[0]);
}

Value b_next(Interp& I, const Value&, const Args& a) {
  check_nargs(I, a, "next", 1, 2);
  Type* t = I.type_of(a[0]);
  if (!t->slots.next) raisef(I, I.exc.TypeError, "'{}' object is not an iterator", t->name_view());
  Value v = t->slots.next(I, a[0]);
  if (v) return v;
  if (a.npos == 2) return a[1];
  if (has_layout(a[0], Layout::Generator)) {
    auto* g = as<Generator>(a[0]);
    Value rv = g->retval;
    g->retval = Value();
    if (rv && !rv.is_none()) throw PyException{make_exception_args(I, I.exc.StopIteration, {rv})};
  }
  throw PyException{make_exception_args(I, I.exc.StopIteration, {})};
}

Value b_sorted(Interp& I, const Value&, const Args& a) {
  if (a.npos != 1) raisef(I, I.exc.TypeError, "sorted expected 1 argument, got {}", a.npos);
  static const Signature sig("sorted", "iterable, /, *, key=None, reverse=False");
  Value v[3];
  sig.bind(I, a, v);
  std::vector<Value> items = to_vector(I, v[0]);
  Ref<List> out = new_list_ref(I);
  sort_values(I, items, v[1], v[2] && is_true(I, v[2]));
  out->items = std::move(items);
  list_track(I, out.get(), 0);
  return out.take_value();
}

static Value min_max(Interp& I, const Args& a, bool is_max) {
  const char* name = is_max ? "max" : "min";
  Value key, dflt;
  bool has_default = false;
  for (uint32_t k = 0; k < a.nkw; ++k) {
    const std::string& n = a.kwnames[k]->s;
    if (n == "key") key = a.kwvals[k];
    else if (n == "default") {
      dflt = a.kwvals[k];
      has_default = true;
    } else {
      raisef(I, I.exc.TypeError, "{}() got an unexpected keyword argument '{}'", name, n);
    }
  }
  if (a.npos == 0) raisef(I, I.exc.TypeError, "{} expected at least 1 argument, got 0", name);
  if (a.npos > 1 && has_default)
    raisef(I, I.exc.TypeError, "Cannot specify a default for {}() with multiple positional arguments", name);
  if (key && key.is_none()) key = Value();
  if (a.npos == 1 && !key && I.symbolic.reduce)
    if (Value r = I.symbolic.reduce(I, name, a[0], Value())) return r;
  Value best, best_key;
  auto consider = [&](const Value& x) {
    Value k = key ? call(I, key, x) : x;
    if (!best) {
      best = x;
      best_key = k;
      return;
    }
    if (!key && I.symbolic.min_max)
      if (Value r = I.symbolic.min_max(I, best, x, is_max)) {
        best = best_key = r;
        return;
      }
    bool better = is_max ? is_true(I, rich_compare(I, CmpOp::Gt, k, best_key)) : is_true(I, rich_compare(I, CmpOp::Lt, k, best_key));
    if (better) {
      best = x;
      best_key = k;
    }
  };
  if (a.npos == 1) {
    for_each(I, a[0], consider);
  } else {
    for (uint32_t k = 0; k < a.npos; ++k) consider(a[k]);
  }
  if (!best) {
    if (has_default) return dflt;
    raisef(I, I.exc.ValueError, "{}() arg is an empty sequence", name);
  }
  return best;
}
Value b_min(Interp& I, const Value&, const Args& a) { return min_max(I, a, false); }
Value b_max(Interp& I, const Value&, const Args& a) { return min_max(I, a, true); }

Value b_sum(Interp& I, const Value&, const Args& a) {
  static const Signature sig("sum", "iterable, /, start=0");
  Value v[2];
  sig.bind(I, a, v);
  Value acc = v[1] ? v[1] : Value::integer(0);
  if (is_str(acc)) raise(I, I.exc.TypeError, "sum() can't sum strings [use ''.join(seq) instead]");
  if (has_layout(acc, Layout::Bytes)) raise(I, I.exc.TypeError, "sum() can't sum bytes [use b''.join(seq) instead]");
  if (I.symbolic.reduce)
    if (Value r = I.symbolic.reduce(I, "sum", v[0], acc)) return r;
  for_each(I, v[0], [&](const Value& x) {
    if (acc.is_int() && x.is_int()) {
      int64_t r;
      if (!__builtin_add_overflow(acc.i(), x.i(), &r)) {
        acc = Value::integer(r);
        return;
      }
    }
    if (acc.is_float() && x.is_float()) {
      acc = Value::real(acc.f() + x.f());
      return;
    }
    acc = binary_op(I, BinOp::Add, acc, x);
  });
  return acc;
}

Value b_any(Interp& I, const Value&, const Args& a) {
  check_nargs(I, a, "any", 1, 1);
  if (I.symbolic.reduce)
    if (Value r = I.symbolic.reduce(I, "any", a[0], Value())) return r;
  bool r = false;
  for_each(I, a[0], [&](const Value& x) {
    if (is_true(I, x)) {
      r = true;
      return false;
    }
    return true;
  });
  return Value::boolean(r);
}

Value b_all(Interp& I, const Value&, const Args& a) {
  check_nargs(I, a, "all", 1, 1);
  if (I.symbolic.reduce)
    if (Value r = I.symbolic.reduce(I, "all", a[0], Value())) return r;
  bool r = true;
  for_each(I, a[0], [&](const Value& x) {
    if (!is_true(I, x)) {
      r = false;
      return false;
    }
    return true;
  });
  return Value::boolean(r);
}

void init_iter_builtin_types(Interp& I, Dict* b) {
  auto def = [&](Type* t, const char* name, AllocFn alloc, NewFn nw, NextFn nx) {
    TypeSpec s;
    s.name = name;
    s.alloc = alloc;
    s.slots.new_ = nw;
    s.slots.iter = &iter_self;
    s.slots.next = nx;
    init_native_type(I, t, s);
    dict_set(I, b, name, Value::borrow(t));
  };
  def(I.t.enumerate, "enumerate", &enumerate_alloc, &enumerate_new, &enumerate_next);
  def(I.t.zip, "zip", &zip_alloc, &zip_new, &zip_next);
  def(I.t.map, "map", &map_alloc, &map_new, &map_next);
  def(I.t.filter, "filter", &filter_alloc, &filter_new, &filter_next);
  def(I.t.reversed, "reversed", &reversed_alloc, &reversed_new, &reversed_next);
}

}  // namespace onnxify::eval
