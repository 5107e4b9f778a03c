// `while` over a tensor condition and `for i in range(n)` with a bound only known at run time ->
// ONNX Loop (see control_flow.h): loop-carried variables, break/continue under tensor conditions,
// `outs.append(t)` as scan outputs read by torch.stack / torch.cat.
#include <fmt/core.h>

#include <algorithm>
#include <functional>
#include <map>
#include <set>

#include "torch/control_flow.h"
#include "torch/control_flow_state.h"
#include "torch/ops.h"

namespace onnxify::torch {

using eval::Exit;
using eval::Frame;
using eval::Interp;
using eval::Value;

namespace {

// A tensor that is None on some runs (TensorObj::present) among a Loop's carried values: its flag
// would have to be carried too, which is not done.
Diagnostic none_on_some_runs(const std::string& name, const SourceRange& where) {
  return Diagnostic::error(fmt::format("'{}' is None on some runs (None in one branch of a tensor-dependent "
                                       "condition, a tensor in the other) and changes in this loop, which is "
                                       "not supported by onnxify",
                                       name),
                           where)
      .with_help("make it a tensor on every path before the loop (zeros, with a flag tensor saying which)");
}

// The outputs a Loop stacked from `outs.append(t)`: torch.stack / torch.cat read them.
struct ScanObj : eval::Object {
  Value stacked;  // a tensor [iterations, ...item shape]
};

Value scan_alloc(Interp& I, eval::Type* cls) { return I.make<ScanObj>(cls).take_value(); }

eval::Type* scan_type(Torch& T) {
  if (!T.scan_type) {
    eval::TypeSpec s;
    s.name = "LoopScanOutput";
    s.module = "torch";
    s.flags = 0;
    s.alloc = &scan_alloc;
    T.scan_type = eval::new_native_type(T.I, s);
  }
  return T.scan_type;
}

// A list a Loop appended to: its length is only known at run time. len() gives it as a run-time
// size (Interp::symbolic.len, scan_list_len); the evaluator's own uses of a length (unpacking) are
// an error rather than a wrong number (its items are the tensors from before the loop, then one
// LoopScanOutput).
int64_t scan_len_slot(Interp& I, const Value&) {
  need_concrete(torch_state(), "the length of a list appended to in a loop recorded as ONNX Loop",
                "len() (torch.stack/torch.cat read such a list)");
}
// Iterating it item by item (unpacking, tuple(), reversed()) needs that length too; `for`,
// comprehensions, list(), sum/min/max/any/all read it as its items stacked (control_flow_rows.cpp).
Value scan_iter_slot(Interp& I, const Value&) {
  need_concrete(torch_state(), "the length of this list (one item per row of a size only known at run time: "
                "x.unbind(0), list(x), a loop recorded as ONNX Loop)",
                "iterating over it item by item (a `for` statement, a comprehension, list(), sum(), "
                "torch.stack and torch.cat read it)");
}

// While the body of a Loop is recorded, a list it appends to (its future scan output) cannot be
// read as a Python list: the recording sees its items before the loop, each iteration would see
// more. Reading it makes it an ONNX sequence (control_flow_sequence.cpp): the Loop records again.
[[noreturn]] void guarded_read(Interp&, const Value& self) { throw cf::NeedSequence{self.obj()}; }
Value guarded_getitem(Interp& I, const Value& self, const Value&) { guarded_read(I, self); }
Value guarded_iter(Interp& I, const Value& self) { guarded_read(I, self); }
int64_t guarded_len(Interp& I, const Value& self) { guarded_read(I, self); }

// The other lists reachable from the frame, while a Loop body is recorded: an index only known at
// run time (the loop counter, `i - 1`) makes the list an ONNX sequence too; other reads are as usual.
// (A list of numbers only read there gives the item at run time instead: I.symbolic.item_at.)
Value watched_getitem(Interp& I, const Value& self, const Value& key) {
  if (is_symint(key) || (is_tensor(key) && !is_floating(as_tensor(key)->dtype) &&
                         runtime_scalar(torch_state(), as_tensor(key)))) {
    if (Value v = I.symbolic.item_at(I, eval::as_list(self)->items, key)) return v;
    throw cf::NeedSequence{self.obj()};
  }
  return I.t.list->slots.getitem(I, self, key);
}
enum ListKind { kScan = 0, kGuarded = 1, kWatched = 2 };

Value scan_getitem(Interp& I, const Value& self, const Value& key);
Value scan_reverse(Interp& I, const Value& self, const eval::Args& a);

eval::Type* list_subtype(Torch& T, int kind) {
  static thread_local eval::Type* types[3] = {nullptr, nullptr, nullptr};
  static thread_local Torch* owner = nullptr;
  if (owner != &T) types[0] = types[1] = types[2] = nullptr, owner = &T;
  const bool guarded = kind == kGuarded;
  eval::Type*& t = types[kind];
  if (!t) {
    eval::TypeSpec s;
    s.name = "list";
    s.module = "builtins";
    s.base = T.I.t.list;
    s.layout = eval::Layout::List;
    s.flags = 0;
    if (kind == kWatched) {
      s.slots.getitem = &watched_getitem;
    } else if (guarded) {
      s.slots.getitem = &guarded_getitem;
      s.slots.iter = &guarded_iter;
      s.slots.len = &guarded_len;
    } else {
      s.slots.len = &scan_len_slot;
      s.slots.iter = &scan_iter_slot;
      s.slots.getitem = &scan_getitem;
      s.methods = {{"reverse", &scan_reverse}};
    }
    t = eval::new_native_type(T.I, s);
    eval::incref(reinterpret_cast<eval::Object*>(t));  // kept for the interpreter's life
  }
  return t;
}

// Makes `o` an instance of `type` (same layout); returns its previous type.
eval::Type* swap_type(eval::Object* o, eval::Type* type) {
  eval::Type* old = o->type;
  eval::incref(reinterpret_cast<eval::Object*>(type));
  o->type = type;
  eval::decref(reinterpret_cast<eval::Object*>(old));
  return old;
}

void mark_scan_list(Torch& T, const Value& list) {
  eval::Type* t = list_subtype(T, kScan);
  if (list.obj()->type != t) swap_type(list.obj(), t);
}

bool is_scan(const Value& v) {
  Torch* T = torch_state_opt();
  return T && T->scan_type && v.is_obj() && v.obj()->type == T->scan_type;
}

TensorObj* stacked_of(const Value& scan) { return as_tensor(static_cast<ScanObj*>(scan.obj())->stacked); }

// A list built in a Loop read as a Python list. Its length is only known at run time, so an item
// is read from all of them stacked ([len, ...item]: the tensors before and after the Loop's
// stacked outputs, in order), by Gather with the (possibly negative) index. Eager raises
// IndexError for an index out of range; ONNX Runtime reports the Gather's.
Value scan_getitem(Interp& I, const Value& self, const Value& key) {
  Torch& T = torch_state();
  // The index: an int, a size, or a zero-dim integer tensor (an enclosing Loop's counter, `i` of
  // `for i, h in enumerate(rows)`). Gather takes a negative one from the end, as Python does.
  int64_t k = 0;
  ir::Value* index = eval::int_value(key, &k) ? T.rec.const_i64_scalar(k) : index_value(T, key);
  if (!index) {
    throw Diagnostic::error(fmt::format("indexing a list built in a loop recorded as ONNX Loop by {} is not supported "
                                        "(its length is only known at run time)",
                                        eval::type_name(I, key)),
                            T.rec.location())
        .with_help("index it by an int or an integer (`outs[0]`, `outs[i - 1]`), or torch.stack/torch.cat it first");
  }
  Value all = scan_cat_stack(T, true, self, Value::integer(0));
  if (!is_tensor(all)) return all;  // poison: reported
  TensorObj* a = as_tensor(all);
  std::vector<ir::DimExpr> item(a->shape.begin() + 1, a->shape.end());
  ir::Value* v = T.rec.emit("Gather", {value_of(T, a), index}, ir::Type::tensor(elem(a->dtype), item),
                            {{"axis", int64_t{0}}});
  return new_tensor(T, v, a->dtype, item);
}

// outs.reverse(): the items in reverse order, each Loop's stacked outputs flipped.
Value scan_reverse(Interp& I, const Value& self, const eval::Args& a) {
  if (a.npos || a.nkw) eval::raise(I, I.exc.TypeError, "reverse() takes no arguments");
  Torch& T = torch_state();
  std::vector<Value>& items = eval::as_list(self)->items;
  std::reverse(items.begin(), items.end());
  for (Value& x : items) {
    if (!is_scan(x)) continue;
    auto flipped = I.make<ScanObj>(scan_type(T));
    flipped->stacked = call_op(T, "flip", {static_cast<ScanObj*>(x.obj())->stacked, eval::new_list(I, {Value::integer(0)})});
    x = flipped.take_value();
  }
  return Value::none();
}

}  // namespace

void append_rows(Torch& T, const Value& list, const Value& stacked) {
  auto obj = T.I.make<ScanObj>(scan_type(T));
  obj->stacked = stacked;
  eval::as_list(list)->items.push_back(obj.take_value());
  mark_scan_list(T, list);
}

Value stacked_items(Torch& T, const Value& list) {
  if (!eval::is_list(list) || cf::is_seq_list(list) || !holds_scan_output(list)) return Value();
  for (const Value& x : eval::as_list(list)->items)
    if (!is_scan(x) && !is_tensor(x))
      throw Diagnostic::error(fmt::format("this list's length is only known at run time (it holds the rows of a "
                                          "size only known then), and it also holds a {}: its items can only be "
                                          "read as one tensor of them stacked",
                                          eval::type_name(T.I, x)),
                              T.rec.location())
          .with_help("keep only tensors of one shape in such a list");
  return scan_cat_stack(T, true, list, Value::integer(0));
}

Value scan_list_len(Torch& T, const Value& v) {
  if (!eval::is_list(v) || !holds_scan_output(v)) return Value();
  ir::DimExpr n(int64_t{0});
  for (const Value& x : eval::as_list(v)->items) n = n + (is_scan(x) ? stacked_of(x)->shape[0] : ir::DimExpr(1));
  return make_size_value(T, n);
}

bool holds_scan_output(const Value& v) {
  if (is_scan(v) || cf::is_seq_list(v)) return true;
  if (eval::is_list(v) || eval::is_tuple(v)) {
    const auto& items = eval::is_list(v) ? eval::as_list(v)->items : eval::as_tuple(v)->items;
    for (const Value& x : items)
      if (is_scan(x)) return true;
  }
  return false;
}

// cat/stack of a list whose items are tensors and Loops' stacked outputs, in any order (`[t0, *scan]`,
// `x1 + x2` of two lists built in Loops, a reversed one): each part is joined along `dim` as the
// items it stands for would be (a tensor as itself, unsqueezed for stack; a Loop's outputs moved
// from dim 0 to `dim`, merged with it for cat), then the parts are concatenated.
Value scan_cat_stack(Torch& T, bool stack, const Value& tensors, const Value& dim) {
  Interp& I = T.I;
  if (!holds_scan_output(tensors)) return Value();
  if (cf::is_seq_list(tensors)) return cf::seq_cat_stack(T, stack, tensors, dim);
  const auto& items = eval::is_list(tensors) ? eval::as_list(tensors)->items : eval::as_tuple(tensors)->items;
  const char* op = stack ? "torch.stack" : "torch.cat";
  int64_t rank = -1;  // of one item
  for (const Value& x : items) {
    if (is_scan(x)) rank = static_cast<int64_t>(stacked_of(x)->rank()) - 1;
    else if (!is_tensor(x))
      return unsupported(T, op, fmt::format("the list built in a loop recorded as ONNX Loop also holds a {}",
                                            eval::type_name(I, x)));
  }
  int64_t d = dim.is_null() || dim.is_none() ? 0 : dim.i();
  d = norm_dim(I, d, stack ? rank + 1 : rank);
  std::vector<Value> parts;
  for (const Value& x : items) {
    if (!is_scan(x)) {
      parts.push_back(stack ? call_op(T, "unsqueeze", {x, Value::integer(d)}) : x);
      continue;
    }
    TensorObj* s = stacked_of(x);
    std::vector<int64_t> perm;
    std::vector<ir::DimExpr> moved;
    for (int64_t k = 1; k <= d; ++k) perm.push_back(k), moved.push_back(s->shape[k]);
    perm.push_back(0);
    moved.push_back(s->shape[0]);
    for (int64_t k = d + 1; k <= rank; ++k) perm.push_back(k), moved.push_back(s->shape[k]);
    ir::Value* v = value_of(T, s);
    if (d != 0) v = T.rec.emit("Transpose", {v}, ir::Type::tensor(elem(s->dtype), moved), {{"perm", perm}});
    if (stack) {
      parts.push_back(new_tensor(T, v, s->dtype, moved));
      continue;
    }
    std::vector<ir::DimExpr> shape;
    for (int64_t k = 0; k <= rank; ++k) {
      if (k == d) {
        shape.push_back(moved[k] * moved[k + 1]);
        ++k;
      } else {
        shape.push_back(moved[k]);
      }
    }
    v = reshape_value(T, v, shape, elem(s->dtype));
    parts.push_back(new_tensor(T, v, s->dtype, shape));
  }
  if (parts.size() == 1) return parts[0];
  return call_op(T, "cat", {eval::new_list(I, parts), Value::integer(d)});
}

ir::Value* sequence_output(Torch& T, const Value& list) {
  if (cf::is_seq_list(list)) return cf::seq_of(list)->value;
  const auto& items = eval::as_list(list)->items;
  size_t scans = 0;
  for (const Value& x : items) scans += is_scan(x);
  if (items.empty() || !is_scan(items.back()) || scans > 1) {
    // Items after a Loop's outputs (appended later, a reversed list): all of them stacked, then split.
    Value all = scan_cat_stack(T, true, list, Value::integer(0));
    if (!is_tensor(all))
      throw Diagnostic::error("forward returns a list built in a loop recorded as ONNX Loop that also holds values "
                              "other than tensors",
                              T.rec.location());
    TensorObj* a = as_tensor(all);
    std::vector<ir::DimExpr> item(a->shape.begin() + 1, a->shape.end());
    return T.rec.emit("SplitToSequence", {value_of(T, a)}, cf::seq_type(a->dtype, item),
                      {{"axis", int64_t{0}}, {"keepdims", int64_t{0}}});
  }
  TensorObj* s = as_tensor(static_cast<ScanObj*>(items.back().obj())->stacked);
  std::vector<ir::DimExpr> item(s->shape.begin() + 1, s->shape.end());
  for (size_t k = 0; k + 1 < items.size(); ++k) {
    if (!is_tensor(items[k]) || as_tensor(items[k])->dtype != s->dtype || as_tensor(items[k])->rank() != item.size())
      throw Diagnostic::error("forward returns a list built in a loop recorded as ONNX Loop whose items before the "
                              "loop are not tensors of the dtype and rank of those it appended; an ONNX sequence's "
                              "items share them",
                              T.rec.location());
    for (size_t a = 0; a < item.size(); ++a)
      if (item[a] != as_tensor(items[k])->shape[a]) item[a] = ir::DimExpr::unknown();
  }
  ir::Value* seq = T.rec.emit("SplitToSequence", {value_of(T, s)}, cf::seq_type(s->dtype, item),
                              {{"axis", int64_t{0}}, {"keepdims", int64_t{0}}});
  for (size_t k = items.size() - 1; k-- > 0;)  // the items from before the loop go first
    seq = T.rec.emit("SequenceInsert", {seq, value_of(T, as_tensor(items[k])), T.rec.const_i64_scalar(0)},
                     cf::seq_type(s->dtype, item));
  return seq;
}

namespace cf {

struct Hook::LoopSpec {
  const eval::Block* body = nullptr;
  const eval::Block* orelse = nullptr;
  const eval::BlockSummary* summary = nullptr;
  const eval::Expr* test = nullptr;    // while: re-evaluated at the end of each iteration
  const eval::Expr* target = nullptr;  // for: bound to start + i * step
  const eval::Stmt* stmt = nullptr;    // the while / for statement (a pending return is settled after it)
  ir::Value* trip = nullptr;           // for: the trip count
  ir::Value* cond = nullptr;           // the condition before the first iteration
  ir::Value* start = nullptr;
  int64_t step = 1;
  // for over a tensor: the target is rows[i]; over zip(...) of tensors: (rows[0][i], rows[1][i], ...);
  // over enumerate(t): (i + enum_start, rows[0][i])
  std::vector<TensorObj*> rows;
  std::vector<ir::Value*> rows_value;
  bool tuple_target = false;
  bool zipped = false;  // the rows' items form a tuple of their own (zip), after the counter if any
  bool enumerate = false;
  int64_t enum_start = 0;
  Value start_py;                      // for over a range: the start as a Python int or SymInt
  int64_t first = 0;                   // for over a tensor: the Loop's iteration i reads rows[first + i]
  bool peeled = false;                 // the first iteration was recorded before the Loop (peel_first)
};

namespace {

// Why the first iteration of this loop cannot be recorded before it (null: it can).
const char* peel_refusal(const Hook::LoopSpec& spec) {
  return spec.peeled                  ? "its first iteration is already peeled"
         : !spec.trip || spec.test    ? "it is a `while` loop"
         : spec.summary->may_break    ? "its body may `break`"
         : spec.summary->may_continue ? "its body may `continue`"
         : spec.summary->may_return   ? "its body may `return`"
                                      : nullptr;
}

DType number_dtype(Torch& T, const Value& v) {
  if (v.is_float()) return T.default_dtype;
  if (v.is_bool()) return DType::Bool;
  return DType::Int64;
}

ir::Value* i64_scalar(Torch& T, const Value& v) {
  const ir::Type t = ir::Type::tensor(ir::ElementType::Int64, {});
  if (is_symint(v)) return T.rec.dim_scalar(static_cast<SymIntObj*>(v.obj())->expr);
  if (is_tensor(v)) {
    TensorObj* x = as_tensor(v);
    ir::Value* r = cast_to(T, value_of(T, x), x->dtype, DType::Int64, x->shape);
    if (x->rank() != 0) r = T.rec.emit("Reshape", {r, T.rec.const_i64({})}, t);
    return r;
  }
  return T.rec.const_i64_scalar(v.i());
}

// The leaves of a pending return value that a Loop carries: its tensors and numbers (through
// tuples and lists); `rebuild` puts new leaves into the same structure.
void ret_leaves(const Value& v, std::vector<Value>& out) {
  if (is_tensor(v) || (cf::is_number(v) && !eval::is_poison(v))) {
    out.push_back(v);
  } else if (eval::is_tuple(v) || eval::is_list(v)) {
    for (const Value& x : eval::is_tuple(v) ? eval::as_tuple(v)->items : eval::as_list(v)->items) ret_leaves(x, out);
  }
}

Value rebuild(Interp& I, const Value& proto, const std::vector<Value>& leaves, size_t& k) {
  if (is_tensor(proto) || (cf::is_number(proto) && !eval::is_poison(proto))) return leaves.at(k++);
  if (eval::is_tuple(proto) || eval::is_list(proto)) {
    std::vector<Value> items;
    for (const Value& x : eval::is_tuple(proto) ? eval::as_tuple(proto)->items : eval::as_list(proto)->items)
      items.push_back(rebuild(I, x, leaves, k));
    return eval::is_tuple(proto) ? eval::new_tuple(I, std::move(items)) : eval::new_list(I, std::move(items));
  }
  return proto;
}

// A tuple or list of tensors (nested too) whose leaves a Loop can carry (an LSTM's `(h, c)` state).
bool tensor_tuple(const Value& v) {
  if (!eval::is_tuple(v)) return false;
  std::vector<Value> leaves;
  ret_leaves(v, leaves);
  for (const Value& x : leaves)
    if (!is_tensor(x)) return false;
  std::function<bool(const Value&)> all = [&](const Value& x) {
    if (is_tensor(x)) return true;
    if (!eval::is_tuple(x)) return false;
    for (const Value& y : eval::as_tuple(x)->items)
      if (!all(y)) return false;
    return true;
  };
  return !leaves.empty() && all(v);
}

// Dims of a value recorded in the body that mention a symbol made there (by a dim that changes
// from one iteration to the next) are only known inside the body.
bool body_local(const ir::DimExpr& d, int before) { return region_local(d, before); }

}  // namespace

// The parts of a LoopSpec every `for` statement fills the same way.
Hook::LoopSpec Hook::for_spec(const eval::ForStmt& s) {
  LoopSpec spec;
  spec.body = &s.body;
  spec.orelse = &s.orelse;
  spec.summary = &s.body_summary;
  spec.target = s.target;
  spec.stmt = &s;
  return spec;
}

Exit Hook::on_while(Interp& I, Frame& f, const eval::WhileStmt& s, const Value& cond) {
  f.cur = s.test;
  LoopSpec spec;
  spec.body = &s.body;
  spec.orelse = &s.orelse;
  spec.summary = &s.body_summary;
  spec.test = s.test;
  spec.stmt = &s;
  spec.cond = condition_value(T, cond);
  return record_loop(I, f, spec);
}

// range(start, stop, step) with a step that is a size: its items when its length is a constant
// (`range(0, n, n)`: one, for every n the range is valid for; a step of 0 raises in Python), else
// nullopt. The items are sizes (start + i * step).
static std::optional<std::vector<Value>> sized_range_items(Torch& T, const std::vector<Value>& args) {
  if (args.size() != 3) return std::nullopt;
  ir::DimExpr start, stop, step;
  if (!to_dim(T.I, args[0], &start) || !to_dim(T.I, args[1], &stop) || !to_dim(T.I, args[2], &step))
    return std::nullopt;
  std::optional<int64_t> lo = size_lower_bound(T, step);
  if (!lo || *lo < 0) return std::nullopt;  // a step of unknown sign
  ir::DimExpr len = simplify_sizes(T, ir::max(ir::ceil_div(stop - start, step), ir::DimExpr(0)));
  if (!len.is_const() || (T.I.max_unroll > 0 && len.value() > T.I.max_unroll)) return std::nullopt;
  std::vector<Value> items;
  for (int64_t i = 0; i < len.value(); ++i) items.push_back(make_size_value(T, simplify_sizes(T, start + step * i)));
  return items;
}

bool Hook::on_for_range(Interp& I, Frame& f, const eval::ForStmt& s, const std::vector<Value>& given, Exit* exit,
                        Value* items) {
  // A numpy scalar read from a run-time tensor (`for j in range(q[i][1])` after q = t.numpy()) is
  // that tensor's value.
  std::vector<Value> args = given;
  for (Value& a : args) numpy_operand(I, a, &a);
  bool symbolic = false;
  for (const Value& a : args) symbolic = symbolic || is_symint(a) || is_tensor(a);
  if (!symbolic) return false;
  Value start = args.size() >= 2 ? args[0] : Value::integer(0);
  Value stop = args.size() >= 2 ? args[1] : args[0];
  Value step = args.size() == 3 ? args[2] : Value::integer(1);
  if (!step.is_int() || step.i() == 0) {
    std::optional<std::vector<Value>> known;
    if (!step.is_int()) known = sized_range_items(T, args);
    if (known) {
      *items = eval::new_list(I, std::move(*known));
      return false;
    }
    throw Diagnostic::error("range() over a size only known at run time needs a nonzero step that is a Python int "
                            "(or a size step that gives it a length known at conversion time)",
                            f.range());
  }
  for (const Value& a : {start, stop})
    if (!a.is_int() && !is_symint(a) && !is_tensor(a))
      eval::raisef(I, I.exc.TypeError, "'{}' object cannot be interpreted as an integer", eval::type_name(I, a));
  LoopSpec spec = for_spec(s);
  spec.step = step.i();
  const ir::Type t = ir::Type::tensor(ir::ElementType::Int64, {});
  spec.start = i64_scalar(T, start);
  spec.start_py = start;
  spec.cond = T.rec.const_scalar(ir::ElementType::Bool, 1);
  if (start.is_int() && start.i() == 0 && spec.step == 1 && is_symint(stop)) {
    // range(n) over a size: n iterations (a size is never negative).
    spec.trip = i64_scalar(T, stop);
    *exit = record_loop(I, f, spec);
    return true;
  }
  ir::Value* b = i64_scalar(T, stop);
  // Iterations: max(0, ceil((stop - start) / step)); ONNX's Div truncates, which is the ceiling
  // here whenever the count is positive.
  int64_t k = spec.step > 0 ? spec.step : -spec.step;
  ir::Value* diff = spec.step > 0 ? T.rec.emit("Sub", {b, spec.start}, t) : T.rec.emit("Sub", {spec.start, b}, t);
  if (k != 1) {
    diff = T.rec.emit("Add", {diff, T.rec.const_i64_scalar(k - 1)}, t);
    diff = T.rec.emit("Div", {diff, T.rec.const_i64_scalar(k)}, t);
  }
  spec.trip = T.rec.emit("Max", {diff, T.rec.const_i64_scalar(0)}, t);
  spec.cond = T.rec.const_scalar(ir::ElementType::Bool, 1);
  *exit = record_loop(I, f, spec);
  return true;
}

bool Hook::on_for_iter(Interp& I, Frame& f, const eval::ForStmt& s, const Value& iterable, Exit* exit) {
  // A list whose length is only known at run time (a Loop appended to it, x.unbind(0) of a run-time
  // batch) is iterated as the rows of its items stacked.
  Value rows = is_tensor(iterable) ? iterable : stacked_items(T, iterable);
  if (!is_tensor(rows)) return false;
  TensorObj* x = as_tensor(rows);
  if (x->rank() == 0 || x->shape[0].is_const()) return false;  // unrolled over its rows as usual
  LoopSpec spec = for_spec(s);
  spec.rows = {x};
  spec.rows_value = {value_of(T, x)};
  spec.trip = T.rec.dim_scalar(x->shape[0]);
  spec.cond = T.rec.const_scalar(ir::ElementType::Bool, 1);
  *exit = record_loop(I, f, spec);
  return true;
}

// `for i, row in enumerate(x)` / `for a, b in zip(x, y)` where a tensor's first dim is only known at
// run time: one Loop over the rows, as long as the shortest (zip stops there); the target is bound to
// the tuple of the rows (and the counter, an int64 zero-dim tensor). Every argument must be a tensor
// of rank >= 1 (a Python list next to a run-time batch has no Loop form): otherwise the call runs as
// usual and reports the run-time size where it iterates.
bool Hook::on_for_zip(Interp& I, Frame& f, const eval::ForStmt& s, bool enumerate, bool zipped,
                      const std::function<Value()>& start_of, const std::vector<Value>& given, Exit* exit) {
  const size_t n = given.size();
  if (n == 0) return false;
  bool symbolic = false;
  std::vector<Value> args(given);  // a list whose length is only known at run time: its items stacked
  for (Value& a : args)
    if (Value rows = stacked_items(T, a); is_tensor(rows)) a = rows;
  for (size_t k = 0; k < n; ++k) {
    if (!is_tensor(args[k]) || as_tensor(args[k])->rank() == 0) return false;
    symbolic = symbolic || !as_tensor(args[k])->shape[0].is_const();
  }
  if (!symbolic) return false;
  int64_t start = 0;
  if (enumerate && !eval::int_value(start_of(), &start))
    throw Diagnostic::error("enumerate() over a tensor whose rows are only known at run time needs an int start",
                            T.rec.location());
  LoopSpec spec = for_spec(s);
  spec.tuple_target = true;
  spec.zipped = zipped;
  spec.enumerate = enumerate;
  spec.enum_start = start;
  ir::DimExpr len = as_tensor(args[0])->shape[0];
  for (size_t k = 0; k < n; ++k) {
    TensorObj* x = as_tensor(args[k]);
    spec.rows.push_back(x);
    spec.rows_value.push_back(value_of(T, x));
    if (k) len = ir::min(len, x->shape[0]);
  }
  spec.trip = T.rec.dim_scalar(len);
  spec.cond = T.rec.const_scalar(ir::ElementType::Bool, 1);
  *exit = record_loop(I, f, spec);
  return true;
}

// Whether `e` is the loop variable's value `target` or a part of it (`for i, (a, b) in ...`).
bool part_of(const Value& e, const Value& target) {
  if (same(e, target)) return true;
  if (!eval::is_tuple(target)) return false;
  for (const Value& t : eval::as_tuple(target)->items)
    if (part_of(e, t)) return true;
  return false;
}

// What the loop variable of a Loop over rows is bound to at row index `ix` (an int64 scalar).
Value Hook::row_item(const LoopSpec& spec, ir::Value* ix) {
  const ir::Type i64 = ir::Type::tensor(ir::ElementType::Int64, {});
  std::vector<Value> rows;
  for (size_t k = 0; k < spec.rows.size(); ++k) {
    TensorObj* x = spec.rows[k];
    std::vector<ir::DimExpr> row(x->shape.begin() + 1, x->shape.end());
    ir::Value* r = T.rec.emit("Gather", {spec.rows_value[k], ix}, ir::Type::tensor(elem(x->dtype), row),
                              {{"axis", int64_t{0}}});
    rows.push_back(new_tensor(T, r, x->dtype, row));
  }
  if (!spec.tuple_target) return rows[0];
  Value item = spec.zipped ? eval::new_tuple(T.I, std::move(rows)) : rows[0];
  if (!spec.enumerate) return item;
  ir::Value* i = spec.enum_start ? T.rec.emit("Add", {ix, T.rec.const_i64_scalar(spec.enum_start)}, i64) : ix;
  return eval::new_tuple(T.I, {new_tensor(T, i, DType::Int64, {}), item});
}

Exit Hook::record_loop(Interp& I, Frame& f, LoopSpec& spec) {
  const SourceRange where = T.rec.location();
  const std::vector<eval::VarRef>& vars = spec.summary->assigned;
  eval::VarSnapshot before = eval::snapshot_vars(I, f, vars);
  FrameState state = FrameState::capture(I, f, vars);
  const ir::Type i64 = ir::Type::tensor(ir::ElementType::Int64, {});
  const ir::Type b1 = ir::Type::tensor(ir::ElementType::Bool, {});
  // Tensors the body writes in place that the frame does not reach (a parameter written through a
  // view made in the body): tracked from the attempt that wrote them on, carried like the others.
  WriteLog log;
  LogWrites logging(T, log, state);
  // A tracked view of a tracked tensor is not carried itself: a write through it writes its base,
  // which is carried, and the view is derived from the base's carried value again when read.
  auto view_of_tracked = [&state](const TensorObj* t) {
    for (const TensorObj* x = t->base.get(); x; x = x->base.get())
      for (const auto& u : state.tensors)
        if (u.get() == x) return true;
    return false;
  };

  std::set<size_t> promote;                       // vars: Python numbers that change -> 0-d tensors
  // ... in the dtype their first iteration gave them (`loss = 0` then `loss += t.mean()`: float, as
  // in eager, where the int becomes a float tensor), not the initial number's
  std::map<size_t, DType> promote_dt;
  std::map<size_t, std::vector<bool>> general;    // vars: dims that change between iterations
  std::set<size_t> carry_t;                       // tracked tensors written in place in the body
  std::set<size_t> guard;                         // containers: lists appended to (no reads in the body)
  // containers: lists held as ONNX sequences (read by a run-time index, or appended to and read in
  // the body): carried Sequence values
  std::set<size_t> seqs;
  std::map<size_t, std::vector<bool>> seq_varies;  // item dims that differ from one iteration to the next
  // sequences the body only reads: not carried, the body reads the value from before the Loop (ONNX
  // below opset 14 has no Identity of a sequence for a carried value passed through)
  std::set<size_t> seq_ro;
  std::map<size_t, std::pair<DType, std::vector<ir::DimExpr>>> appended;  // what a list's append gave
  for (size_t k = 0; k < state.containers.size(); ++k)
    if (is_seq_list(state.containers[k].obj)) seqs.insert(k);  // already a sequence before this loop
  std::map<size_t, std::vector<bool>> general_t;
  // vars first bound in the body (unbound before the loop) that hold a tensor or number at its end:
  // carried like the others, from zeros of their dtype and shape (dims only known in the body: 0),
  // so that after the loop they hold the last iteration's value; a loop that runs no iteration
  // leaves those zeros (where Python would raise NameError/UnboundLocalError on reading them).
  std::map<size_t, std::pair<DType, std::vector<ir::DimExpr>>> first_bound;
  // A `return` under a tensor-dependent condition in the body (it ends the loop like a `break`):
  // the pending-return flag and the leaves of the value it returns are carried too (from false and
  // zeros), and after the loop the rest of the function runs only where the flag is false.
  bool carry_ret = false;
  std::vector<Value> ret_proto_leaves;
  Value ret_proto;
  int ret_proto_sym = 0;  // symbols made after this one are local to the body the proto came from
  std::map<size_t, std::vector<bool>> general_r;
  ir::Value* pending_flag = nullptr;  // after the Loop: its pending return
  Value pending_ret;
  std::string peel_name;  // a variable that is None before the loop and a tensor or number after an iteration
  // vars holding a tuple of tensors before the loop and a tuple of the same structure after an
  // iteration: each leaf is carried (ret 3)
  std::set<size_t> tuple_vars;
  std::map<size_t, size_t> tuple_leaves;
  std::map<std::pair<size_t, size_t>, std::vector<bool>> general_tl;
  struct Carried {
    bool is_var = true;
    size_t var = 0;  // ret 3: the variable
    int ret = 0;  // 1: the pending-return flag, 2: leaf idx of the pending return value, 3: leaf idx of var
    size_t idx = 0;
    DType dt = DType::Float32;
    std::vector<ir::DimExpr> in_shape;
    ir::Value* init = nullptr;
    ir::Value* body_in = nullptr;
    Value end;
    uint32_t end_version = 0;  // a carried tensor object's version at the end of the body
  };

  for (int attempt = 0;; ++attempt) {
    if (attempt > 8) throw Diagnostic::error("internal error: the loop-carried values did not settle", where);
    int sym_before = T.rec.symbol_count();
    ir::Node* node = T.rec.node("Loop", {spec.trip, spec.cond}, 0);
    node->set_attr("body", ir::Attribute(std::make_unique<ir::Graph>("body")));
    ir::Graph* g = &node->attr("body")->g();
    ir::Value* iter = g->add_input(i64, "i");
    g->add_input(b1, "cond");
    std::vector<Carried> carried;
    auto add_carried = [&](bool is_var, size_t idx, const Value& v, DType dt, const std::vector<bool>* gen) {
      Carried c;
      c.is_var = is_var;
      c.idx = idx;
      c.dt = dt;
      c.init = tensor_value(T, v, dt);
      c.body_in = g->add_input(ir::Type::tensor(elem(dt), shape_of(v)));
      c.in_shape = shape_of(v);
      for (size_t a = 0; gen && a < gen->size() && a < c.in_shape.size(); ++a)
        if ((*gen)[a]) c.in_shape[a] = T.rec.fresh_symbol(c.body_in, static_cast<int64_t>(a));
      c.body_in->set_type(ir::Type::tensor(elem(dt), c.in_shape));
      carried.push_back(std::move(c));
      return &carried.back();
    };
    std::vector<Value> ret_in;  // the carried-in leaves of the pending return value
    const bool carrying_ret = carry_ret;  // (carry_ret may be set by this attempt, for the next)
    auto add_ret_carried = [&] {
      if (!carry_ret) return;
      Carried* c = add_carried(false, 0, Value::boolean(false), DType::Bool, nullptr);
      c->ret = 1;
      for (size_t j = 0; j < ret_proto_leaves.size(); ++j) {
        const Value& leaf = ret_proto_leaves[j];
        DType dt = is_tensor(leaf) ? as_tensor(leaf)->dtype : number_dtype(T, leaf);
        std::vector<ir::DimExpr> sh = shape_of(leaf);
        for (ir::DimExpr& d : sh)
          if (d.is_unknown() || body_local(d, ret_proto_sym)) d = ir::DimExpr(int64_t{0});
        auto gr = general_r.find(j);
        Carried* l = add_carried(false, j, is_tensor(leaf) ? new_fill(T, 0.0, dt, sh) : leaf, dt,
                                 gr == general_r.end() ? nullptr : &gr->second);
        l->ret = 2;
        ret_in.push_back(new_tensor(T, l->body_in, dt, l->in_shape));
      }
    };
    for (size_t i = 0; i < vars.size(); ++i) {
      Value v = before.values[i];
      if (is_tensor(v) && as_tensor(v)->present) throw none_on_some_runs(var_name(vars[i], f), where);
      auto fb = first_bound.find(i);
      if (fb != first_bound.end()) v = new_fill(T, 0.0, fb->second.first, fb->second.second);
      if (!is_tensor(v) && !(promote.count(i) && is_number(v))) continue;
      auto gi = general.find(i);
      auto pd = promote_dt.find(i);
      Carried* c = add_carried(true, i, v,
                               is_tensor(v)             ? as_tensor(v)->dtype
                               : pd != promote_dt.end() ? pd->second
                                                        : number_dtype(T, v),
                               gi == general.end() ? nullptr : &gi->second);
      eval::write_var(I, f, vars[i], new_tensor(T, c->body_in, c->dt, c->in_shape));
    }
    for (size_t i : tuple_vars) {
      const Value& v0 = before.values[i];
      std::vector<Value> leaves, ins;
      ret_leaves(v0, leaves);
      for (size_t j = 0; j < leaves.size(); ++j) {
        auto gl = general_tl.find({i, j});
        Carried* c = add_carried(true, j, leaves[j], as_tensor(leaves[j])->dtype,
                                 gl == general_tl.end() ? nullptr : &gl->second);
        c->ret = 3;
        c->var = i;
        ins.push_back(new_tensor(T, c->body_in, c->dt, c->in_shape));
      }
      size_t k = 0;
      eval::write_var(I, f, vars[i], rebuild(I, v0, ins, k));
    }
    for (size_t j : carry_t) {
      TensorObj* obj = state.tensors[j].get();
      auto gj = general_t.find(j);
      Carried* c = add_carried(false, j, Value::borrow(obj), obj->dtype, gj == general_t.end() ? nullptr : &gj->second);
      TensorState ts = state.tensor_states[j];
      ts.value = c->body_in;
      ts.shape = c->in_shape;
      ts.data = nullptr;
      ts.fill.reset();
      ts.version += 1;  // its views made before the loop are derived from the carried value
      ts.apply(obj);
    }
    add_ret_carried();
    // Lists held as sequences: carried after the others.
    struct SeqCarried {
      size_t k = 0;
      ir::Value* init = nullptr;
      ir::Value* body_in = nullptr;
      DType dt = DType::Float32;
      std::vector<ir::DimExpr> item;
    };
    std::vector<SeqCarried> seq_carried, seq_read;
    for (size_t k : seqs) {
      const ContainerState& cs = state.containers[k];
      SeqCarried sc;
      sc.k = k;
      if (is_seq_list(cs.obj)) {
        SeqObj* so = seq_of(cs.obj);
        sc.init = so->value, sc.dt = so->dtype, sc.item = so->item;
      } else if (!cs.items.empty() || appended.count(k)) {
        if (cs.items.empty()) sc.dt = appended[k].first, sc.item = appended[k].second;
        sc.init = seq_construct(T, cs.items, cs.name, where, &sc.dt, &sc.item);
      } else {
        throw Diagnostic::error(fmt::format("internal error: the item type of '{}' is not known", cs.name), where);
      }
      auto sv = seq_varies.find(k);
      for (size_t a = 0; sv != seq_varies.end() && a < sv->second.size() && a < sc.item.size(); ++a)
        if (sv->second[a]) sc.item[a] = ir::DimExpr::unknown();
      if (seq_ro.count(k)) {
        seq_read.push_back(std::move(sc));
        continue;
      }
      sc.body_in = g->add_input(seq_type(sc.dt, sc.item));
      seq_carried.push_back(std::move(sc));
    }

    // The initial values were recorded after the Loop node was made: the Loop goes after them.
    node->graph()->move_before(node, nullptr);

    // The body.
    ir::Value* cond_out = nullptr;
    Exit exit = Exit::Normal;
    std::vector<ir::Value*> outs;
    std::vector<ir::Value*> seq_outs;  // the sequences' values at the end of the body
    Value target_val;  // what the loop variable is bound to in the body (not carried)
    bool retry = false;
    std::string problem, problem_help;
    std::vector<std::pair<eval::Object*, eval::Type*>> swapped;
    struct Unswap {
      std::vector<std::pair<eval::Object*, eval::Type*>>& v;
      ~Unswap() {
        for (auto& [o, t] : v) swap_type(o, t);
      }
    } unswap{swapped};
    for (size_t k : guard) {
      if (seqs.count(k)) continue;
      eval::Object* o = state.containers[k].obj.obj();
      swapped.emplace_back(o, swap_type(o, list_subtype(T, kGuarded)));
    }
    for (const SeqCarried& sc : seq_carried) {
      eval::Object* o = state.containers[sc.k].obj.obj();
      swapped.emplace_back(o, o->type);
      make_seq_list(T, state.containers[sc.k].obj, new_seq(T, sc.body_in, sc.dt, sc.item));
    }
    for (const SeqCarried& sc : seq_read) {
      eval::Object* o = state.containers[sc.k].obj.obj();
      swapped.emplace_back(o, o->type);
      make_seq_list(T, state.containers[sc.k].obj, new_seq(T, sc.init, sc.dt, sc.item));
    }
    for (size_t k = 0; k < state.containers.size(); ++k) {
      eval::Object* o = state.containers[k].obj.obj();
      if (!state.containers[k].is_list || guard.count(k) || seqs.count(k) || o->type != I.t.list) continue;
      swapped.emplace_back(o, swap_type(o, list_subtype(T, kWatched)));
    }
    // Undoes this attempt's recording and the frame's changes (before recording again, peeling the
    // first iteration, or reporting an error).
    auto abandon = [&] {
      eval::restore_vars(I, f, vars, before);
      log.adopt(state);
      state.restore_tensors(state.tensor_states);
      state.restore_containers(I);
      T.rec.forget_graph(g);
      node->graph()->erase(node);
    };
    try {
      in_region(T, g, [&] {
        struct Pop {
          std::vector<LoopCtx>& l;
          ~Pop() { l.pop_back(); }
        };
        loops_.push_back({spec.body, &f, nullptr});
        Pop pop{loops_};
        if (carrying_ret) {
          size_t k = 0;
          loops_.back().ret = rebuild(I, ret_proto, ret_in, k);
        }
        if (!spec.rows.empty()) {
          ir::Value* ix = iter;
          if (spec.first != 0) ix = T.rec.emit("Add", {iter, T.rec.const_i64_scalar(spec.first)}, i64);
          target_val = row_item(spec, ix);
          eval::assign(I, f, spec.target, target_val);
        } else if (spec.target) {
          ir::Value* iv = iter;
          if (spec.step != 1) iv = T.rec.emit("Mul", {iv, T.rec.const_i64_scalar(spec.step)}, i64);
          const ir::Tensor* s0 = spec.start->initializer();
          if (!s0 || s0->int_at(0) != 0) iv = T.rec.emit("Add", {spec.start, iv}, i64);
          target_val = new_tensor(T, iv, DType::Int64, {});
          eval::assign(I, f, spec.target, target_val);
        }
        Value retval_before = f.retval;
        exit = eval::exec_block(I, f, *spec.body);
        if (exit == Exit::Return) {  // returns in every iteration that gets here: ends the loop
          exit = Exit::Break;
          loops_.back().returned = T.rec.const_scalar(ir::ElementType::Bool, 1);
          loops_.back().ret = freeze(f.retval);
        }
        f.retval = retval_before;
        ir::Value* body_returned = loops_.back().returned;
        Value body_ret = loops_.back().ret;
        if (body_returned && !carry_ret) {
          carry_ret = retry = true;
          ret_proto = body_ret;
          ret_proto_leaves.clear();
          ret_leaves(body_ret, ret_proto_leaves);
          ret_proto_sym = sym_before;
        }
        ir::Value* keep = exit == Exit::Break ? T.rec.const_scalar(ir::ElementType::Bool, 0) : loops_.back().keep_going;
        if (spec.test && exit != Exit::Break) {
          Value c = eval::eval(I, f, spec.test);
          ir::Value* cv = condition_value(T, c);
          cond_out = keep ? T.rec.emit("And", {keep, cv}, b1) : cv;
        } else {
          cond_out = keep ? keep : T.rec.const_scalar(ir::ElementType::Bool, 1);
        }
        // What the iteration left behind.
        std::vector<Value> ret_end;
        if (carrying_ret && body_ret.is_null()) {
          ret_end = ret_in;  // no return recorded in this iteration: the value passes through
        } else if (carrying_ret) {
          ret_leaves(body_ret, ret_end);
          if (ret_end.size() != ret_in.size())
            throw Diagnostic::error("internal error: the pending return value changed its structure", where);
        }
        for (Carried& c : carried) {
          if (c.ret == 1) {
            outs.push_back(body_returned ? body_returned : T.rec.const_scalar(ir::ElementType::Bool, 0));
            continue;
          }
          Value e;
          if (c.ret == 3) {
            std::vector<Value> leaves;
            Value t = eval::read_var(I, f, vars[c.var]);
            if (eval::is_tuple(t)) ret_leaves(t, leaves);
            if (!tensor_tuple(t) || leaves.size() != tuple_leaves[c.var])
              throw Diagnostic::error(fmt::format("'{}' is a tuple of {} tensors before this loop and {} after an "
                                                  "iteration; a loop-carried tuple keeps its structure",
                                                  var_name(vars[c.var], f), tuple_leaves[c.var],
                                                  tensor_tuple(t) ? fmt::format("a tuple of {} tensors", leaves.size())
                                                                  : "not a tuple of tensors"),
                                      where);
            e = leaves[c.idx];
          } else {
            e = c.ret == 2 ? ret_end[c.idx]
                : c.is_var ? eval::read_var(I, f, vars[c.idx])
                           : Value::borrow(state.tensors[c.idx].get());
          }
          std::string name = c.ret == 2 ? std::string("the return value")
                             : c.ret == 3 ? fmt::format("{}[{}]", var_name(vars[c.var], f), c.idx)
                             : c.is_var ? var_name(vars[c.idx], f)
                                        : state.tensor_names[c.idx];
          if (!is_tensor(e) && !is_number(e))
            throw Diagnostic::error(fmt::format("'{}' is a tensor before this loop but a Python {} after an iteration",
                                                name, eval::type_name(I, e)),
                                    where);
          if (is_tensor(e) && as_tensor(e)->present) throw none_on_some_runs(name, where);
          std::vector<ir::DimExpr> sh = shape_of(e);
          DType dt = is_tensor(e) ? as_tensor(e)->dtype : c.dt;
          if ((dt != c.dt || sh.size() != c.in_shape.size()) && c.is_var && !c.ret && !peel_refusal(spec)) {
            // The first iteration changes it (`h = cell(x[t], h)` broadcasting h to the input's rank,
            // `acc = acc + t` promoting an int tensor): that iteration is recorded before the Loop
            // (peel_first), which then carries what it left; a change in a later one is an error.
            if (peel_name.empty())
              peel_name = fmt::format("'{}' changes from {} of rank {} to {} of rank {} in the first iteration of "
                                      "this loop, which is recorded as an ONNX Loop (a loop that runs no iteration "
                                      "leaves it unchanged in PyTorch)",
                                      name, info(c.dt).name, c.in_shape.size(), info(dt).name, sh.size());
            outs.push_back(c.body_in);
            continue;
          }
          if (dt != c.dt || sh.size() != c.in_shape.size())
            throw Diagnostic::error(fmt::format("'{}' changes from {} of rank {} to {} of rank {} in an iteration of "
                                                "this loop; a loop-carried value keeps its dtype and rank",
                                                name, info(c.dt).name, c.in_shape.size(), info(dt).name, sh.size()),
                                    where);
          for (size_t a = 0; a < sh.size(); ++a)
            if (sh[a] != c.in_shape[a]) {
              auto& gen = c.ret == 2   ? general_r[c.idx]
                          : c.ret == 3 ? general_tl[{c.var, c.idx}]
                          : c.is_var   ? general[c.idx]
                                       : general_t[c.idx];
              gen.resize(sh.size(), false);
              if (!gen[a]) gen[a] = retry = true;
            }
          c.end = e;
          if (is_tensor(e)) c.end_version = as_tensor(e)->version;
          outs.push_back(tensor_value(T, e, c.dt));
        }
        for (size_t i = 0; i < vars.size(); ++i) {
          const Value& v0 = before.values[i];
          if (is_tensor(v0) || promote.count(i) || first_bound.count(i) || tuple_vars.count(i)) continue;
          Value e = eval::read_var(I, f, vars[i]);
          if (tensor_tuple(v0) && tensor_tuple(e) && !same(e, v0)) {
            std::vector<Value> a, b;
            ret_leaves(v0, a);
            ret_leaves(e, b);
            if (a.size() == b.size()) {  // (h, c) = cell(x, (h, c)): carry the leaves
              tuple_vars.insert(i);
              tuple_leaves[i] = a.size();
              retry = true;
              continue;
            }
          }
          if (v0.is_null() && !e.is_null() && !eval::is_poison(e) && (is_tensor(e) || is_number(e)) &&
              !(!target_val.is_null() && part_of(e, target_val))) {
            std::vector<ir::DimExpr> sh = shape_of(e);
            std::vector<bool> gen(sh.size(), false);
            for (size_t a = 0; a < sh.size(); ++a)
              if (sh[a].is_unknown() || body_local(sh[a], sym_before)) sh[a] = ir::DimExpr(int64_t{0}), gen[a] = true;
            first_bound[i] = {is_tensor(e) ? as_tensor(e)->dtype : number_dtype(T, e), sh};
            general[i] = gen;
            retry = true;
            continue;
          }
          if (v0.is_null() || same(e, v0)) continue;
          if (is_number(v0) && is_tensor(e) && as_tensor(e)->rank() > 0 && !peel_refusal(spec)) {
            // `loss = 0` before the loop, `loss += t` in it: Python's first `+=` rebinds the name to
            // a tensor of t's shape (int has no in-place add), the later ones add into it. A 0-d
            // carried value would take t in place and fail; the first iteration is recorded before
            // the Loop (peel_first), which then carries a tensor of t's shape.
            if (peel_name.empty())
              peel_name = fmt::format("'{}' is a Python number before this loop, which is recorded as an ONNX Loop, "
                                      "and a tensor of rank {} after its first iteration (a loop that runs no "
                                      "iteration leaves the number in PyTorch)",
                                      var_name(vars[i], f), as_tensor(e)->rank());
            continue;
          }
          if (is_number(v0) && (is_number(e) || is_tensor(e))) {
            DType dt = number_dtype(T, v0);
            DType de = is_tensor(e) ? as_tensor(e)->dtype : number_dtype(T, e);
            if (is_floating(de) && !is_floating(dt)) dt = de;
            promote_dt[i] = dt;
            promote.insert(i);
            retry = true;
            continue;
          }
          if (!is_tensor(e) && !is_tensor(v0) && eval::is_true(I, eval::compare(I, eval::CmpOp::Eq, e, v0))) continue;
          if (v0.is_none() && (is_tensor(e) || is_number(e) || tensor_tuple(e))) {
            // `total = None` before the loop, a tensor after its first iteration: that iteration is
            // recorded before the Loop (peel_first), which then carries a tensor.
            const char* why = peel_refusal(spec);
            if (!why) {
              if (peel_name.empty())
                peel_name = fmt::format("'{}' is None before this loop, which is recorded as an ONNX Loop, and not "
                                        "after its first iteration (a loop that runs no iteration leaves it None "
                                        "in PyTorch)",
                                        var_name(vars[i], f));
              continue;
            }
            if (problem.empty()) {
              problem_help = fmt::format("give '{}' a tensor before the loop (e.g. zeros of its shape) instead of "
                                         "None, or drop the `break`/`continue`/`return`",
                                         var_name(vars[i], f));
              problem = fmt::format("'{}' is None before this loop and a {} after an iteration; the first iteration "
                                    "is recorded before the ONNX Loop only when the loop is a `for` with no "
                                    "`break`, `continue` or `return` in its body, and {}",
                                    var_name(vars[i], f),
                                    is_tensor(e) ? "tensor" : is_number(e) ? "number" : "tuple of tensors", why);
            }
            continue;
          }
          problem = fmt::format("'{}' is a Python {} before this loop and changes in its body; only tensors and "
                                "numbers can change from one iteration of an ONNX Loop to the next",
                                var_name(vars[i], f), eval::type_name(I, v0));
        }
        log.adopt(state);
        for (size_t j = 0; j < state.tensors.size(); ++j)
          if (!carry_t.count(j) && state.tensors[j]->version != state.tensor_states[j].version &&
              !view_of_tracked(state.tensors[j].get())) {
            carry_t.insert(j);
            retry = true;
          }
        // Lists held as sequences: what the iteration left is carried to the next.
        for (const SeqCarried& sc : seq_carried) {
          const ContainerState& cs = state.containers[sc.k];
          if (!is_seq_list(cs.obj))
            throw Diagnostic::error(fmt::format("internal error: '{}' is no longer an ONNX sequence", cs.name), where);
          SeqObj* so = seq_of(cs.obj);
          if (so->dtype != sc.dt || so->item.size() != sc.item.size())
            throw Diagnostic::error(fmt::format("internal error: the items of '{}' changed dtype or rank", cs.name),
                                    where);
          for (size_t a = 0; a < sc.item.size(); ++a)
            if (so->item[a] != sc.item[a] && !sc.item[a].is_unknown()) {
              std::vector<bool>& v = seq_varies[sc.k];
              v.resize(sc.item.size(), false);
              v[a] = retry = true;
            }
          if (so->value == sc.body_in && seq_ro.insert(sc.k).second) retry = true;  // only read
          seq_outs.push_back(so->value);
        }
        for (const SeqCarried& sc : seq_read) {
          const ContainerState& cs = state.containers[sc.k];
          if (!is_seq_list(cs.obj) || seq_of(cs.obj)->value != sc.init) seq_ro.erase(sc.k), retry = true;
        }
        // Lists that grew by one tensor: scan outputs.
        for (size_t k = 0; k < state.containers.size(); ++k) {
          if (seqs.count(k)) continue;
          const ContainerState& cs = state.containers[k];
          std::vector<Value> now = FrameState::items_of(I, cs.obj, cs.is_list);
          bool prefix = now.size() >= cs.items.size();
          for (size_t k = 0; prefix && k < cs.items.size(); ++k) prefix = same(now[k], cs.items[k]);
          if (prefix && now.size() == cs.items.size()) continue;
          const bool grew = cs.is_list && prefix && now.size() == cs.items.size() + 1;
          if (grew && (now.back().is_int() || now.back().is_float() || now.back().is_bool() || is_symint(now.back()))) {
            // A number appended per iteration (`[len(r) for r in x]`) is one row of a scan output:
            // the zero-dim tensor torch.tensor(n) gives (a size: its run-time value).
            now.back() = operand_tensor(T, now.back());
            eval::as_list(cs.obj)->items.back() = now.back();
          }
          if (grew && is_tensor(now.back())) {
            appended[k] = {as_tensor(now.back())->dtype, as_tensor(now.back())->shape};
            // A size made in the body (a boolean mask's count, `distmat[i][mask[i]]`) may differ from
            // one iteration to the next, which a scan output cannot hold: the list is an ONNX
            // sequence then (torch.cat reads it with ConcatFromSequence).
            std::vector<bool> varies;
            bool any = false;
            for (const ir::DimExpr& d : appended[k].second) {
              varies.push_back(d.is_unknown() || body_local(d, sym_before));
              any = any || varies.back();
            }
            if (any && !seqs.count(k)) {
              seqs.insert(k);
              guard.erase(k);
              seq_varies[k] = varies;
              retry = true;
              continue;
            }
            if (guard.insert(k).second) retry = true;  // record again, refusing reads of it
            continue;
          }
          if (problem.empty())
            problem = fmt::format("'{}' is changed in the body of a loop recorded as ONNX Loop{}", cs.name,
                                  cs.is_list ? " (only appending one tensor per iteration to a list is supported: "
                                               "the list becomes the loop's scan output)"
                                             : "");
        }
        return 0;
      });
    } catch (NeedSequence& ns) {
      // A list read in a way only an ONNX sequence can follow: record again with it as one.
      abandon();
      size_t k = 0;
      while (k < state.containers.size() && !(state.containers[k].is_list && state.containers[k].obj.obj() == ns.list))
        ++k;
      bool mine = false;  // (a list an enclosing Loop watches is made a sequence there, then carried here)
      for (auto& sw : swapped) mine = mine || sw.first == ns.list;
      if (k == state.containers.size() || seqs.count(k) || !mine) throw;
      for (auto& [o, t] : swapped) swap_type(o, t);  // (before peel_first records the loop again)
      swapped.clear();
      const ContainerState& cs = state.containers[k];
      if (cs.items.empty() && !appended.count(k)) {
        // Empty before the loop and read before anything is appended: its item type is that of the
        // first append, so the first iteration runs before the Loop (peel_first) and fills it.
        if (const char* why = peel_refusal(spec))
          throw Diagnostic::error(fmt::format("'{}' is empty before this loop and read in it by an index only known at "
                                              "run time; the first iteration is recorded before the ONNX Loop (to "
                                              "learn its items' type) only when the loop is a `for` with no `break`, "
                                              "`continue` or `return` in its body, and {}",
                                              cs.name, why),
                                  where)
              .with_help(fmt::format("start '{}' with a tensor before the loop", cs.name));
        return peel_first(I, f, spec,
                          fmt::format("'{}' is empty before this loop, which is recorded as an ONNX Loop, and read "
                                      "in it by an index only known at run time",
                                      cs.name),
                          where);
      }
      seqs.insert(k);
      continue;
    } catch (eval::PyException& e) {
      // A variable unbound or None before the loop, bound by the first iteration and used by the
      // later ones, e.g. set under `if i == 0:` and updated in the `else:` arm. In the Loop the
      // counter is only known at run time, so both arms are recorded and the else arm reads it
      // unbound (UnboundLocalError) or None (`torch.cat([None, t])`: TypeError). With the first
      // iteration recorded before the Loop (peel_first), `i == 0` is decided there and the Loop
      // carries the variable. An error the first iteration raises too is eager's own.
      abandon();
      bool unset_before = false;
      for (size_t i = 0; i < vars.size(); ++i)
        unset_before = unset_before || before.values[i].is_null() || before.values[i].is_none();
      if (!unset_before || peel_refusal(spec)) throw;
      for (auto& [o, t] : swapped) swap_type(o, t);
      swapped.clear();
      std::string type(I.type_of(e.exc)->name_view()), text = eval::str_string(I, e.exc);
      return peel_first(I, f, spec,
                        fmt::format("this loop's body needs a variable that only its first iteration sets (recorded "
                                    "as an ONNX Loop, whose counter is only known at run time, it raised {}{}{})",
                                    type, text.empty() ? "" : ": ", text),
                        where);
    } catch (...) {
      abandon();
      throw;
    }
    for (auto& [o, t] : swapped) swap_type(o, t);  // the lists are plain lists again
    swapped.clear();
    // Scan outputs (the lists' new last items), before the state is restored.
    std::vector<std::pair<const ContainerState*, Value>> scans;
    for (size_t k = 0; k < state.containers.size(); ++k) {
      const ContainerState& cs = state.containers[k];
      if (!cs.is_list || seqs.count(k)) continue;
      std::vector<Value> now = FrameState::items_of(I, cs.obj, true);
      if (now.size() == cs.items.size() + 1) scans.emplace_back(&cs, now.back());
    }
    eval::restore_vars(I, f, vars, before);
    log.adopt(state);
    state.restore_tensors(state.tensor_states);
    state.restore_containers(I);
    if (!peel_name.empty()) {
      T.rec.forget_graph(g);
      node->graph()->erase(node);
      return peel_first(I, f, spec, peel_name, where);
    }
    if (!problem.empty() && !retry) {
      T.rec.forget_graph(g);
      node->graph()->erase(node);
      throw Diagnostic::error(problem, where)
          .with_help(problem_help.empty() ? "compute the value with tensor ops, or move the change out of the loop"
                                          : problem_help);
    }
    if (retry) {
      T.rec.forget_graph(g);
      node->graph()->erase(node);
      continue;
    }

    // The body's outputs: condition, carried values, scan outputs.
    g->add_output(cond_out);
    for (ir::Value* v : outs) g->add_output(v);
    for (ir::Value* v : seq_outs) g->add_output(v);
    std::vector<ir::Value*> scan_vals;
    for (auto& [cs, item] : scans) scan_vals.push_back(in_region(T, g, [&] { return value_of(T, as_tensor(item)); }));
    for (ir::Value* v : scan_vals) g->add_output(v);

    // The Loop's outputs.
    ir::Value* returned_out = nullptr;
    std::vector<Value> ret_out;
    std::map<size_t, std::vector<Value>> tuple_out;
    for (Carried& c : carried) {
      node->add_input(c.init);
      ir::Value* out = node->add_output(c.body_in->type());
      std::vector<ir::DimExpr> shape = c.in_shape;
      for (size_t a = 0; a < shape.size(); ++a)
        if (body_local(shape[a], sym_before)) shape[a] = T.rec.fresh_symbol(out, static_cast<int64_t>(a));
      out->set_type(ir::Type::tensor(elem(c.dt), shape));
      if (c.ret == 1) {
        returned_out = out;
      } else if (c.ret == 2) {
        ret_out.push_back(new_tensor(T, out, c.dt, shape));
      } else if (c.ret == 3) {
        tuple_out[c.var].push_back(new_tensor(T, out, c.dt, shape));
      } else if (c.is_var) {
        eval::write_var(I, f, vars[c.idx], new_tensor(T, out, c.dt, shape));
      } else {
        TensorObj* obj = state.tensors[c.idx].get();
        TensorState ts = state.tensor_states[c.idx];
        ts.value = out;
        ts.shape = shape;
        ts.data = nullptr;
        ts.fill.reset();
        ts.uninitialized = ts.random = false;
        // Newer than any version the body gave it: views derived in the body are derived again.
        ts.version = std::max(ts.version, c.end_version) + 1;
        ts.apply(obj);
      }
    }
    for (auto& [i, leaves] : tuple_out) {
      size_t k = 0;
      eval::write_var(I, f, vars[i], rebuild(I, before.values[i], leaves, k));
    }
    for (const SeqCarried& sc : seq_carried) {
      node->add_input(sc.init);
      ir::Value* out = node->add_output(seq_type(sc.dt, sc.item));
      make_seq_list(T, state.containers[sc.k].obj, new_seq(T, out, sc.dt, sc.item));
    }
    for (size_t k = 0; k < scans.size(); ++k) {
      TensorObj* item = as_tensor(scans[k].second);
      ir::Value* out = node->add_output(ir::Type::tensor(elem(item->dtype), {}));
      std::vector<ir::DimExpr> shape{T.rec.fresh_symbol(out, 0)};
      for (size_t a = 0; a < item->shape.size(); ++a)
        shape.push_back(body_local(item->shape[a], sym_before) || item->shape[a].is_unknown()
                            ? T.rec.fresh_symbol(out, static_cast<int64_t>(a + 1))
                            : item->shape[a]);
      out->set_type(ir::Type::tensor(elem(item->dtype), shape));
      auto obj = I.make<ScanObj>(scan_type(T));
      obj->stacked = new_tensor(T, out, item->dtype, shape);
      eval::as_list(scans[k].first->obj)->items.push_back(obj.take_value());
      mark_scan_list(T, scans[k].first->obj);
    }
    // Variables first bound in the body, and the loop variable, have no value after the Loop.
    for (size_t i = 0; i < vars.size(); ++i)
      if (before.values[i].is_null() && !first_bound.count(i))
        eval::write_var(I, f, vars[i],
                        eval::make_poison(I, var_name(vars[i], f),
                                          fmt::format("'{}' is first assigned inside this loop, which is recorded as "
                                                      "an ONNX Loop: its value after the loop is not recorded",
                                                      var_name(vars[i], f)),
                                          where));
    if (spec.target) {
      // each name of the target (`for i, (a, b) in ...` binds three)
      Value p = eval::make_poison(I, "the loop variable",
                                  "the loop variable of a loop recorded as ONNX Loop has no value after the loop", where);
      std::function<void(const eval::Expr*)> unbind = [&](const eval::Expr* t) {
        if (t->kind == eval::EK::Tuple || t->kind == eval::EK::List) {
          for (const eval::Expr* e : static_cast<const eval::SeqExpr*>(t)->elts)
            unbind(e->kind == eval::EK::Starred ? static_cast<const eval::StarredExpr*>(e)->value : e);
          return;
        }
        eval::assign(I, f, t, p);
      };
      unbind(spec.target);
    }
    if (node->num_outputs() == 0) {
      // Nothing the rest can see changes: the loop has no effect.
      T.rec.forget_graph(g);
      node->graph()->erase(node);
    }
    if (carry_ret) {
      size_t k = 0;
      pending_ret = rebuild(I, ret_proto, ret_out, k);
      pending_flag = returned_out;
    }
    break;
  }
  if (!spec.orelse->empty()) {
    if (spec.summary->may_break || carry_ret)
      throw Diagnostic::error(fmt::format("the `else` of a loop recorded as ONNX Loop that may `{}` is not supported",
                                          carry_ret ? "return" : "break"),
                              where);
    return eval::exec_block(I, f, *spec.orelse);
  }
  if (carry_ret) return settle_return(I, f, spec.stmt, pending_flag, pending_ret);
  return Exit::Normal;
}

// A variable is None before the loop and a tensor after its first iteration (`total = None`, then
// `total = t if total is None else total + t`): as a compiler peels a loop, the first iteration
// runs here, before the Loop, with the loop variable bound to the first row (or the range's start,
// a Python int), so `total is None` is decided as True; then a Loop over the other iterations
// carries `total` as a tensor. Decision for a loop that runs no iteration, where PyTorch leaves
// None: the exported model assumes at least one. Over a tensor's rows, ONNX Runtime then fails on
// reading row 0 (Gather out of range, an error at run time, not a wrong value); over a range, the
// first iteration's value is computed at i = start. A warning at the loop says so.
Exit Hook::peel_first(Interp& I, Frame& f, LoopSpec& spec, const std::string& name, const SourceRange& where) {
  const ir::Type i64 = ir::Type::tensor(ir::ElementType::Int64, {});
  T.warnings.push_back(Diagnostic::warning(
      fmt::format("{}: the first iteration is recorded before the Loop, so the exported model assumes at least "
                  "one iteration ({})",
                  name,
                  !spec.rows.empty() ? "with none, ONNX Runtime reports reading row 0 out of range"
                            : "with none, it still computes the first iteration"),
      where));
  if (!spec.rows.empty()) {
    eval::assign(I, f, spec.target, row_item(spec, T.rec.const_i64_scalar(spec.first)));
  } else if (spec.target) {
    eval::assign(I, f, spec.target, spec.start_py);
  }
  Exit exit = eval::exec_block(I, f, *spec.body);
  if (exit != Exit::Normal && exit != Exit::Continue)  // (the body has no break/return: an exception)
    return exit;
  // The Loop over the other iterations: trip - 1 of them (never negative), from the next row or
  // start + step.
  LoopSpec rest = spec;
  rest.peeled = true;
  rest.trip = T.rec.emit("Max", {T.rec.emit("Sub", {spec.trip, T.rec.const_i64_scalar(1)}, i64),
                                 T.rec.const_i64_scalar(0)},
                         i64);
  if (!spec.rows.empty()) {
    rest.first = spec.first + 1;
  } else {
    rest.start_py = eval::binary_op(I, eval::BinOp::Add, spec.start_py, Value::integer(spec.step));
    rest.start = i64_scalar(T, rest.start_py);
  }
  return record_loop(I, f, rest);
}

}  // namespace cf

}  // namespace onnxify::torch
