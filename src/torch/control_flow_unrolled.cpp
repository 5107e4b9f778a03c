// `break` under a tensor-dependent condition in a `for` over Python values (unrolled; see
// control_flow.h). Unlike a Loop being recorded, an unrolled loop may index Python lists of modules,
// grow Python lists and use its loop variable as a Python int, so it stays unrolled, and a carried
// "keep going" flag guards the iterations after the break instead of converting it to an ONNX Loop:
//   * the iteration that may break: the branch that does not break runs the rest of the body (as
//     for a Loop), both end the iteration, and the flag becomes the condition (negated);
//   * each later iteration is recorded in the then branch of an If on the flag (the else branch
//     changes nothing), so at run time it is skipped once the loop has broken; the variables it
//     assigns, the tensors it changes in place, and the flag itself become If outputs. Python
//     containers changed by a guarded iteration are an error (they can only follow one path).
// An iteration that breaks unconditionally inside the guard ends the loop on every path.
#include <fmt/core.h>

#include "torch/control_flow.h"
#include "torch/control_flow_state.h"
#include "torch/ops.h"

namespace onnxify::torch::cf {

using eval::Exit;
using eval::Frame;
using eval::Interp;
using eval::Value;

void Hook::on_unrolled_enter(Interp&, Frame& f, const eval::ForStmt& s) {
  LoopCtx c;
  c.body = &s.body;
  c.frame = &f;
  c.unrolled = true;
  loops_.push_back(c);
}

bool Hook::on_unrolled_leave(Interp&, Frame& f, const eval::ForStmt& s) {
  if (loops_.empty() || !loops_.back().unrolled || loops_.back().body != &s.body || loops_.back().frame != &f)
    return false;
  bool broke = loops_.back().keep_going != nullptr;
  if (loops_.back().returned) pending_.push_back({&s, &f, loops_.back().returned, loops_.back().ret});
  loops_.pop_back();
  return broke;
}

Exit Hook::on_unrolled_done(Interp& I, Frame& f, const eval::ForStmt& s, Exit x) {
  if (pending_.empty() || pending_.back().stmt != &s || pending_.back().frame != &f) return x;
  PendingReturn p = pending_.back();
  pending_.pop_back();
  if (x == Exit::Return) return x;  // (not reached: a pending return guards the iterations after it)
  return settle_return(I, f, &s, p.returned, p.ret);
}

Exit Hook::on_unrolled_body(Interp& I, Frame& f, const eval::ForStmt& s, const Value& item) {
  LoopCtx& ctx = loops_.back();
  if (!ctx.keep_going) {  // no break under a tensor condition yet: an ordinary unrolled iteration
    eval::assign(I, f, s.target, item);
    return eval::exec_block(I, f, s.body);
  }
  // The loop may have broken at run time: this iteration runs only when the flag is true.
  std::vector<eval::VarRef> vars = frame_vars(f, s.body_summary.assigned);
  eval::VarSnapshot before = eval::snapshot_vars(I, f, vars);
  FrameState state = FrameState::capture(I, f, vars);
  ir::Value* active = ctx.keep_going;
  ir::Value* returned_before = ctx.returned;
  Value ret_before = ctx.ret;
  const int sym_before = T.rec.symbol_count();
  IfBuild b = new_if(active);
  guards_.push_back({&state, ctx.broke_at});
  struct PopGuard {
    std::vector<Guard>& g;
    ~PopGuard() { g.pop_back(); }
  } pop_guard{guards_};

  // Tensors the frame does not reach that the iteration writes in place (see record_if).
  WriteLog log;
  LogWrites logging(T, log, state);

  ctx.keep_going = nullptr;  // the flag of this iteration, as in an unguarded one
  Value returns;  // what this iteration returns, when it does (frozen inside the region)
  Exit x = in_region(T, b.g[0], [&] {
    eval::assign(I, f, s.target, item);
    Exit e = exec_checked(I, f, s.body);
    if (e == Exit::Return) returns = freeze(f.retval);
    return e;
  });
  LoopCtx& c = loops_.back();  // (the body may have grown loops_ and moved it)
  if (x == Exit::Return) {
    // Returns whenever this iteration runs: a pending return that ends the loop.
    x = Exit::Break;
    c.returned = T.rec.const_scalar(ir::ElementType::Bool, 1);
    c.ret = returns;
    f.retval = Value();
  }
  ir::Value* ran_returned = c.returned;
  Value ran_ret = c.ret;
  c.returned = returned_before;
  c.ret = ret_before;
  if (const ContainerState* m = state.changed_container(I)) {
    state.restore_containers(I);
    throw Diagnostic::error(fmt::format("'{}' is changed in an iteration that runs only if an earlier `break` under "
                                        "a tensor-dependent condition did not end the loop",
                                        m->name),
                            c.broke_at)
        .with_help("Python objects can only follow one path: keep the values in tensors (torch.where), or move "
                   "the change out of the loop");
  }
  ir::Value* keep = x == Exit::Break ? nullptr : c.keep_going;
  std::vector<Value> ran;
  for (const eval::VarRef& v : vars) ran.push_back(eval::read_var(I, f, v));
  log.adopt(state);
  std::vector<TensorState> ran_tensors = state.tensors_now();
  eval::restore_vars(I, f, vars, before);
  state.restore_tensors(state.tensor_states);

  // (Values the iteration left are read with the tracked tensors as it left them.)
  BranchEnds ends{&state, {&ran_tensors, &state.tensor_states}};
  {
    UseEnds use(*this, &ends);
    for (size_t i = 0; i < vars.size(); ++i) {
      Value m = merge(b, ran[i], before.values[i], var_name(vars[i], f));
      if (!same(m, before.values[i])) eval::write_var(I, f, vars[i], m);
    }
  }
  merge_tensors(b, state, ran_tensors, state.tensor_states);
  if (ran_returned != returned_before)
    merge_returned(b, c, ran_returned, ran_ret, returned_before, ret_before, sym_before);
  if (x == Exit::Break) {
    // Broken on both paths (here, or before): the loop ends.
    c.keep_going = active;
    if (b.node->num_outputs() == 0) drop_if(b);
    return Exit::Break;
  }
  ir::Value* t = keep ? keep : T.rec.const_scalar(ir::ElementType::Bool, 1);
  ir::Value* no = T.rec.const_scalar(ir::ElementType::Bool, 0);
  c.keep_going = add_output(b, t, no, DType::Bool, {}, {});
  return Exit::Continue;
}

}  // namespace onnxify::torch::cf
