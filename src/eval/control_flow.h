// The control-flow hook (issue 7): when the truth of a condition is symbolic (a tensor whose value
// is only known when the exported model runs), the statement executor hands the construct to this
// hook instead of choosing a branch. The torch stage implements it by evaluating both branches into
// subgraphs against snapshots of the frame's variables (snapshot_vars / restore_vars in frame.h;
// each block's BlockSummary lists what it may assign and whether it may return, break or raise).
// Without a hook, a symbolic condition is an error at the condition.
#pragma once

#include <functional>

#include "eval/frame.h"

namespace onnxify::eval {

class ControlFlowHook {
 public:
  virtual ~ControlFlowHook() = default;
  // `if test: body else: orelse` (elif is a nested If in orelse). Returns how the statement exits.
  virtual Exit on_if(Interp& I, Frame& f, const IfStmt& s, const Value& cond) = 0;
  // `while test: ...` whose condition became symbolic (possibly after some concrete iterations).
  virtual Exit on_while(Interp& I, Frame& f, const WhileStmt& s, const Value& cond) = 0;
  // `body if test else orelse`.
  virtual Value on_ifexp(Interp& I, Frame& f, const IfExpExpr& e, const Value& cond) = 0;
  // `a and b and c` / `a or b or c` where values[index] (already evaluated to `value`) is symbolic.
  virtual Value on_boolop(Interp& I, Frame& f, const BoolOpExpr& e, size_t index, const Value& value) = 0;
  // `for target in range(args...)` (positional arguments, already evaluated): returns true and sets
  // `*exit` when the hook ran the loop itself (a bound only known at run time); false lets the
  // executor unroll it as usual, over `*items` when the hook set it (a range of sizes whose length
  // is known: its items, which range() itself cannot hold), else over range(args...).
  virtual bool on_for_range(Interp& I, Frame& f, const ForStmt& s, const std::vector<Value>& args, Exit* exit,
                            Value* items) {
    return false;
  }
  // `for target in zip(rows...)`, `enumerate(rows[0], start)` or `enumerate(zip(rows...), start)`
  // (the rows already evaluated; `zipped`: they come from a zip; `start()` evaluates enumerate's
  // start, which CPython does after calling zip): true (and `*exit`) when the hook ran the loop
  // itself (a row source is a tensor whose first dim is only known at run time); false, having
  // left start() alone, makes the calls as usual.
  virtual bool on_for_zip(Interp& I, Frame& f, const ForStmt& s, bool enumerate, bool zipped,
                          const std::function<Value()>& start, const std::vector<Value>& rows, Exit* exit) {
    return false;
  }
  // `for target in iterable` over any other value: true (and `*exit`) when the hook ran the loop
  // itself (iterating a tensor whose first dim is only known at run time).
  virtual bool on_for_iter(Interp& I, Frame& f, const ForStmt& s, const Value& iterable, Exit* exit) {
    return false;
  }
  // An unrolled `for` (over Python values): enter before its first iteration, one call per iteration
  // (binds the target to `item` and runs the body; the hook may record it under a run-time guard
  // once a `break` under a tensor-dependent condition may have ended the loop), leave after it.
  // leave returns true when the loop may have been ended by such a break (its `else` is then
  // conditional at run time). leave is also called when the loop ends by an exception.
  virtual void on_unrolled_enter(Interp& I, Frame& f, const ForStmt& s) {}
  virtual Exit on_unrolled_body(Interp& I, Frame& f, const ForStmt& s, const Value& item) {
    assign(I, f, s.target, item);
    return exec_block(I, f, s.body);
  }
  virtual bool on_unrolled_leave(Interp& I, Frame& f, const ForStmt& s) { return false; }
  // After an unrolled `for` statement ended with `x` (not by an exception): a `return` under a
  // tensor-dependent condition in its body is settled here (the rest of the function runs only when
  // it was not taken). Returns how the statement exits.
  virtual Exit on_unrolled_done(Interp& I, Frame& f, const ForStmt& s, Exit x) { return x; }
};

}  // namespace onnxify::eval
