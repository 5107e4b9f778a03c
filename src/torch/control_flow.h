// Data-dependent control flow (DESIGN.md decision 5, issue 7): the evaluator's ControlFlowHook
// implemented by recording ONNX If and Loop nodes.
//
// A condition whose truth is only known when the exported model runs (a tensor, a comparison of
// symbolic sizes) evaluates BOTH branches, each into its own region (subgraph) of an If node, from
// the same state: the frame's variables a branch may assign (BlockSummary), the tensors reachable
// from the frame (in-place ops rebind them) and the containers reachable from it are saved before
// and restored after each branch. What the branches leave behind is merged:
//   * the same Python object -> kept; tensors (or numbers, promoted to 0-d tensors) -> If outputs
//     (dtype and rank must agree; a dim that differs becomes a fresh symbol read from the output);
//   * None in one branch and a tensor in the other (`if not mask.any(): mask = None`) -> a tensor
//     that is None on some runs (TensorObj::present, a second If output): `x is None` on it is a
//     run-time condition, and an `if` on that condition binds x to None in the arm where it is
//     None and to the plain tensor in the other (narrowing); an op's optional tensor argument given
//     it is recorded with the tensor and with None and selected (ops_registry.cpp); as an output of
//     forward it is an error. The None arm's values are zeros of the tensor's shape (when that arm
//     can compute the shape; otherwise the next case);
//   * a variable bound in one branch only, or tensors whose dtype/rank differ, or different Python
//     objects -> poison (DESIGN.md decision 6): an error naming the variable where it is used;
//   * a list, dict or object attribute changed the same way in both branches (same length, same keys)
//     -> merged item by item as variables are; changed otherwise -> an error at the statement that
//     first changed it;
//   * tensors the frame does not reach that a branch writes in place (a parameter written through a
//     view made in the branch): logged at their first write (Torch::write_watchers, cf::WriteLog),
//     restored and merged like the others (the same in Loop bodies, guarded unrolled iterations,
//     conditional expressions and the right operand of `and`/`or`);
//   * a tracked view whose base a branch changed is not merged itself: its state (with base_version)
//     is the one before the If, so it is derived again from the merged base when next read; a Loop
//     carries the base, not the view. The values the branches leave are read with the tracked
//     tensors as each branch left them (Hook::in_branch: a view bound in a branch, read after it).
// A branch that leaves early (`return`, `break`, `continue`) while the other does not: the other
// branch runs the rest of the enclosing block(s) up to the function body (return) or the body of the
// Loop being recorded (break/continue) as its continuation, so both end the same way. A branch that
// raises drops the check with a warning: the other branch is recorded unconditionally.
//
// `while` with a tensor condition and `for i in range(n)` with a bound only known at run time become
// ONNX Loop: the variables the body assigns are loop-carried (Python numbers that change become 0-d
// tensors; a dim that changes from one iteration to the next becomes symbolic), `break` under a
// tensor condition clears the loop's condition output, and `outs.append(t)` on a list that existed
// before the loop becomes a scan output that torch.stack/torch.cat(outs) read. A variable first
// bound in a Loop's body and read after it holds the last iteration's value (carried from zeros of
// its dtype and shape, which a zero-trip loop leaves; Python would raise NameError there).
//
// Python values a Loop carries besides tensors and numbers (control_flow_loop.cpp, _sequence.cpp):
//   * a variable that is None before a `for` over a run-time size and a tensor after its first
//     iteration (`total = t if total is None else total + t`): the first iteration is recorded before
//     the Loop (peeled, with the loop variable bound to row 0 / the range's start as a Python int),
//     then a Loop over the others carries a tensor. A zero-trip loop, where PyTorch leaves None, is
//     not expressible: the model assumes one iteration (a warning says so; over a tensor's rows ONNX
//     Runtime then fails reading row 0). With `break`/`continue`/`return` in the body, or a `while`:
//     a clear error.
//   * a list read in the body by an index only known at run time (`prev[-1]` on a list the Loop
//     appends to, `prev[i - 1]`, `len(prev)`) becomes a loop-carried ONNX Sequence (SequenceConstruct /
//     SequenceInsert / SequenceAt / SequenceLength; torch.stack/cat -> ConcatFromSequence; `x[a:b]` via
//     SplitToSequence); an empty list read before its first append peels the first iteration to learn
//     its item type. Lists only appended to stay scan outputs. Reading is detected by retrying: such a
//     read throws NeedSequence and the Loop records again with the list as a sequence.
//   * a tuple of tensors (nested too, an LSTM's (h, c)) rebuilt each iteration: its leaves are carried
//     and the tuple rebuilt after the Loop (None before the loop: peeled as above).
//   * forward may return such a list, or a scan-output list: one sequence-typed graph output.
//
// `break` / `continue` under a tensor condition in a `for` over Python values (unrolled) keep the
// loop unrolled (it may index module lists or use its variable as a Python int): a carried
// "keep going" flag, and each later iteration recorded inside an If on it (control_flow_unrolled.cpp).
//
// `return` under a tensor condition inside a loop (unrolled or ONNX Loop) ends the loop like a `break`
// and leaves a *pending return*: a 0-d bool "returned" flag and the value it returns (merged through
// the If outputs like any variable; loop-carried, from false and zeros, in a Loop). After the loop
// statement, If(returned) { return the value } else { the rest of the function } (settle_return),
// or, inside an outer loop, the same again one level up. The function's result is thus the first
// return taken, and the code after it runs only when none was.
#pragma once

#include <memory>

#include "eval/control_flow.h"
#include "torch/core.h"

namespace onnxify::torch {

std::unique_ptr<eval::ControlFlowHook> make_control_flow_hook(Torch& T);

// torch.cat / torch.stack over a list whose items were appended in a Loop (scan outputs). Returns
// Null when `tensors` holds no scan output (the op runs as usual).
eval::Value scan_cat_stack(Torch& T, bool stack, const eval::Value& tensors, const eval::Value& dim);
// `not v` for a value whose truth is only known at run time: a 0-d bool tensor (Tensor and SymInt
// __onnxify_not__).
eval::Value symbolic_not(Torch& T, const eval::Value& v);
// True when `v` is (or is a list/tuple holding) the stacked outputs of a Loop.
bool holds_scan_output(const eval::Value& v);
// A list built in a Loop (its scan output, or a list held as an ONNX sequence) returned by forward:
// one sequence-typed graph output holding its items (eager returns the Python list).
ir::Value* sequence_output(Torch& T, const eval::Value& list);
// len() of a list held as an ONNX sequence or holding a Loop's stacked outputs (a size only known
// at run time); Null for other values.
eval::Value sequence_len(Torch& T, const eval::Value& v);
eval::Value scan_list_len(Torch& T, const eval::Value& v);
// Appends the rows of `stacked` (a tensor [n, ...item], n a run-time size) to `list`, as a Loop's
// stacked outputs are held: the list's length is then only known at run time; len, indexing,
// torch.stack/torch.cat, `for`, comprehensions and sum/min/max/any/all read it (control_flow_rows.cpp).
void append_rows(Torch& T, const eval::Value& list, const eval::Value& stacked);
// Such a list's items stacked ([len, ...item]); Null for other values; an error when it holds
// values other than tensors.
eval::Value stacked_items(Torch& T, const eval::Value& list);
// Installs the evaluator's hooks for such lists: list(x) / l.extend(x) of a tensor whose first dim
// is only known at run time, and the builtin reductions over them.
void install_rows_hooks(Torch& T);

}  // namespace onnxify::torch
