// Python builtins over lists whose length is only known at run time (control_flow.h append_rows): the
// rows of a tensor with a run-time batch taken as a list (`list(x)`, `outs.extend(x)`,
// `x.unbind(0)`), and the lists a Loop appended to (comprehensions, generator expressions). The
// evaluator cannot hold such a list's items one by one; these hooks read them as one stacked tensor.
//   list(x), l.extend(x), l += x   -> the rows of x after l's items (x a tensor, or such a list)
//   [a, b] * n (n a run-time size) -> the rows of stack([a, b]) tiled n times (items of one shape)
//   sum(v, start)                  -> start + v's items summed over the stacking dim
//   max(v), min(v)                 -> amax/amin over it (items of one element, as Python's `>` needs)
//   any(v), all(v)                 -> a run-time bool (items of one element)
//   any/all of a list of run-time truths (sizes) -> their Or / And
// A run-time empty list gives what the reduction of no rows gives (0, -inf/+inf, False, True), where
// Python gives `start`, raises ValueError, False, True.
#include <fmt/core.h>

#include "torch/control_flow.h"
#include "torch/control_flow_state.h"
#include "torch/ops.h"

namespace onnxify::torch {

using eval::Interp;
using eval::Value;

namespace {

// The rows `v` stands for when its length is only known at run time: a tensor whose first dim is
// symbolic, or a list holding a Loop's stacked outputs; Null otherwise.
Value run_time_rows(Torch& T, const Value& v) {
  if (is_tensor(v)) {
    TensorObj* t = as_tensor(v);
    return t->rank() >= 1 && !t->shape[0].is_const() ? v : Value();
  }
  return stacked_items(T, v);
}

bool extend_hook(Interp& I, eval::List* l, const Value& v) {
  Torch& T = torch_state();
  Value self = Value::borrow(l);
  // Only a plain list or one already holding such rows (a list a loop body guards or an ONNX
  // sequence reports its own error where it is read).
  if (l->type != I.t.list && !holds_scan_output(self)) return false;
  if (cf::is_seq_list(self)) return false;
  Value rows = run_time_rows(T, v);
  if (!is_tensor(rows)) return false;
  append_rows(T, self, rows);
  return true;
}

Value repeat_hook(Interp& I, const Value& seq, const Value& n) {
  Torch& T = torch_state();
  if (!is_symint(n) || !eval::is_list(seq) || holds_scan_output(seq) || cf::is_seq_list(seq)) return Value();
  const std::vector<Value>& items = eval::as_list(seq)->items;
  if (items.empty()) return Value();
  for (const Value& v : items)
    if (!is_tensor(v) || as_tensor(v)->shape != as_tensor(items[0])->shape ||
        as_tensor(v)->dtype != as_tensor(items[0])->dtype)
      return Value();
  // stack(items) is [k, ...]; repeating it n times along that dim gives the items in list order.
  Value rows = call_op(T, "stack", {eval::new_list(I, std::vector<Value>(items))});
  std::vector<Value> reps{n};
  for (size_t i = 1; i < as_tensor(rows)->rank(); ++i) reps.push_back(Value::integer(1));
  rows = call_op(T, "repeat", {rows, eval::new_list(I, std::move(reps))});
  Value list = eval::new_list(I, {});
  append_rows(T, list, rows);
  return list;
}

// any/all over a list or tuple whose items' truth is known only at run time for some (`all(x.shape)`
// of symbolic sizes: longt5's empty-input check): a run-time bool, And / Or of those truths, where
// no item with a conversion-time truth decides it (all() is False at a false item whatever comes
// before it, as the result is a bool and testing truth has no effects). Null when none is symbolic.
Value symbolic_any_all(Torch& T, bool is_all, const Value& v) {
  if (!eval::is_list(v) && !eval::is_tuple(v)) return Value();
  const std::vector<Value>& items = eval::is_list(v) ? eval::as_list(v)->items : eval::as_tuple(v)->items;
  std::vector<ir::Value*> conds;
  for (const Value& x : items) {
    eval::Truth t = eval::truth(T.I, x);
    if (t == eval::kSymbolic) conds.push_back(cf::condition_value(T, x));
    else if ((t == eval::kTrue) != is_all) return Value::boolean(!is_all);
  }
  if (conds.empty()) return Value();
  ir::Value* acc = conds[0];
  for (size_t i = 1; i < conds.size(); ++i)
    acc = T.rec.emit(is_all ? "And" : "Or", {acc, conds[i]}, ir::Type::tensor(ir::ElementType::Bool, {}));
  Value r = new_tensor(T, acc, DType::Bool, {});
  as_tensor(r)->symbolic_bool = true;  // a Python bool only known at run time, as item() of a condition
  return r;
}

Value reduce_hook(Interp& I, const char* name, const Value& v, const Value& start) {
  Torch& T = torch_state();
  const std::string_view which = name;
  Value rows = run_time_rows(T, v);
  if (!is_tensor(rows)) return which == "any" || which == "all" ? symbolic_any_all(T, which == "all", v) : Value();
  TensorObj* r = as_tensor(rows);
  const std::string_view op = name;
  if (op == "sum") {
    // Python adds the items one by one: an integer dtype stays itself (torch.sum would widen it to
    // int64), bools add up as int64 (0 + True).
    Value total = call_op(T, "sum", {rows, Value::integer(0)});
    TensorObj* t = as_tensor(total);
    if (r->dtype != DType::Bool && t->dtype != r->dtype)
      total = new_tensor(T, cast_to(T, value_of(T, t), t->dtype, r->dtype, t->shape), r->dtype, t->shape);
    if (start.is_int() && start.i() == 0) return total;
    return eval::binary_op(I, eval::BinOp::Add, start, total);
  }
  // max/min/any/all compare or test each item's truth: one element each, as in Python.
  ir::DimExpr n = product(r->shape, 1);
  if (!n.is_const() || n.value() != 1)
    eval::raise(I, I.exc.RuntimeError, "Boolean value of Tensor with more than one value is ambiguous");
  if (op == "max" || op == "min")
    return call_op(T, op == "max" ? "amax" : "amin", {rows, eval::new_list(I, {Value::integer(0)})});
  if (op == "any" || op == "all") return call_op(T, std::string(op), {rows});
  return Value();
}

}  // namespace

void install_rows_hooks(Torch& T) {
  T.I.symbolic.extend = &extend_hook;
  T.I.symbolic.reduce = &reduce_hook;
  T.I.symbolic.repeat = &repeat_hook;
}

}  // namespace onnxify::torch
