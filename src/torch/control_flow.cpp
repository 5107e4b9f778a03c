// Tensor-dependent `if`, conditional expressions and `and`/`or` -> ONNX If (see control_flow.h).
#include "torch/control_flow.h"

#include <fmt/core.h>

#include "torch/control_flow_state.h"
#include "torch/ops.h"

namespace onnxify::torch {

using eval::Exit;
using eval::Frame;
using eval::Interp;
using eval::Value;

namespace cf {

namespace {

// The same dict key in both arms of an If: the same object, or equal strings.
bool same_key(const Value& x, const Value& y) {
  return same(x, y) || (eval::is_str(x) && eval::is_str(y) && eval::as_str(x)->view() == eval::as_str(y)->view());
}

const char* exit_word(Exit x) {
  switch (x) {
    case Exit::Return: return "return";
    case Exit::Break: return "break";
    case Exit::Continue: return "continue";
    default: return "falls through";
  }
}

// The path from block `b` down to statement `target`: (block, index) pairs, outermost first.
// `loop` is set when the path enters the body of a for/while statement.
using Path = std::vector<std::pair<const eval::Block*, size_t>>;

bool find_path(const eval::Block& b, const eval::Stmt* target, Path& path, bool& loop) {
  using eval::SK;
  for (size_t i = 0; i < b.size(); ++i) {
    const eval::Stmt* st = b[i];
    path.emplace_back(&b, i);
    if (st == target) return true;
    std::vector<const eval::Block*> kids;
    bool is_loop = false;
    switch (st->kind) {
      case SK::If: {
        const auto* x = static_cast<const eval::IfStmt*>(st);
        kids = {&x->body, &x->orelse};
        break;
      }
      case SK::For: {
        const auto* x = static_cast<const eval::ForStmt*>(st);
        kids = {&x->body, &x->orelse};
        is_loop = true;
        break;
      }
      case SK::While: {
        const auto* x = static_cast<const eval::WhileStmt*>(st);
        kids = {&x->body, &x->orelse};
        is_loop = true;
        break;
      }
      case SK::With: kids = {&static_cast<const eval::WithStmt*>(st)->body}; break;
      case SK::Try: {
        const auto* x = static_cast<const eval::TryStmt*>(st);
        kids = {&x->body, &x->orelse, &x->finalbody};
        for (const eval::Handler& h : x->handlers) kids.push_back(&h.body);
        break;
      }
      default: break;
    }
    for (const eval::Block* k : kids) {
      bool inner_loop = false;
      if (find_path(*k, target, path, inner_loop)) {
        loop = loop || is_loop || inner_loop;
        return true;
      }
    }
    path.pop_back();
  }
  return false;
}

}  // namespace

Exit Hook::continuation(Interp& I, Frame& f, const eval::Stmt* s, Exit kind) {
  const eval::Block* boundary = nullptr;
  if (kind == Exit::Return) {
    bool in_loop = false;  // a Loop being recorded in this frame (unrolled loops are found below)
    for (const LoopCtx& l : loops_) in_loop = in_loop || (l.frame == &f && !l.unrolled);
    if (in_loop)
      throw Diagnostic::error("a `return` under a tensor-dependent condition inside a loop recorded as ONNX Loop is "
                              "not supported", f.range())
          .with_help("assign the result to a variable, `break`, and return it after the loop");
    boundary = f.code ? &f.code->body : nullptr;
  } else {
    if (loops_.empty() || loops_.back().frame != &f)
      throw Diagnostic::error(fmt::format("`{}` under a tensor-dependent condition in a `while` loop over a Python "
                                          "condition (which is unrolled) is not supported",
                                          exit_word(kind)),
                              f.range())
          .with_help("loop with `for` over a range or list (a tensor-dependent `break`/`continue` is supported "
                     "there), or with `while` over a tensor condition (an ONNX Loop)");
    boundary = loops_.back().body;
  }
  Path path;
  bool loop = false;
  if (!boundary || !find_path(*boundary, s, path, loop))
    throw Diagnostic::error(fmt::format("internal error: the statement after this `{}` was not found", exit_word(kind)),
                            f.range());
  if (loop && kind == Exit::Return)
    throw Diagnostic::error("`return` under a tensor-dependent condition in a `while` loop over a Python condition "
                            "(which is unrolled) is not supported",
                            f.range())
        .with_help("loop with `for` over a range or list, or with `while` over a tensor condition (an ONNX Loop); "
                   "a tensor-dependent `return` is supported in both");
  if (loop)
    throw Diagnostic::error(fmt::format("`{}` under a tensor-dependent condition in a `while` loop over a Python "
                                        "condition (which is unrolled) is not supported",
                                        exit_word(kind)),
                            f.range())
        .with_help("loop with `for` over a range or list (a tensor-dependent `break`/`continue` is supported "
                   "there), or with `while` over a tensor condition (an ONNX Loop)");
  for (size_t level = path.size(); level-- > 0;) {
    const eval::Block& b = *path[level].first;
    for (size_t j = path[level].second + 1; j < b.size(); ++j) {
      Exit x = eval::exec_stmt(I, f, b[j]);
      check_guards(I, f, b[j]);
      if (x != Exit::Normal) return x;
    }
  }
  return Exit::Normal;
}

void Hook::check_guards(Interp& I, Frame& f, const eval::Stmt* st) {
  for (const Guard& g : guards_) {
    if (g.changed_at) {
      const auto& cs = g.state->containers;
      for (size_t k = 0; k < cs.size(); ++k) {
        if (g.changed_at->at(k)) continue;  // (noted already)
        std::vector<Value> now = FrameState::items_of(I, cs[k].obj, cs[k].is_list);
        bool changed = now.size() != cs[k].items.size();
        for (size_t i = 0; !changed && i < now.size(); ++i) changed = !same(now[i], cs[k].items[i]);
        if (changed) (*g.changed_at)[k] = f.code ? f.code->range(*st) : g.where;
      }
      continue;
    }
    const ContainerState* m = g.state->changed_container(I);
    if (!m) continue;
    g.state->restore_containers(I);
    throw Diagnostic::error(fmt::format("'{}' is changed under a tensor-dependent condition", m->name),
                            f.code ? f.code->range(*st) : g.where)
        .with_note(Diagnostic::note("the condition", g.where))
        .with_help("both branches become an ONNX If; Python objects can only follow one of them: compute the "
                   "value with tensor ops (torch.where) or move the change out of the branch");
  }
}

Exit Hook::exec_checked(Interp& I, Frame& f, const eval::Block& b) {
  for (const eval::Stmt* st : b) {
    Exit x = eval::exec_stmt(I, f, st);
    check_guards(I, f, st);
    if (x != Exit::Normal) return x;
  }
  return Exit::Normal;
}

Hook::IfBuild Hook::new_if(ir::Value* cond) {
  IfBuild b;
  b.where = T.rec.location();
  b.node = T.rec.node("If", {cond}, 0);
  b.node->set_attr("then_branch", ir::Attribute(std::make_unique<ir::Graph>("then_branch")));
  b.node->set_attr("else_branch", ir::Attribute(std::make_unique<ir::Graph>("else_branch")));
  b.g[0] = &b.node->attr("then_branch")->g();
  b.g[1] = &b.node->attr("else_branch")->g();
  return b;
}

void Hook::reset_branch(IfBuild& b, int k) {
  const char* name = k == 0 ? "then_branch" : "else_branch";
  T.rec.forget_graph(b.g[k]);
  b.node->set_attr(name, ir::Attribute(std::make_unique<ir::Graph>(name)));
  b.g[k] = &b.node->attr(name)->g();
}

void Hook::drop_if(IfBuild& b) {
  T.rec.forget_graph(b.g[0]);
  T.rec.forget_graph(b.g[1]);
  b.node->graph()->erase(b.node);
  b.node = nullptr;
}

Value Hook::poison(const SourceRange& where, const std::string& name, const std::string& reason) {
  return eval::make_poison(T.I, name, reason, where);
}

ir::Value* Hook::add_output(IfBuild& b, ir::Value* v0, ir::Value* v1, DType dt, const std::vector<ir::DimExpr>& s0,
                            const std::vector<ir::DimExpr>& s1) {
  b.g[0]->add_output(v0);
  b.g[1]->add_output(v1);
  ir::Value* out = b.node->add_output(ir::Type::tensor(elem(dt), s0));
  std::vector<ir::DimExpr> shape = s0;
  for (size_t i = 0; i < shape.size(); ++i)
    if (s0[i] != s1[i]) shape[i] = T.rec.fresh_symbol(out, static_cast<int64_t>(i));
  out->set_type(ir::Type::tensor(elem(dt), shape));
  return out;
}

Value Hook::merge(IfBuild& b, const Value& a, const Value& c, const std::string& name) {
  Interp& I = T.I;
  if (same(a, c)) return a;
  if (is_tensor(a) && is_tensor(c) && as_tensor(a)->value && as_tensor(a)->value == as_tensor(c)->value &&
      as_tensor(a)->dtype == as_tensor(c)->dtype && as_tensor(a)->shape == as_tensor(c)->shape)
    return a;  // the same value from both branches (e.g. returned by both, frozen apart)
  if (eval::is_poison(a)) return a;
  if (eval::is_poison(c)) return c;
  if (a.is_null() || c.is_null())
    return poison(b.where, name,
                  fmt::format("'{}' is assigned only in the {} branch of this tensor-dependent condition, so it is "
                              "unbound after it when the other branch runs",
                              name, a.is_null() ? "else" : "if"));
  if (eval::is_str(a) && eval::is_str(c) && eval::as_str(a)->view() == eval::as_str(c)->view()) return a;
  if (!is_symint(a) && !is_symint(c) && is_number(a) && is_number(c) && eval::is_true(I, eval::compare(I, eval::CmpOp::Eq, a, c)))
    return a;
  if ((eval::is_tuple(a) && eval::is_tuple(c)) || (eval::is_list(a) && eval::is_list(c))) {
    const auto& xa = eval::is_tuple(a) ? eval::as_tuple(a)->items : eval::as_list(a)->items;
    const auto& xc = eval::is_tuple(c) ? eval::as_tuple(c)->items : eval::as_list(c)->items;
    if (xa.size() == xc.size()) {
      std::vector<Value> items;
      for (size_t i = 0; i < xa.size(); ++i) items.push_back(merge(b, xa[i], xc[i], fmt::format("{}[{}]", name, i)));
      return eval::is_tuple(a) ? eval::new_tuple(I, std::move(items)) : eval::new_list(I, std::move(items));
    }
  }
  // Two plain dicts with the same keys in the same order (`return loss, dict(l1=loss)` in both arms):
  // a new dict of the merged values. (Subclasses may carry state beyond their items: not merged.)
  if (eval::is_dict(a) && eval::is_dict(c) && I.type_of(a) == I.t.dict && I.type_of(c) == I.t.dict) {
    std::vector<Value> xa = FrameState::items_of(I, a, false), xc = FrameState::items_of(I, c, false);
    bool same_keys = xa.size() == xc.size();
    for (size_t i = 0; same_keys && i < xa.size(); i += 2)
      same_keys = same_key(xa[i], xc[i]);
    if (same_keys) {
      Value d = eval::new_dict(I);
      for (size_t i = 0; i + 1 < xa.size(); i += 2) {
        std::string item = eval::is_str(xa[i]) ? fmt::format("{}['{}']", name, eval::as_str(xa[i])->view())
                                               : fmt::format("an item of {}", name);
        eval::dict_set(I, eval::as_dict(d), xa[i], merge(b, xa[i + 1], xc[i + 1], item));
      }
      return d;
    }
  }
  bool maybe_none = (a.is_none() && is_tensor(c)) || (is_tensor(a) && c.is_none()) ||
                    (is_tensor(a) && as_tensor(a)->present) || (is_tensor(c) && as_tensor(c)->present);
  if (maybe_none)
    if (Value r = merge_maybe_none(b, a, c)) return r;
  bool tensors = is_tensor(a) || is_tensor(c) || (is_number(a) && is_number(c));
  if (!tensors)
    return poison(b.where, name,
                  fmt::format("'{}' holds a different Python {} in each branch of this tensor-dependent condition",
                              name, eval::type_name(I, a) == eval::type_name(I, c) ? "object" : "type"));
  std::optional<DType> dt = merged_dtype(T, a, c);
  auto describe = [&](const Value& v) {
    if (!is_tensor(v)) return fmt::format("a Python {}", eval::type_name(I, v));
    std::string dt(info(as_tensor(v)->dtype).name);
    bool vowel = !dt.empty() && std::string_view("aeiou").find(dt[0]) != std::string_view::npos;
    return fmt::format("{} {} tensor of rank {}", vowel ? "an" : "a", dt, as_tensor(v)->rank());
  };
  std::vector<ir::DimExpr> s0 = shape_of(a), s1 = shape_of(c);
  if (!dt || s0.size() != s1.size())
    return poison(b.where, name,
                  fmt::format("'{}' is {} in the if branch but {} in the else branch of this tensor-dependent "
                              "condition; both branches must give the same dtype and rank",
                              name, describe(a), describe(c)));
  ir::Value* v0 = in_branch(b, 0, [&] { return tensor_value(T, a, *dt); });
  ir::Value* v1 = in_branch(b, 1, [&] { return tensor_value(T, c, *dt); });
  ir::Value* out = add_output(b, v0, v1, *dt, s0, s1);
  return new_tensor(T, out, *dt, out->type().dims());
}

namespace {

// `t is None` for a tensor that is None on some runs (core.h: present): its negated flag, which an
// `if` on it narrows by (Hook::narrowing). The evaluator asks this only once such a tensor exists
// (merge_maybe_none installs it): until then `x is None` stays the evaluator's fast compare.
Value tensor_is_none(Interp& I, const Value& v) {
  if (!is_tensor(v) || !as_tensor(v)->present) return Value();
  Torch& T = torch_state();
  Value r = symbolic_not(T, new_tensor(T, as_tensor(v)->present, DType::Bool, {}));
  as_tensor(r)->none_test = eval::Ref<TensorObj>(as_tensor(v));
  return r;
}

}  // namespace

Value Hook::merge_maybe_none(IfBuild& b, const Value& a, const Value& c) {
  const Value* arm[2] = {&a, &c};
  DType dt;
  std::vector<ir::DimExpr> shape[2];
  if (is_tensor(a) && is_tensor(c)) {
    std::optional<DType> m = merged_dtype(T, a, c);
    if (!m || as_tensor(a)->rank() != as_tensor(c)->rank()) return Value();  // the usual error
    dt = *m;
    shape[0] = shape_of(a), shape[1] = shape_of(c);
  } else {
    int t = is_tensor(a) ? 0 : 1;
    if (!arm[1 - t]->is_none()) return Value();
    dt = as_tensor(*arm[t])->dtype;
    shape[0] = shape[1] = as_tensor(*arm[t])->shape;
    for (const ir::DimExpr& d : shape[t])
      if (!T.rec.computable_in(d, b.g[1 - t])) return Value();
  }
  ir::Value* v[2];
  ir::Value* flag[2];
  for (int k = 0; k < 2; ++k) {
    const Value& x = *arm[k];
    v[k] = in_branch(b, k, [&] {
      if (!x.is_none()) return tensor_value(T, x, dt);
      return T.rec.emit("Expand", {T.rec.const_scalar(elem(dt), 0), T.rec.shape_value(shape[k])},
                        ir::Type::tensor(elem(dt), shape[k]));
    });
    flag[k] = in_branch(b, k, [&] {
      if (is_tensor(x) && as_tensor(x)->present) return as_tensor(x)->present;
      return T.rec.const_scalar(ir::ElementType::Bool, x.is_none() ? 0 : 1);
    });
  }
  ir::Value* out = add_output(b, v[0], v[1], dt, shape[0], shape[1]);
  ir::Value* present = add_output(b, flag[0], flag[1], DType::Bool, {}, {});
  Value r = new_tensor(T, out, dt, out->type().dims());
  as_tensor(r)->present = present;
  T.present_where[present] = b.where;
  T.I.symbolic.is_none = &tensor_is_none;
  return r;
}

ir::Value* Hook::in_branch(IfBuild& b, int k, const std::function<ir::Value*()>& fn) {
  return in_region(T, b.g[k], [&] {
    if (!ends_ || !ends_->end[k]) return fn();
    const FrameState& s = *ends_->state;
    struct Restore {
      const FrameState& s;
      ~Restore() { s.restore_tensors(s.tensor_states); }
    } restore{s};
    s.restore_tensors(*ends_->end[k]);
    return fn();
  });
}

std::vector<eval::VarRef> Hook::frame_vars(Frame& f, const std::vector<eval::VarRef>& otherwise) {
  if (!f.code || !f.fast) return otherwise;
  std::vector<eval::VarRef> vars;
  std::vector<bool> is_cell(f.code->nslots, false);
  for (uint32_t k : f.code->cell_slots) is_cell[k] = true;
  for (uint32_t k : f.code->free_slots) is_cell[k] = true;
  for (uint32_t k = 0; k < f.code->nslots; ++k) {
    eval::VarRef r;
    r.kind = is_cell[k] ? eval::VarRef::CellVar : eval::VarRef::Fast;
    r.slot = k;
    r.name = k < f.code->slot_names.size() ? f.code->slot_names[k] : nullptr;
    if (r.kind == eval::VarRef::CellVar && !(f.fast[k].is_obj() && f.fast[k].obj()->type->layout == eval::Layout::Cell))
      continue;
    vars.push_back(r);
  }
  return vars;
}

// A list, dict or instance's attributes changed in an arm: when both arms leave it the same structure
// (a list of the same length, a dict with the same keys in the same order), each item is merged as a
// variable is (`outs.append(a)` / `outs.append(b)` gives an If output; a tensor in one arm and None in
// the other a tensor that is None on some runs). Otherwise Python cannot follow both: an error at the
// statement that first changed it.
static bool same_items(const std::vector<Value>& x, const std::vector<Value>& y) {
  if (x.size() != y.size()) return false;
  for (size_t i = 0; i < x.size(); ++i)
    if (!same(x[i], y[i])) return false;
  return true;
}

// Container k changed in an arm, and the arms leave it lists of different lengths or dicts with
// different keys (or it is a list with no Python items: an ONNX sequence, a Loop's stacked items),
// which no If output can hold.
static bool unmergeable_container(const FrameState& state, const Branch& A, const Branch& B, size_t k) {
  const ContainerState& c = state.containers[k];
  const std::vector<Value>& x0 = A.containers[k];
  const std::vector<Value>& x1 = B.containers[k];
  if (same_items(x0, c.items) && same_items(x1, c.items)) return false;
  bool mergeable = x0.size() == x1.size() && !is_seq_list(c.obj) && !holds_scan_output(c.obj);
  for (size_t i = 0; mergeable && !c.is_list && i < x0.size(); i += 2) mergeable = same_key(x0[i], x1[i]);
  return !mergeable;
}

static bool unmergeable_containers(const FrameState& state, const Branch& A, const Branch& B) {
  for (size_t k = 0; k < state.containers.size(); ++k)
    if (unmergeable_container(state, A, B, k)) return true;
  return false;
}

void Hook::merge_containers(IfBuild& b, const FrameState& state, const Branch& A, const Branch& B,
                            const std::vector<std::optional<SourceRange>>& changed_at) {
  Interp& I = T.I;
  for (size_t k = 0; k < state.containers.size(); ++k) {
    const ContainerState& c = state.containers[k];
    const std::vector<Value>& x0 = A.containers[k];
    const std::vector<Value>& x1 = B.containers[k];
    if (same_items(x0, c.items) && same_items(x1, c.items)) continue;
    if (unmergeable_container(state, A, B, k))
      throw Diagnostic::error(fmt::format("'{}' is changed under a tensor-dependent condition", c.name),
                              changed_at[k] ? *changed_at[k] : b.where)
          .with_note(Diagnostic::note("the condition", b.where))
          .with_help("both branches become an ONNX If; Python objects can only follow one of them: compute the "
                     "value with tensor ops (torch.where) or move the change out of the branch");
    std::vector<Value> merged;
    for (size_t i = 0; i < x0.size(); ++i) {
      if (!c.is_list && i % 2 == 0) {
        merged.push_back(x0[i]);
        continue;
      }
      std::string name = c.is_list ? fmt::format("{}[{}]", c.name, i)
                                   : eval::is_str(x0[i - 1]) ? fmt::format("{}['{}']", c.name, eval::as_str(x0[i - 1])->view())
                                                              : fmt::format("an item of {}", c.name);
      merged.push_back(merge(b, x0[i], x1[i], name));
    }
    if (c.is_list) {
      eval::as_list(c.obj)->items = std::move(merged);
      continue;
    }
    eval::Dict* d = eval::as_dict(c.obj);
    eval::dict_clear(I, d);
    for (size_t i = 0; i + 1 < merged.size(); i += 2) eval::dict_set(I, d, merged[i], merged[i + 1]);
  }
}

void Hook::merge_tensors(IfBuild& b, const FrameState& state, const std::vector<TensorState>& A,
                         const std::vector<TensorState>& B) {
  auto changed = [&](size_t i) {
    return !A[i].same_as(state.tensor_states[i]) || !B[i].same_as(state.tensor_states[i]);
  };
  // A view whose base changed is not merged itself: a write through a view writes its base, and once
  // the base holds the merged values the view is derived from them again when next read (its
  // base_version is the one before the If). Merged on its own, it would read its base as it was
  // before the If (or as an arm left it, in that arm's region).
  std::unordered_set<const TensorObj*> written;
  for (size_t i = 0; i < state.tensors.size(); ++i)
    if (changed(i)) written.insert(state.tensors[i].get());
  auto base_written = [&](const TensorObj* t) {
    for (const TensorObj* x = t->base.get(); x; x = x->base.get())
      if (written.count(x)) return true;
    return false;
  };
  for (size_t i = 0; i < state.tensors.size(); ++i) {
    const TensorState& t0 = A[i];
    const TensorState& t1 = B[i];
    if (!changed(i)) continue;
    TensorObj* obj = state.tensors[i].get();
    if (base_written(obj)) continue;
    if (t0.dtype != t1.dtype || t0.shape.size() != t1.shape.size())
      throw Diagnostic::error(fmt::format("the tensor '{}' is changed in place to different dtypes or ranks in the two "
                                          "branches of this tensor-dependent condition",
                                          state.tensor_names[i]),
                              b.where);
    auto value_in = [&](int k, const TensorState& ts) {
      return in_region(T, b.g[k], [&] {
        ts.apply(obj);
        ir::Value* v = value_of(T, obj);
        return v;
      });
    };
    ir::Value* v0 = value_in(0, t0);
    ir::Value* v1 = value_in(1, t1);
    ir::Value* out = add_output(b, v0, v1, t0.dtype, t0.shape, t1.shape);
    TensorState merged = state.tensor_states[i];
    merged.value = out;
    merged.shape = out->type().dims();
    merged.data = nullptr;
    merged.fill.reset();
    merged.uninitialized = merged.random = false;
    merged.version = std::max(t0.version, t1.version) + 1;
    merged.apply(obj);
  }
}

// ---- if --------------------------------------------------------------------------------------------------

namespace {

// A tensor's `present` flag set aside while an arm where it is known to be a tensor runs.
struct PresentAside {
  TensorObj* t;
  ir::Value* p;
  explicit PresentAside(TensorObj* t) : t(t), p(t ? t->present : nullptr) {
    if (t) t->present = nullptr;
  }
  ~PresentAside() {
    if (t) t->present = p;
  }
  PresentAside(const PresentAside&) = delete;
  PresentAside& operator=(const PresentAside&) = delete;
};

}  // namespace

Exit Hook::on_if(Interp& I, Frame& f, const eval::IfStmt& s, const Value& cond) {
  f.cur = s.test;
  ir::Value* c = condition_value(T, cond);
  IfArms arms;
  arms.at = &s;
  arms.vars = s.body_summary.assigned;
  for (const eval::VarRef& v : s.orelse_summary.assigned) {
    bool dup = false;
    for (const eval::VarRef& w : arms.vars) dup = dup || (w.kind == v.kind && w.slot == v.slot && w.name == v.name);
    if (!dup) arms.vars.push_back(v);
  }
  auto leaves = [](const eval::BlockSummary& b) { return b.may_return || b.may_break || b.may_continue; };
  if ((leaves(s.body_summary) || leaves(s.orelse_summary)) && f.code && f.fast) {
    // A branch that leaves early makes the other run the rest of the function or loop body, which
    // may assign any variable: all of them are merged.
    arms.vars = frame_vars(f, arms.vars);
  }
  arms.arm[0] = [&] { return exec_checked(I, f, s.body); };
  arms.arm[1] = [&] { return exec_checked(I, f, s.orelse); };
  arms.may_raise[0] = s.body_summary.may_raise;
  arms.may_raise[1] = s.orelse_summary.may_raise;
  arms.fallback = [&](int raised) { return eval::exec_block(I, f, raised == 0 ? s.orelse : s.body); };
  if (is_tensor(cond)) {
    arms.assumed = as_tensor(cond)->assumed;
    arms.assumed_unless_empty = as_tensor(cond)->assumed_unless_empty;
    arms.narrow = narrowing(I, f, cond);
    for (const eval::VarRef& v : arms.narrow.vars) {
      bool listed = false;
      for (const eval::VarRef& w : arms.vars) listed = listed || (w.kind == v.kind && w.slot == v.slot);
      if (!listed) arms.vars.push_back(v);
    }
  }
  return record_if(I, f, c, arms);
}

namespace {

// Whether two values an If's arms leave hold tensors that differ in rank or dtype (or, with `shapes`,
// in any size) at the same place (through tuples and lists of the same length): one If output
// cannot hold the first two, and holds the last only with sizes unknown until it runs.
bool unmergeable_rank(const Value& a, const Value& b, bool shapes) {
  if (is_tensor(a) && is_tensor(b)) {
    const TensorObj *x = as_tensor(a), *y = as_tensor(b);
    return x->dtype != y->dtype || x->rank() != y->rank() || (shapes && x->shape != y->shape);
  }
  // A Python number next to a tensor (`if C == 1: return 0.0` before a per-sample loss): the number
  // would be a 0-d If output, so only a 0-d tensor merges with it.
  if (is_tensor(a) != is_tensor(b)) {
    const Value& n = is_tensor(a) ? b : a;
    if (is_number(n) && !eval::is_poison(n)) return as_tensor(is_tensor(a) ? a : b)->rank() != 0;
  }
  bool seqs = (eval::is_tuple(a) && eval::is_tuple(b)) || (eval::is_list(a) && eval::is_list(b));
  if (!seqs) return false;
  const auto& x = eval::is_tuple(a) ? eval::as_tuple(a)->items : eval::as_list(a)->items;
  const auto& y = eval::is_tuple(b) ? eval::as_tuple(b)->items : eval::as_list(b)->items;
  if (x.size() != y.size()) return false;
  for (size_t i = 0; i < x.size(); ++i)
    if (unmergeable_rank(x[i], y[i], shapes)) return true;
  return false;
}

bool unmergeable_ranks(const std::vector<Value>& a, const std::vector<Value>& b, bool shapes) {
  for (size_t i = 0; i < a.size() && i < b.size(); ++i)
    if (unmergeable_rank(a[i], b[i], shapes)) return true;
  return false;
}

}  // namespace

Exit Hook::record_if(Interp& I, Frame& f, ir::Value* c, IfArms& arms) {
  const std::vector<eval::VarRef>& vars = arms.vars;
  // Warnings the arms give while recorded: when one arm is dropped (arms.fallback runs the kept one
  // again, which warns anew) they are not the file's, except the fallback's own warning.
  const size_t warnings_before = T.warnings.size();
  const std::set<std::string> said_before = T.assumptions_said;
  size_t warnings_of_arms = 0;
  std::function<Exit(int)> fallback = arms.fallback;
  arms.fallback = [&](int kept) {
    T.warnings.erase(T.warnings.begin() + static_cast<std::ptrdiff_t>(warnings_before),
                     T.warnings.begin() + static_cast<std::ptrdiff_t>(warnings_of_arms));
    T.assumptions_said = said_before;
    return fallback(kept);
  };
  eval::VarSnapshot before = eval::snapshot_vars(I, f, vars);
  FrameState state = FrameState::capture(I, f, vars);
  Value retval_before = f.retval;
  const int sym_before = T.rec.symbol_count();
  IfBuild b = new_if(c);
  // The loop this `if` is in (by index: the arms may record loops of their own, which moves loops_).
  const bool in_loop = loop_of(f) != nullptr;
  const size_t loop_at = in_loop ? loops_.size() - 1 : 0;
  auto L = [&]() -> LoopCtx& { return loops_[loop_at]; };
  ir::Value* keep_before = in_loop ? L().keep_going : nullptr;
  ir::Value* returned_before = in_loop ? L().returned : nullptr;
  Value ret_before = in_loop ? L().ret : Value();

  std::vector<std::optional<SourceRange>> changed_at(state.containers.size());
  guards_.push_back({&state, b.where, &changed_at});
  struct PopGuard {
    std::vector<Guard>& g;
    ~PopGuard() { g.pop_back(); }
  } pop_guard{guards_};
  // Tensors older than this If that the arms write in place without the frame reaching them (a
  // parameter written through a view made in the arm, `self.w.data.copy_(...)`): logged at their
  // first write, undone after each arm and merged like the tracked ones.
  WriteLog log;
  LogWrites logging(T, log, state);
  auto run = [&](int k, Exit cont) {
    Branch r;
    if (in_loop) L().keep_going = nullptr;
    // Narrowing (IfArms::narrow): None in one arm, a plain tensor in the other.
    TensorObj* narrowed = arms.narrow.obj.get();
    PresentAside aside(narrowed && k != arms.narrow.none_arm ? narrowed : nullptr);
    if (narrowed && k == arms.narrow.none_arm)
      for (const eval::VarRef& v : arms.narrow.vars) eval::write_var(I, f, v, Value::none());
    in_region(T, b.g[k], [&] {
      try {
        r.exit = arms.arm[k]();
        if (r.exit == Exit::Normal && cont != Exit::Normal) {
          // Inside a loop, a `return` in the other arm ends the loop like a `break` (with a pending
          // return): this arm runs the rest of the loop's body.
          Exit kind = cont == Exit::Return && in_loop ? Exit::Break : cont;
          r.exit = continuation(I, f, arms.at, kind);
          if (kind == Exit::Return && r.exit == Exit::Normal) {  // fell off the end: returns None
            r.exit = Exit::Return;
            r.fell_off = true;
            f.retval = Value::none();
          } else if (kind != Exit::Return && r.exit == Exit::Normal) {
            r.exit = Exit::Continue;  // reached the end of the loop's body: the iteration ended
          }
        }
        // The returned tensors as they are now: merging the arms' in-place changes rebinds the objects.
        if (r.exit == Exit::Return) r.returns = freeze(f.retval);
      } catch (eval::PyException& e) {
        r.raised = true;
        r.exc = e.exc;
      }
      return 0;
    });
    r.g = b.g[k];
    if (!r.raised) {
      r.containers = state.containers_now(I);
      for (const eval::VarRef& v : vars) r.vars.push_back(eval::read_var(I, f, v));
      r.retval = r.exit == Exit::Return ? r.returns : f.retval;
      log.adopt(state);
      r.tensors = state.tensors_now();
      if (in_loop) {
        r.keep_going = L().keep_going;
        r.returned = L().returned;
        r.ret = L().ret;
      }
    }
    eval::restore_vars(I, f, vars, before);
    log.adopt(state);  // (an arm that raised)
    state.restore_tensors(state.tensor_states);
    state.restore_containers(I);
    f.retval = retval_before;
    if (in_loop) {
      L().keep_going = keep_before;
      L().returned = returned_before;
      L().ret = ret_before;
    }
    return r;
  };
  auto early = [](const Branch& r) { return !r.raised && r.exit != Exit::Normal; };

  Branch A = run(0, Exit::Normal);
  Branch B = run(1, early(A) ? A.exit : Exit::Normal);
  if (early(B) && !early(A) && !A.raised) {
    reset_branch(b, 0);
    A = run(0, B.exit);
  }
  // A narrowed variable neither arm assigned is the tensor it was (its in-place changes are merged
  // with the other tensors'), not None-or-tensor again through new If outputs.
  for (const eval::VarRef& v : arms.narrow.vars) {
    for (size_t j = 0; j < vars.size() && !A.raised && !B.raised; ++j) {
      if (vars[j].kind != v.kind || vars[j].slot != v.slot) continue;
      Branch& none_arm = arms.narrow.none_arm == 0 ? A : B;
      Branch& tensor_arm = arms.narrow.none_arm == 0 ? B : A;
      if (none_arm.vars[j].is_none() && tensor_arm.vars[j].is(Value::borrow(arms.narrow.obj.get())))
        none_arm.vars[j] = tensor_arm.vars[j];
    }
  }
  warnings_of_arms = T.warnings.size();
  if (A.raised || B.raised) {
    // An arm may raise by its own `raise`/`assert` statements, or by a failed `assert` anywhere in
    // the calls it makes: an assert fails only on values known now (sizes, Python values), so that
    // arm would raise in PyTorch too (CondenseNet's stage check guards code asserting a 1x1 kernel).
    // Any other exception may be onnxify's own limit, and stays an error.
    const int raised_arm = A.raised ? 0 : 1;
    const eval::Value& exc = A.raised ? A.exc : B.exc;
    bool may_raise = arms.may_raise[raised_arm] ||
                     eval::exception_matches(I, exc, eval::Value::borrow(I.exc.AssertionError));
    drop_if(b);
    // The arm that raised is the one input sizes of at least 2 do not take (the condition compares
    // them with small numbers, as `x.numel() == 0` guards of empty batches do): the other is kept
    // under that assumption, as when the arms' shapes differ (below).
    if (!(A.raised && B.raised) && arms.assumed && (*arms.assumed ? 1 : 0) == raised_arm) {
      T.warnings.push_back(Diagnostic::warning(
          fmt::format("the {} branch of this condition on the model's run-time input sizes raises an exception: the "
                      "export assumes those sizes are at least 2 (as torch.export does) and keeps the {} branch",
                      raised_arm == 0 ? "if" : "else", raised_arm == 0 ? "else" : "if"),
          b.where));
      return arms.fallback(raised_arm);
    }
    if (!(A.raised && B.raised) && !may_raise) {
      // A condition on the checkpoint's values only (a buffer holding a resolution, a step count or
      // an initialized flag), whose other arm fails as code written for other values would: the
      // weights are graph inputs of a kind (a file may take another checkpoint), but the arm eager
      // takes with this checkpoint is the only one that can be recorded, so it is the one kept.
      if (std::shared_ptr<const ir::Tensor> v = checkpoint_values(T, c); v && v->numel() == 1) {
        const int taken = v->float_at(0) != 0 ? 0 : 1;
        if (taken != raised_arm) {
          std::string type(I.type_of(exc)->name_view()), text = eval::str_string(I, exc);
          T.warnings.push_back(Diagnostic::warning(
              fmt::format("this condition depends only on the checkpoint's values, and recording its {} branch "
                          "raised {}{}{}: the export keeps the {} branch, the one this checkpoint takes (export "
                          "again for weights that take the other)",
                          raised_arm == 0 ? "if" : "else", type, text.empty() ? "" : ": ", text,
                          raised_arm == 0 ? "else" : "if"),
              b.where));
          return arms.fallback(raised_arm);
        }
      }
    }
    if ((A.raised && B.raised) || !may_raise) throw eval::PyException{exc};
    T.warnings.push_back(Diagnostic::warning(
        fmt::format("the {} branch of this tensor-dependent condition raises an exception, which ONNX cannot "
                    "express: the check is dropped and the {} branch is always taken",
                    A.raised ? "if" : "else", A.raised ? "else" : "if"),
        b.where));
    return arms.fallback(raised_arm);
  }
  if (!in_loop && A.exit == Exit::Return && B.exit == Exit::Return && A.fell_off != B.fell_off) {
    // One arm returns a value, the other reaches the end of the function (an if/elif chain on tensor
    // conditions with no final return: `if alpha > 0: return f(x)`): Python returns None there, which
    // no ONNX If output holds next to the other arm's tensors. That path is dropped with a warning,
    // as an arm that raises is.
    const int off = A.fell_off ? 0 : 1;
    const Branch& kept = off == 0 ? B : A;
    if (!kept.retval.is_none() && !eval::is_poison(kept.retval)) {
      drop_if(b);
      T.warnings.push_back(Diagnostic::warning(
          fmt::format("when this tensor-dependent condition is {}, the function reaches its end and returns None, "
                      "which ONNX cannot express next to the {} branch's return value: that path is dropped and "
                      "the {} branch is always taken",
                      off == 0 ? "true" : "false", off == 0 ? "else" : "if", off == 0 ? "else" : "if"),
          b.where));
      return arms.fallback(off);
    }
  }
  const bool shapes = arms.assumed_unless_empty;
  const bool lists = arms.assumed && unmergeable_containers(state, A, B);
  if (arms.assumed && (lists || unmergeable_ranks(A.vars, B.vars, shapes) ||
                       (A.exit == Exit::Return && B.exit == Exit::Return &&
                        unmergeable_rank(A.retval, B.retval, shapes)))) {
    // `if x.size(0) == 1: y = x.squeeze()...` with a run-time batch: the branches give tensors of
    // different ranks, which no ONNX If output holds; or only one of them appends to a list (`if
    // x.numel() > 0: outs.append(scan(x))`), which Python cannot follow both ways. The condition compares input dims with small
    // numbers, so the branch those dims take when they are at least 2 is kept, the assumption
    // torch.export makes about input dims (and squeeze() here), said in a warning. A check that only
    // an empty input fails (`if x.numel() > 0:`, the empty-batch wrappers of detection code) is
    // settled so as soon as the shapes differ, which would leave the sizes after the If unknown: the
    // ops of the kept branch give empty results on an empty batch anyway. Other branches stay an If.
    drop_if(b);
    T.warnings.push_back(Diagnostic::warning(
        fmt::format("the branches of this condition on the model's run-time input sizes {}, which one ONNX If "
                    "cannot hold{}: the export assumes those sizes are at least 2 (as torch.export does) and keeps "
                    "the {} branch; give a size of 0 or 1 as a fixed dim to export that case",
                    lists ? "leave a Python list or dict with different items" : "give tensors of different shapes",
                    lists ? "" : " with known sizes", *arms.assumed ? "if" : "else"),
        b.where));
    return arms.fallback(*arms.assumed ? 1 : 0);
  }
  // Both ended the same way now (a branch that left early made the other run the rest).
  auto kind = [&](const Branch& r) {
    return r.exit == Exit::Return ? 2 : r.exit == Exit::Normal ? 0 : 1;  // 1: the loop iteration ended
  };
  if (in_loop && kind(A) != kind(B) && (kind(A) == 2 || kind(B) == 2)) {
    // One arm returns, the other ends the loop's iteration: the return ends the loop as a `break`
    // and leaves its value pending (settled after the loop).
    for (Branch* r : {&A, &B}) {
      if (r->exit != Exit::Return) continue;
      r->exit = Exit::Break;
      r->returned = T.rec.const_scalar(ir::ElementType::Bool, 1);
      r->ret = r->returns;
    }
  }
  if (kind(A) != kind(B))
    throw Diagnostic::error(fmt::format("one branch of this tensor-dependent condition ends with `{}` and the other "
                                        "with `{}`; onnxify cannot merge them",
                                        exit_word(A.exit), exit_word(B.exit)),
                            b.where);
  Exit result = Exit::Normal;
  // A tensor first written by arm B was as it was before the If at the end of arm A.
  for (Branch* r : {&A, &B})
    while (r->tensors.size() < state.tensors.size()) r->tensors.push_back(state.tensor_states[r->tensors.size()]);
  BranchEnds ends{&state, {&A.tensors, &B.tensors}};
  {
    UseEnds use(*this, &ends);
    for (size_t i = 0; i < vars.size(); ++i) {
      Value m = merge(b, A.vars[i], B.vars[i], var_name(vars[i], f));
      if (!same(m, before.values[i])) eval::write_var(I, f, vars[i], m);
    }
    merge_containers(b, state, A, B, changed_at);
  }
  merge_tensors(b, state, A.tensors, B.tensors);
  if (in_loop && (A.returned != returned_before || B.returned != returned_before))
    merge_returned(b, L(), A.returned, A.ret, B.returned, B.ret, sym_before);
  if (kind(A) == 2) {
    f.retval = merge(b, A.retval, B.retval, "the return value");
    result = Exit::Return;
    if (eval::is_poison(f.retval) && !eval::is_poison(A.retval) && !eval::is_poison(B.retval)) {
      // Returns that cannot merge are an error now: nothing else could use them.
      eval::poison_matters(I, f.retval, "the return value");
    }
  } else if (kind(A) == 1) {
    result = Exit::Continue;
    if (A.exit == Exit::Break && B.exit == Exit::Break) {
      result = Exit::Break;
    } else if (in_loop) {
      LoopCtx* loop = &L();
      auto flag = [&](const Branch& r) -> ir::Value* {
        if (r.exit == Exit::Break) return T.rec.const_scalar(ir::ElementType::Bool, 0);
        if (r.keep_going) return r.keep_going;
        return T.rec.const_scalar(ir::ElementType::Bool, 1);
      };
      if (!keep_before && (A.exit == Exit::Break || B.exit == Exit::Break)) loop->broke_at = b.where;
      if ((A.exit == Exit::Break && !B.keep_going) || (B.exit == Exit::Break && !A.keep_going)) {
        // One branch breaks, the other goes on: the flag is the condition itself (or its negation).
        loop->keep_going = A.exit == Exit::Break ? T.rec.emit("Not", {c}, ir::Type::tensor(ir::ElementType::Bool, {}))
                                                 : c;
      } else if (A.exit == Exit::Break || B.exit == Exit::Break || A.keep_going || B.keep_going) {
        ir::Value* out = add_output(b, flag(A), flag(B), DType::Bool, {}, {});
        loop->keep_going = out;
      }
    }
  }
  if (b.node->num_outputs() == 0) drop_if(b);  // the branches changed nothing the rest can see
  return result;
}

void Hook::merge_returned(IfBuild& b, LoopCtx& loop, ir::Value* r0, const Value& v0, ir::Value* r1, const Value& v1,
                          int before) {
  auto flag = [&](ir::Value* r) { return r ? r : T.rec.const_scalar(ir::ElementType::Bool, 0); };
  ir::Value* f0 = flag(r0);
  ir::Value* f1 = flag(r1);
  loop.returned = add_output(b, f0, f1, DType::Bool, {}, {});
  Value a = v0, c = v1;
  if (a.is_null() && c.is_null()) return;
  // The path that has not returned carries a stand-in of the same dtypes and ranks (never read).
  if (a.is_null()) a = in_region(T, b.g[0], [&] { return ret_placeholder(c, before); });
  if (c.is_null()) c = in_region(T, b.g[1], [&] { return ret_placeholder(a, before); });
  loop.ret = merge(b, a, c, "the return value");
  if (eval::is_poison(loop.ret) && !eval::is_poison(a) && !eval::is_poison(c))
    eval::poison_matters(T.I, loop.ret, "the return value");
}

Value Hook::ret_placeholder(const Value& like, int before) {
  if (is_tensor(like)) {
    TensorObj* t = as_tensor(like);
    std::vector<ir::DimExpr> shape = t->shape;
    for (ir::DimExpr& d : shape)
      if (d.is_unknown() || region_local(d, before)) d = ir::DimExpr(int64_t{0});
    return new_fill(T, 0.0, t->dtype, shape);
  }
  if (eval::is_tuple(like) || eval::is_list(like)) {
    const auto& xs = eval::is_tuple(like) ? eval::as_tuple(like)->items : eval::as_list(like)->items;
    std::vector<Value> items;
    for (const Value& x : xs) items.push_back(ret_placeholder(x, before));
    return eval::is_tuple(like) ? eval::new_tuple(T.I, std::move(items)) : eval::new_list(T.I, std::move(items));
  }
  return like;
}

Value Hook::freeze(const Value& v) {
  if (is_tensor(v)) return copy_of(T, as_tensor(v));
  if (eval::is_tuple(v) || eval::is_list(v)) {
    const auto& xs = eval::is_tuple(v) ? eval::as_tuple(v)->items : eval::as_list(v)->items;
    std::vector<Value> items;
    for (const Value& x : xs) items.push_back(freeze(x));
    return eval::is_tuple(v) ? eval::new_tuple(T.I, std::move(items)) : eval::new_list(T.I, std::move(items));
  }
  return v;
}

Exit Hook::settle_return(Interp& I, Frame& f, const eval::Stmt* s, ir::Value* returned, const Value& ret) {
  IfArms arms;
  arms.at = s;
  arms.vars = frame_vars(f, {});  // the rest of the function may assign any of them
  arms.arm[0] = [&] {
    f.retval = ret;
    return Exit::Return;
  };
  arms.arm[1] = [] { return Exit::Normal; };
  arms.fallback = [&](int raised) {
    if (raised == 1) {
      f.retval = ret;
      return Exit::Return;
    }
    return Exit::Normal;
  };
  return record_if(I, f, returned, arms);
}

// ---- conditional expressions and `and` / `or` ---------------------------------------------------------

// The arms of an expression's If (a conditional expression, `and`, `or`) may write tensors in place
// (`w.data.mul_(2) if c else w`, `c and t.add_(1).all()`): the write log of record_if notes the
// tensors older than the expression that they write (an expression assigns no variables, so the
// logged ones are all it tracks); each arm starts from their state before the expression.
Value Hook::run_expr_arm(ExprWrites& w, int k, const std::function<Value()>& fn) {
  struct Restore {
    ExprWrites& w;
    ~Restore() {
      w.log.adopt(w.state);  // (an arm that raised)
      w.state.restore_tensors(w.state.tensor_states);
    }
  } restore{w};
  Value v = fn();
  w.log.adopt(w.state);
  w.ends[k] = w.state.tensors_now();
  return v;
}

Value Hook::merge_expr(IfBuild& b, ExprWrites& w, const Value& a, const Value& c, const std::string& name) {
  for (std::vector<TensorState>& end : w.ends)  // (an arm that wrote nothing: the state before)
    while (end.size() < w.state.tensors.size()) end.push_back(w.state.tensor_states[end.size()]);
  BranchEnds arm_ends{&w.state, {&w.ends[0], &w.ends[1]}};
  Value m;
  {
    UseEnds use(*this, &arm_ends);
    m = merge(b, a, c, name);
  }
  merge_tensors(b, w.state, w.ends[0], w.ends[1]);
  if (b.node->num_outputs() == 0) drop_if(b);
  return m;
}

Hook::Narrowing Hook::narrowing(Interp& I, Frame& f, const Value& cond) {
  Narrowing n;
  TensorObj* t = is_tensor(cond) ? as_tensor(cond)->none_test.get() : nullptr;
  if (!t || !t->present) return n;
  n.obj = eval::Ref<TensorObj>(t);
  n.none_arm = as_tensor(cond)->none_test_negated ? 1 : 0;
  if (f.code && f.fast)
    for (const eval::VarRef& v : frame_vars(f, {}))
      if (eval::read_var(I, f, v).is(Value::borrow(t))) n.vars.push_back(v);
  return n;
}

Value Hook::Narrowing::run(Interp& I, Frame& f, int k, const std::function<Value()>& fn) const {
  TensorObj* t = obj.get();
  if (!t) return fn();
  Torch& T = torch_state();
  if (k == none_arm) {
    struct Rebind {
      Interp& I;
      Frame& f;
      const std::vector<eval::VarRef>& vars;
      Value was;
      ~Rebind() {
        for (const eval::VarRef& v : vars) eval::write_var(I, f, v, was);
      }
    } rebind{I, f, vars, Value::borrow(t)};
    for (const eval::VarRef& v : vars) eval::write_var(I, f, v, Value::none());
    return fn();
  }
  PresentAside aside(t);
  Value r = fn();
  // The tensor itself as the arm's value: a plain tensor of its values (the object keeps its flag).
  if (r.is(Value::borrow(t))) return copy_of(T, t);
  return r;
}

Value Hook::on_ifexp(Interp& I, Frame& f, const eval::IfExpExpr& e, const Value& cond) {
  f.cur = e.test;
  ExprWrites w;
  LogWrites logging(T, w.log, w.state);
  IfBuild b = new_if(condition_value(T, cond));
  // `t if t is not None else d` for a tensor that is None on some runs: narrowed in each arm as an
  // `if` statement narrows (record_if), and the tensor arm's `t` a plain tensor, so the result is.
  Narrowing narrow = narrowing(I, f, cond);
  auto arm = [&](int k, const eval::Expr* x) {
    return run_expr_arm(w, k, [&] {
      return in_region(T, b.g[k], [&] { return narrow.run(I, f, k, [&] { return eval::eval(I, f, x); }); });
    });
  };
  Value a = arm(0, e.body);
  Value c = arm(1, e.orelse);
  Value m = merge_expr(b, w, a, c, "the conditional expression");
  if (eval::is_poison(m) && !eval::is_poison(a) && !eval::is_poison(c))
    eval::poison_matters(I, m, "the value of a conditional expression");
  return m;
}

Value Hook::eval_rest(Interp& I, Frame& f, const eval::BoolOpExpr& e, size_t from) {
  bool is_and = e.kind == eval::EK::And;
  for (size_t j = from;; ++j) {
    Value v = eval::eval(I, f, e.values[j]);
    if (j + 1 == e.values.size()) return v;
    f.cur = e.values[j];
    eval::Truth t = eval::condition_truth(I, f, e.values[j], v);
    if (t == eval::kSymbolic) return on_boolop(I, f, e, j, v);
    if (is_and ? t == eval::kFalse : t == eval::kTrue) return v;
  }
}

Value Hook::on_boolop(Interp& I, Frame& f, const eval::BoolOpExpr& e, size_t index, const Value& value) {
  // `a and rest` is `rest if a else a`; `a or rest` is `a if a else rest`.
  bool is_and = e.kind == eval::EK::And;
  const int rest_branch = is_and ? 0 : 1;  // the If's arm that evaluates the rest
  f.cur = e.values[index];
  const SourceRange where = f.range();
  // The rest raised `exc` (mmcv's `x.numel() == 0 and obsolete_torch_version(TORCH_VERSION, ...)`
  // with a name only defined for old PyTorch): when `value` compares input sizes with small numbers
  // and, with those sizes at least 2, already decides the expression, the rest is never evaluated
  // under that assumption (torch.export's), and the result is `value`.
  auto assumed_short_circuit = [&](eval::PyException& exc) {
    if (!is_tensor(value) || !as_tensor(value)->assumed || *as_tensor(value)->assumed == is_and) return false;
    T.warnings.push_back(Diagnostic::warning(
        fmt::format("the right operand of this `{}` raises {}; the left one compares the model's run-time input "
                    "sizes with small numbers: the export assumes those sizes are at least 2 (as torch.export "
                    "does), under which the left operand decides and the right one is not evaluated",
                    is_and ? "and" : "or", eval::type_name(I, exc.exc)),
        where));
    return true;
  };
  if (is_tensor(value) && as_tensor(value)->dtype == DType::Bool && as_tensor(value)->rank() == 0) {
    // `c and True` is c, `c and False` is False, `c or False` is c, `c or True` is True (c a bool
    // tensor): no If when the rest of the expression gives a Python bool (`q_len > 1 and mask is
    // None and causal` with a mask given is False, whatever q_len).
    // Both 0-d bool tensors: And / Or (ONNX ops have no side effects, so computing the right
    // operand on both paths changes nothing).
    // Unless the right operand writes tensors in place: then only the If keeps the writes to the
    // path that evaluates it (its ops, recorded here, are visible in both arms).
    ExprWrites w;
    Value r;
    try {
      LogWrites logging(T, w.log, w.state);
      r = run_expr_arm(w, rest_branch, [&] { return eval_rest(I, f, e, index + 1); });
    } catch (eval::PyException& exc) {
      if (!assumed_short_circuit(exc)) throw;
      return value;
    }
    if (w.state.tensors.empty()) {
      if (r.is_bool()) return r.b() == is_and ? value : r;
      if (is_tensor(r) && as_tensor(r)->dtype == DType::Bool && as_tensor(r)->rank() == 0) {
        ir::Value* v = T.rec.emit(is_and ? "And" : "Or", {value_of(T, as_tensor(value)), value_of(T, as_tensor(r))},
                                  ir::Type::tensor(ir::ElementType::Bool, {}));
        return new_tensor(T, v, DType::Bool, {});
      }
    }
    IfBuild b = new_if(condition_value(T, value));
    return is_and ? merge_expr(b, w, r, value, "the `and` expression") : merge_expr(b, w, value, r, "the `or` expression");
  }
  ExprWrites w;
  LogWrites logging(T, w.log, w.state);
  IfBuild b = new_if(condition_value(T, value));
  Value r;
  try {
    r = run_expr_arm(w, rest_branch, [&] {
      return in_region(T, b.g[rest_branch], [&] { return eval_rest(I, f, e, index + 1); });
    });
  } catch (eval::PyException& exc) {
    if (!assumed_short_circuit(exc)) throw;
    drop_if(b);
    return value;
  }
  Value m = rest_branch == 0 ? merge_expr(b, w, r, value, "the `and` expression")
                             : merge_expr(b, w, value, r, "the `or` expression");
  if (eval::is_poison(m) && !eval::is_poison(r) && !eval::is_poison(value))
    eval::poison_matters(I, m, is_and ? "the value of an `and` expression" : "the value of an `or` expression");
  return m;
}

}  // namespace cf

std::unique_ptr<eval::ControlFlowHook> make_control_flow_hook(Torch& T) { return std::make_unique<cf::Hook>(T); }

}  // namespace onnxify::torch
