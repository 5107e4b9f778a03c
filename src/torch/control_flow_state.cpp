// The Python state a branch or loop body may change (saved and restored around each recording) and
// small helpers shared by the If and Loop recorders.
#include <fmt/core.h>

#include <cctype>

#include "torch/control_flow_state.h"
#include "torch/ops.h"

namespace onnxify::torch::cf {

using eval::Interp;
using eval::Layout;
using eval::Value;

bool same(const Value& a, const Value& b) {
  if (a.is_obj() || b.is_obj()) return a.is_obj() && b.is_obj() && a.obj() == b.obj();
  if (a.is_null() || b.is_null()) return a.is_null() && b.is_null();
  if (a.is_none() || b.is_none()) return a.is_none() && b.is_none();
  if (a.is_bool() != b.is_bool()) return false;
  if (a.is_float() || b.is_float()) return a.is_float() && b.is_float() && a.f() == b.f();
  return a.i() == b.i();
}

TensorState TensorState::of(const TensorObj* t) {
  TensorState s;
  s.dtype = t->dtype;
  s.shape = t->shape;
  s.value = t->value;
  s.data = t->data;
  s.fill = t->fill;
  s.uninitialized = t->uninitialized;
  s.random = t->random;
  s.version = t->version;
  s.base_version = t->base_version;
  return s;
}

void TensorState::apply(TensorObj* t) const {
  t->dtype = dtype;
  t->shape = shape;
  t->value = value;
  t->data = data;
  t->fill = fill;
  t->uninitialized = uninitialized;
  t->random = random;
  t->version = version;
  t->base_version = base_version;
}

std::vector<Value> FrameState::items_of(Interp& I, const Value& obj, bool is_list) {
  (void)I;
  if (is_list) return eval::as_list(obj)->items;
  std::vector<Value> out;
  for (const eval::DictEntry& e : eval::as_dict(obj)->entries) {
    if (e.key.is_null()) continue;
    out.push_back(e.key);
    out.push_back(e.value);
  }
  return out;
}

namespace {

struct Collector {
  Interp& I;
  FrameState& s;
  std::unordered_set<const eval::Object*> seen;

  void tensor(TensorObj* t, const std::string& name) {
    for (; t; t = t->base.get()) {
      if (!seen.insert(t).second) return;
      s.tensors.emplace_back(t);
      s.tensor_names.push_back(name);
      s.tensor_states.push_back(TensorState::of(t));
    }
  }
  void container(const Value& v, const std::string& name, bool is_list) {
    if (!seen.insert(v.obj()).second) return;
    ContainerState c;
    c.obj = v;
    c.name = name;
    c.is_list = is_list;
    c.items = FrameState::items_of(I, v, is_list);
    s.containers.push_back(std::move(c));
  }
  void visit(const Value& v, const std::string& name, int depth) {
    if (!v.is_obj()) return;
    if (is_tensor(v)) return tensor(as_tensor(v), name);
    if (depth > 1) return;
    eval::Object* o = v.obj();
    switch (o->type->layout) {
      case Layout::List:
        container(v, name, true);
        for (const Value& x : eval::as_list(v)->items) visit(x, name + "[...]", depth + 1);
        return;
      case Layout::Tuple:
        for (const Value& x : eval::as_tuple(v)->items) visit(x, name + "[...]", depth + 1);
        return;
      case Layout::Dict: container(v, name, false); return;
      case Layout::Object:
      case Layout::Other:
        // An instance's attributes (self.cache = ...): its __dict__.
        if (o->dict && !is_symint(v)) {
          if (!seen.insert(o).second) return;
          container(Value::borrow(o->dict), name + ".<attribute>", false);
          s.containers.back().name = name;
          // Its attributes one level down (self.history.append(...), self.buf.add_(...)).
          for (const eval::DictEntry& e : eval::as_dict(Value::borrow(o->dict))->entries)
            if (!e.key.is_null() && eval::is_str(e.key))
              visit(e.value, name + "." + std::string(eval::as_str(e.key)->view()), depth + 1);
        }
        return;
      default: return;
    }
  }
};

}  // namespace

FrameState FrameState::capture(Interp& I, eval::Frame& f, const std::vector<eval::VarRef>& vars) {
  FrameState s;
  Collector c{I, s, {}};
  if (f.code && f.fast) {
    std::vector<bool> is_cell(f.code->nslots, false);
    for (uint32_t k : f.code->cell_slots) is_cell[k] = true;
    for (uint32_t k : f.code->free_slots) is_cell[k] = true;
    for (uint32_t k = 0; k < f.code->nslots; ++k) {
      Value v = f.fast[k];
      if (is_cell[k] && v.is_obj() && v.obj()->type->layout == Layout::Cell) v = eval::as<eval::Cell>(v)->v;
      std::string name = k < f.code->slot_names.size() ? std::string(f.code->slot_names[k]->view()) : "?";
      c.visit(v, name, 0);
    }
  }
  for (const eval::VarRef& r : vars) c.visit(eval::read_var(I, f, r), var_name(r, f), 0);
  return s;
}

std::vector<TensorState> FrameState::tensors_now() const {
  std::vector<TensorState> out;
  for (const auto& t : tensors) out.push_back(TensorState::of(t.get()));
  return out;
}

void FrameState::restore_tensors(const std::vector<TensorState>& st) const {
  for (size_t i = 0; i < tensors.size(); ++i) st[i].apply(tensors[i].get());
}

const ContainerState* FrameState::changed_container(Interp& I) const {
  for (const ContainerState& c : containers) {
    std::vector<Value> now = items_of(I, c.obj, c.is_list);
    if (now.size() != c.items.size()) return &c;
    for (size_t i = 0; i < now.size(); ++i)
      if (!same(now[i], c.items[i])) return &c;
  }
  return nullptr;
}

std::vector<std::vector<Value>> FrameState::containers_now(Interp& I) const {
  std::vector<std::vector<Value>> out;
  for (const ContainerState& c : containers) out.push_back(items_of(I, c.obj, c.is_list));
  return out;
}

void FrameState::restore_containers(Interp& I) const {
  for (const ContainerState& c : containers) {
    if (c.is_list) {
      eval::as_list(c.obj)->items = c.items;
      continue;
    }
    std::vector<Value> now = items_of(I, c.obj, false);
    bool same_items = now.size() == c.items.size();
    for (size_t i = 0; same_items && i < now.size(); ++i) same_items = same(now[i], c.items[i]);
    if (same_items) continue;
    eval::Dict* d = eval::as_dict(c.obj);
    eval::dict_clear(I, d);
    for (size_t i = 0; i + 1 < c.items.size(); i += 2) eval::dict_set(I, d, c.items[i], c.items[i + 1]);
  }
}

void WriteLog::note(TensorObj* t) {
  if (t->born > since || !seen.insert(t).second) return;
  tensors.emplace_back(t);
  before.push_back(TensorState::of(t));
}

void WriteLog::adopt(FrameState& state) {
  for (; adopted < tensors.size(); ++adopted) {
    state.tensors.push_back(tensors[adopted]);
    state.tensor_names.push_back("a tensor written through a view");
    state.tensor_states.push_back(before[adopted]);
  }
}

LogWrites::LogWrites(Torch& T, WriteLog& log, const FrameState& state) : T(T) {
  log.since = TensorObj::births;
  for (const auto& t : state.tensors) log.seen.insert(t.get());
  T.write_watchers.push_back([&log](TensorObj* t) { log.note(t); });
}

LogWrites::~LogWrites() { T.write_watchers.pop_back(); }

std::string var_name(const eval::VarRef& v, const eval::Frame& f) {
  if (v.name) return std::string(v.name->view());
  if (f.code && v.slot < f.code->slot_names.size()) return std::string(f.code->slot_names[v.slot]->view());
  return "?";
}

ir::Value* condition_value(Torch& T, const Value& cond) {
  const ir::Type b = ir::Type::tensor(ir::ElementType::Bool, {});
  if (is_symint(cond)) {
    ir::Value* v = T.rec.dim_scalar(static_cast<SymIntObj*>(cond.obj())->expr);
    return cast_to(T, v, DType::Int64, DType::Bool, {});
  }
  if (is_tensor(cond)) {
    TensorObj* t = as_tensor(cond);
    ir::Value* v = value_of(T, t);
    if (t->rank() != 0) v = T.rec.emit("Reshape", {v, T.rec.const_i64({})}, ir::Type::tensor(elem(t->dtype), {}));
    if (t->dtype != DType::Bool) v = cast_to(T, v, t->dtype, DType::Bool, {});
    return v;
  }
  return T.rec.const_scalar(ir::ElementType::Bool, eval::is_true(T.I, cond) ? 1 : 0);
}

bool is_number(const Value& v) { return v.is_bool() || v.is_int() || v.is_float() || is_symint(v); }

std::optional<DType> merged_dtype(Torch& T, const Value& a, const Value& b) {
  bool ta = is_tensor(a), tb = is_tensor(b);
  if (ta && tb) {
    if (as_tensor(a)->dtype != as_tensor(b)->dtype) return std::nullopt;
    return as_tensor(a)->dtype;
  }
  if (ta && is_number(b)) return as_tensor(a)->dtype;
  if (tb && is_number(a)) return as_tensor(b)->dtype;
  if (!is_number(a) || !is_number(b)) return std::nullopt;
  if (a.is_float() || b.is_float()) return T.default_dtype;
  if (a.is_bool() && b.is_bool()) return DType::Bool;
  return DType::Int64;
}

ir::Value* tensor_value(Torch& T, const Value& v, DType dt) {
  if (is_tensor(v)) {
    TensorObj* t = as_tensor(v);
    return cast_to(T, value_of(T, t), t->dtype, dt, t->shape);
  }
  if (is_symint(v)) {
    ir::Value* s = T.rec.dim_scalar(static_cast<SymIntObj*>(v.obj())->expr);
    return cast_to(T, s, DType::Int64, dt, {});
  }
  double x = v.is_float() ? v.f() : static_cast<double>(v.i());
  return T.rec.const_scalar(elem(dt), x);
}

std::vector<ir::DimExpr> shape_of(const Value& v) { return is_tensor(v) ? as_tensor(v)->shape : std::vector<ir::DimExpr>{}; }

bool region_local(const ir::DimExpr& d, int before) {
  for (const std::string& s : d.symbols())
    if (s.size() > 1 && s[0] == 'u' && std::isdigit(static_cast<unsigned char>(s[1])) && std::stoi(s.substr(1)) > before)
      return true;
  return false;
}

}  // namespace onnxify::torch::cf

namespace onnxify::torch {

eval::Value symbolic_not(Torch& T, const eval::Value& v) {
  ir::Value* c = cf::condition_value(T, v);
  ir::Value* n = T.rec.emit("Not", {c}, ir::Type::tensor(ir::ElementType::Bool, {}));
  eval::Value r = new_tensor(T, n, DType::Bool, {});
  if (is_tensor(v) && as_tensor(v)->assumed) {
    as_tensor(r)->assumed = !*as_tensor(v)->assumed;
    as_tensor(r)->assumed_unless_empty = as_tensor(v)->assumed_unless_empty;
  }
  if (is_tensor(v) && as_tensor(v)->none_test) {
    as_tensor(r)->none_test = as_tensor(v)->none_test;
    as_tensor(r)->none_test_negated = !as_tensor(v)->none_test_negated;
  }
  return r;
}

}  // namespace onnxify::torch
