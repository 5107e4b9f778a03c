// Python lists held as ONNX sequences (see control_flow_state.h): a list that a loop recorded as
// ONNX Loop appends to and reads by an index only known at run time (`prev[-1]`, `prev[i - 1]`,
// `len(prev)`) cannot stay a Python list, whose length is fixed at conversion time. It becomes
// one loop-carried ONNX Sequence: the list object keeps its identity (other names and attributes
// that hold it see the same object) but its type becomes a list subtype whose one item is a
// SeqObj (the sequence's IR value, item dtype and shape), and each operation on it is recorded:
//   x.append(t) -> SequenceInsert        x[i], x[-1], x[i - 1] -> SequenceAt (negative: from the end)
//   len(x)      -> SequenceLength (a size only known at run time)
//   torch.stack(x, d) / torch.cat(x, d) -> ConcatFromSequence (new_axis=1 for stack)
//   x[a:b]      -> the stacked items sliced and split again (SplitToSequence)
// Anything else a list can do (pop, insert, iteration, `if x:`) is a clear error that says what works.
#include <fmt/core.h>

#include "torch/control_flow.h"
#include "torch/control_flow_state.h"
#include "torch/ops.h"

namespace onnxify::torch::cf {

using eval::Interp;
using eval::Value;

namespace {

Value seq_alloc(Interp& I, eval::Type* cls) { return I.make<SeqObj>(cls).take_value(); }

// One type per interpreter (as list_subtype in control_flow_loop.cpp).
struct Types {
  Torch* owner = nullptr;
  eval::Type* seq = nullptr;
  eval::Type* list = nullptr;
};
Types& types(Torch& T) {
  static thread_local Types t;
  if (t.owner != &T) t = Types{&T, nullptr, nullptr};
  return t;
}

[[noreturn]] void not_supported(const std::string& what) {
  Torch& T = torch_state();
  throw Diagnostic::error(fmt::format("{} is not supported on this list: it is held as an ONNX sequence (a loop "
                                      "recorded as ONNX Loop appends to it and reads it by an index only known "
                                      "at run time)",
                                      what),
                          T.rec.location())
      .with_help("such a list supports x.append(t), x[i] (also negative and run-time indices), x[a:b], len(x), "
                 "torch.stack(x) and torch.cat(x)");
}

ir::Value* position(Torch& T, const Value& key) {
  const ir::Type i64 = ir::Type::tensor(ir::ElementType::Int64, {});
  if (key.is_bool() || key.is_int()) return T.rec.const_i64_scalar(key.i());
  if (is_symint(key)) return T.rec.dim_scalar(static_cast<SymIntObj*>(key.obj())->expr);
  if (is_tensor(key)) {
    TensorObj* t = as_tensor(key);
    bool one = true;
    for (const ir::DimExpr& d : t->shape) one = one && d.is_const() && d.value() == 1;
    if (one && !is_floating(t->dtype)) {
      ir::Value* v = cast_to(T, value_of(T, t), t->dtype, DType::Int64, t->shape);
      if (t->rank() != 0) v = T.rec.emit("Reshape", {v, T.rec.const_i64({})}, i64);
      return v;
    }
  }
  not_supported(fmt::format("indexing by a {}", eval::type_name(T.I, key)));
}

// The items as one tensor: stacked on a new axis 0.
ir::Value* stacked(Torch& T, SeqObj* s, std::vector<ir::DimExpr>* shape) {
  ir::Value* len = T.rec.emit("SequenceLength", {s->value}, ir::Type::tensor(ir::ElementType::Int64, {}));
  shape->assign(1, T.rec.value_symbol(len));
  for (size_t a = 0; a < s->item.size(); ++a) shape->push_back(s->item[a]);
  ir::Value* out = T.rec.emit("ConcatFromSequence", {s->value}, ir::Type::tensor(elem(s->dtype), *shape),
                              {{"axis", int64_t{0}}, {"new_axis", int64_t{1}}});
  for (size_t a = 1; a < shape->size(); ++a)
    if ((*shape)[a].is_unknown()) (*shape)[a] = T.rec.fresh_symbol(out, static_cast<int64_t>(a));
  out->set_type(ir::Type::tensor(elem(s->dtype), *shape));
  return out;
}

Value sl_getitem(Interp& I, const Value& self, const Value& key) {
  Torch& T = torch_state();
  SeqObj* s = seq_of(self);
  if (key.is_obj() && key.obj()->type == I.t.slice) {
    auto* sl = static_cast<eval::Slice*>(key.obj());
    for (const Value* b : {&sl->start, &sl->stop})
      if (!b->is_none() && !b->is_int() && !is_symint(*b)) not_supported("a slice with these bounds");
    if (!sl->step.is_none() && !(sl->step.is_int() && sl->step.i() == 1)) not_supported("a slice with a step");
    std::vector<ir::DimExpr> shape;
    ir::Value* all = stacked(T, s, &shape);
    const ir::Type i64v = ir::Type::tensor(ir::ElementType::Int64, {1});
    auto bound = [&](const Value& b, int64_t dflt) {
      if (b.is_none()) return T.rec.const_i64({dflt});
      return T.rec.emit("Reshape", {position(T, b), T.rec.const_i64({1})}, i64v);
    };
    ir::Value* starts = bound(sl->start, 0);
    ir::Value* ends = bound(sl->stop, INT64_MAX);
    shape[0] = ir::DimExpr::unknown();
    ir::Value* part = T.rec.emit("Slice", {all, starts, ends, T.rec.const_i64({0})},
                                 ir::Type::tensor(elem(s->dtype), shape));
    shape[0] = T.rec.fresh_symbol(part, 0);
    part->set_type(ir::Type::tensor(elem(s->dtype), shape));
    ir::Value* seq = T.rec.emit("SplitToSequence", {part}, seq_type(s->dtype, s->item),
                                {{"axis", int64_t{0}}, {"keepdims", int64_t{0}}});
    Value list = eval::new_list(I, {});
    make_seq_list(T, list, new_seq(T, seq, s->dtype, s->item));
    return list;
  }
  std::vector<ir::DimExpr> shape = s->item;
  ir::Value* out = T.rec.emit("SequenceAt", {s->value, position(T, key)}, ir::Type::tensor(elem(s->dtype), shape));
  for (size_t a = 0; a < shape.size(); ++a)
    if (shape[a].is_unknown()) shape[a] = T.rec.fresh_symbol(out, static_cast<int64_t>(a));
  out->set_type(ir::Type::tensor(elem(s->dtype), shape));
  return new_tensor(T, out, s->dtype, shape);
}

Value sl_append(Interp& I, const Value& self, const eval::Args& a) {
  if (a.npos != 1 || a.nkw) eval::raisef(I, I.exc.TypeError, "list.append() takes exactly one argument ({} given)", a.npos);
  Torch& T = torch_state();
  SeqObj* s = seq_of(self);
  if (!is_tensor(a[0])) not_supported(fmt::format("appending a {}", eval::type_name(I, a[0])));
  TensorObj* t = as_tensor(a[0]);
  if (t->dtype != s->dtype || t->rank() != s->item.size())
    throw Diagnostic::error(fmt::format("appending a {} tensor of rank {} to a list held as an ONNX sequence of {} "
                                        "tensors of rank {}; the items of an ONNX sequence share dtype and rank",
                                        info(t->dtype).name, t->rank(), info(s->dtype).name, s->item.size()),
                            T.rec.location());
  std::vector<ir::DimExpr> item = s->item;
  for (size_t d = 0; d < item.size(); ++d)
    if (item[d] != t->shape[d]) item[d] = ir::DimExpr::unknown();
  ir::Value* seq = T.rec.emit("SequenceInsert", {s->value, value_of(T, t)}, seq_type(s->dtype, item));
  eval::as_list(self)->items[0] = new_seq(T, seq, s->dtype, item);
  return Value::none();
}

#define ONNXIFY_SEQ_REFUSE(fn, what) \
  Value fn(Interp&, const Value&, const eval::Args&) { not_supported(what); }
ONNXIFY_SEQ_REFUSE(sl_extend, "extend()")
ONNXIFY_SEQ_REFUSE(sl_insert, "insert()")
ONNXIFY_SEQ_REFUSE(sl_pop, "pop()")
ONNXIFY_SEQ_REFUSE(sl_remove, "remove()")
ONNXIFY_SEQ_REFUSE(sl_clear, "clear()")
ONNXIFY_SEQ_REFUSE(sl_copy, "copy()")
ONNXIFY_SEQ_REFUSE(sl_index, "index()")
ONNXIFY_SEQ_REFUSE(sl_count, "count()")
ONNXIFY_SEQ_REFUSE(sl_reverse, "reverse()")
ONNXIFY_SEQ_REFUSE(sl_sort, "sort()")
#undef ONNXIFY_SEQ_REFUSE

Value sl_iter(Interp&, const Value&) { not_supported("iterating over it (its length is only known at run time)"); }
int64_t sl_len(Interp&, const Value&) { not_supported("len() as a Python int"); }
eval::Truth sl_bool(Interp&, const Value&) { not_supported("its truth value (`if x:`; write `if len(x) > 0:`)"); }
void sl_setitem(Interp&, const Value&, const Value&, const Value&) { not_supported("item assignment"); }
void sl_delitem(Interp&, const Value&, const Value&) { not_supported("item deletion"); }
bool sl_contains(Interp&, const Value&, const Value&) { not_supported("`in`"); }
Value sl_binary(Interp&, const Value&, const Value&) { not_supported("this operator"); }
Value sl_repr(Interp& I, const Value&) { return I.str("[<items of an ONNX sequence>]"); }

}  // namespace

ir::Type seq_type(DType dt, const std::vector<ir::DimExpr>& item) {
  return ir::Type::sequence(ir::Type::tensor(elem(dt), item));
}

bool is_seq_list(const Value& v) {
  Torch* T = torch_state_opt();
  return T && v.is_obj() && types(*T).list && v.obj()->type == types(*T).list;
}

SeqObj* seq_of(const Value& list) { return static_cast<SeqObj*>(eval::as_list(list)->items.at(0).obj()); }

Value new_seq(Torch& T, ir::Value* value, DType dt, std::vector<ir::DimExpr> item) {
  Types& ty = types(T);
  if (!ty.seq) {
    eval::TypeSpec s;
    s.name = "ONNXSequence";
    s.module = "torch";
    s.flags = 0;
    s.alloc = &seq_alloc;
    ty.seq = eval::new_native_type(T.I, s);
    eval::incref(reinterpret_cast<eval::Object*>(ty.seq));
  }
  auto o = T.I.make<SeqObj>(ty.seq);
  o->value = value;
  o->dtype = dt;
  o->item = std::move(item);
  return o.take_value();
}

void make_seq_list(Torch& T, const Value& list, const Value& seq) {
  Types& ty = types(T);
  if (!ty.list) {
    eval::TypeSpec s;
    s.name = "list";
    s.module = "builtins";
    s.base = T.I.t.list;
    s.layout = eval::Layout::List;
    s.flags = 0;
    s.slots.getitem = &sl_getitem;
    s.slots.iter = &sl_iter;
    s.slots.len = &sl_len;
    s.slots.bool_ = &sl_bool;
    s.slots.setitem = &sl_setitem;
    s.slots.delitem = &sl_delitem;
    s.slots.contains = &sl_contains;
    s.slots.repr = &sl_repr;
    s.slots.add = s.slots.iadd = s.slots.mul = s.slots.imul = s.slots.rmul = &sl_binary;
    s.slots.eq = s.slots.ne = s.slots.lt = s.slots.le = s.slots.gt = s.slots.ge = &sl_binary;
    s.methods = {{"append", &sl_append}, {"extend", &sl_extend}, {"insert", &sl_insert},  {"pop", &sl_pop},
                 {"remove", &sl_remove}, {"clear", &sl_clear},   {"copy", &sl_copy},      {"index", &sl_index},
                 {"count", &sl_count},   {"reverse", &sl_reverse}, {"sort", &sl_sort}};
    ty.list = eval::new_native_type(T.I, s);
    eval::incref(reinterpret_cast<eval::Object*>(ty.list));
  }
  eval::Object* o = list.obj();
  if (o->type != ty.list) {
    eval::incref(reinterpret_cast<eval::Object*>(ty.list));
    eval::Type* old = o->type;
    o->type = ty.list;
    eval::decref(reinterpret_cast<eval::Object*>(old));
  }
  eval::as_list(list)->items.assign(1, seq);
}

ir::Value* seq_construct(Torch& T, const std::vector<Value>& items, const std::string& name, const SourceRange& where,
                         DType* dt, std::vector<ir::DimExpr>* item) {
  for (size_t k = 0; k < items.size(); ++k) {
    if (!is_tensor(items[k]))
      throw Diagnostic::error(fmt::format("'{}' becomes an ONNX sequence here (it is appended to in this loop and "
                                          "read by an index only known at run time), but its item {} is a {}, "
                                          "not a tensor",
                                          name, k, eval::type_name(T.I, items[k])),
                              where);
    TensorObj* t = as_tensor(items[k]);
    if (k == 0) {
      *dt = t->dtype;
      *item = t->shape;
    } else if (t->dtype != *dt || t->rank() != item->size()) {
      throw Diagnostic::error(fmt::format("'{}' becomes an ONNX sequence here, but its items differ in dtype or "
                                          "rank; the items of an ONNX sequence share them",
                                          name),
                              where);
    } else {
      for (size_t a = 0; a < item->size(); ++a)
        if ((*item)[a] != t->shape[a]) (*item)[a] = ir::DimExpr::unknown();
    }
  }
  if (items.empty())
    return T.rec.emit("SequenceEmpty", {}, seq_type(*dt, *item), {{"dtype", int64_t{ir::info(elem(*dt)).onnx}}});
  std::vector<ir::Value*> vals;
  for (const Value& v : items) vals.push_back(value_of(T, as_tensor(v)));
  return T.rec.emit("SequenceConstruct", vals, seq_type(*dt, *item));
}

Value seq_list_len(Torch& T, const Value& list) {
  ir::Value* n = T.rec.emit("SequenceLength", {seq_of(list)->value}, ir::Type::tensor(ir::ElementType::Int64, {}));
  Value t = new_tensor(T, n, DType::Int64, {});
  return make_size_value(T, size_from_tensor(T, as_tensor(t)));
}

Value seq_cat_stack(Torch& T, bool stack, const Value& list, const Value& dim) {
  SeqObj* s = seq_of(list);
  int64_t rank = static_cast<int64_t>(s->item.size());
  int64_t d = dim.is_null() || dim.is_none() ? 0 : dim.i();
  d = norm_dim(T.I, d, stack ? rank + 1 : rank);
  std::vector<ir::DimExpr> shape = s->item;
  if (stack) shape.insert(shape.begin() + d, ir::DimExpr::unknown());
  else shape[d] = ir::DimExpr::unknown();
  ir::Value* out = T.rec.emit("ConcatFromSequence", {s->value}, ir::Type::tensor(elem(s->dtype), shape),
                              {{"axis", d}, {"new_axis", int64_t{stack ? 1 : 0}}});
  for (size_t a = 0; a < shape.size(); ++a)
    if (shape[a].is_unknown()) shape[a] = T.rec.fresh_symbol(out, static_cast<int64_t>(a));
  out->set_type(ir::Type::tensor(elem(s->dtype), shape));
  return new_tensor(T, out, s->dtype, shape);
}

}  // namespace onnxify::torch::cf

namespace onnxify::torch {

eval::Value sequence_len(Torch& T, const eval::Value& v) {
  return cf::is_seq_list(v) ? cf::seq_list_len(T, v) : scan_list_len(T, v);
}

}  // namespace onnxify::torch
