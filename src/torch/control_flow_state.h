// Internal to the control-flow hook (control_flow*.cpp): the Python state a branch or a loop body
// may change, saved before and restored after each recording, and the merge of two branches'
// results into If outputs.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <unordered_set>
#include <vector>

#include "torch/control_flow.h"

namespace onnxify::torch::cf {

// Identity of two Python values (the same object, or equal immediates).
bool same(const eval::Value& a, const eval::Value& b);

// What a tensor object is (in-place ops rebind these fields).
struct TensorState {
  DType dtype = DType::Float32;
  std::vector<ir::DimExpr> shape;
  ir::Value* value = nullptr;
  std::shared_ptr<const ir::Tensor> data;
  std::optional<double> fill;
  bool uninitialized = false, random = false;
  uint32_t version = 0;
  uint32_t base_version = 0;  // a view: the version of its base it was derived from
  static TensorState of(const TensorObj* t);
  void apply(TensorObj* t) const;
  // Materializing a constant or re-deriving a view is no change; in-place writes bump the version.
  bool same_as(const TensorState& o) const { return version == o.version && dtype == o.dtype && shape == o.shape; }
};

// A list, dict or instance dict reachable from the frame: its items (dicts: key, value, ...).
struct ContainerState {
  eval::Value obj;  // the list or dict
  std::string name;  // how the user names it ("outs", "self.cache")
  bool is_list = false;
  std::vector<eval::Value> items;
};

// The state reachable from a frame's variables (one level into lists/tuples/objects).
struct FrameState {
  std::vector<eval::Ref<TensorObj>> tensors;
  std::vector<std::string> tensor_names;
  std::vector<TensorState> tensor_states;
  std::vector<ContainerState> containers;

  static FrameState capture(eval::Interp& I, eval::Frame& f, const std::vector<eval::VarRef>& vars);
  // The current tensor states (in the order of `tensors`).
  std::vector<TensorState> tensors_now() const;
  void restore_tensors(const std::vector<TensorState>& s) const;
  // The first container whose items changed, or null.
  const ContainerState* changed_container(eval::Interp& I) const;
  // The items of every container now (in the order of `containers`).
  std::vector<std::vector<eval::Value>> containers_now(eval::Interp& I) const;
  void restore_containers(eval::Interp& I) const;
  static std::vector<eval::Value> items_of(eval::Interp& I, const eval::Value& obj, bool is_list);
};

// The tensors older than a recording (born before `since`) that it writes in place while the frame
// state does not reach them (a parameter written through a view made in a branch), each with its
// state before the first write. Open while a LogWrites is (Torch::write_watchers calls note).
struct WriteLog {
  uint64_t since = 0;
  std::unordered_set<const TensorObj*> seen;
  std::vector<eval::Ref<TensorObj>> tensors;
  std::vector<TensorState> before;
  size_t adopted = 0;
  void note(TensorObj* t);
  // Appends the tensors logged since the last call to `state`, which tracks them from then on.
  void adopt(FrameState& state);
};
// Logs into `log` the writes to tensors older than now that `state` does not track, for its scope.
struct LogWrites {
  LogWrites(Torch& T, WriteLog& log, const FrameState& state);
  ~LogWrites();
  Torch& T;
};

// Lists held as ONNX sequences (control_flow_sequence.cpp): a list that a Loop appends to and reads
// by an index only known at run time. Its one item is a SeqObj; its type a list subtype whose
// operations record Sequence ops.
struct SeqObj : eval::Object {
  ir::Value* value = nullptr;  // of type seq(tensor)
  DType dtype = DType::Float32;
  std::vector<ir::DimExpr> item;  // the items' shape; unknown: a dim that differs between items
};
// Thrown while a Loop body is recorded by a read of a list that must become a sequence (a list the
// Loop appends to, or one indexed by a run-time index); the Loop that tracks the list records again.
struct NeedSequence {
  eval::Object* list = nullptr;
};
ir::Type seq_type(DType dt, const std::vector<ir::DimExpr>& item);
bool is_seq_list(const eval::Value& v);
SeqObj* seq_of(const eval::Value& list);
eval::Value new_seq(Torch& T, ir::Value* value, DType dt, std::vector<ir::DimExpr> item);
// Makes `list` a list held as the sequence `seq` (a SeqObj), in place.
void make_seq_list(Torch& T, const eval::Value& list, const eval::Value& seq);
// SequenceConstruct of tensors (SequenceEmpty of *dt / *item when there are none); sets *dt and *item.
ir::Value* seq_construct(Torch& T, const std::vector<eval::Value>& items, const std::string& name,
                         const SourceRange& where, DType* dt, std::vector<ir::DimExpr>* item);
eval::Value seq_list_len(Torch& T, const eval::Value& list);
eval::Value seq_cat_stack(Torch& T, bool stack, const eval::Value& list, const eval::Value& dim);

// A variable's user-facing name.
std::string var_name(const eval::VarRef& v, const eval::Frame& f);

// A 0-d bool value for the truth of `cond` (a tensor of one element, a SymInt, a Python value).
ir::Value* condition_value(Torch& T, const eval::Value& cond);

// Runs `fn` with `g` as the graph nodes are recorded into.
template <class F>
auto in_region(Torch& T, ir::Graph* g, F fn) {
  struct Guard {
    Torch& T;
    ~Guard() { T.rec.pop_region(); }
  };
  T.rec.push_region(g);
  Guard guard{T};
  return fn();
}

// Is a Python number (bool, int, float or SymInt)?
bool is_number(const eval::Value& v);
// The dtype a merged value of these two takes, when they can be merged as tensors.
std::optional<DType> merged_dtype(Torch& T, const eval::Value& a, const eval::Value& b);
// `v` (a tensor or number) as an IR value of dtype `dt` in the current region.
ir::Value* tensor_value(Torch& T, const eval::Value& v, DType dt);
std::vector<ir::DimExpr> shape_of(const eval::Value& v);
// A dim that mentions a symbol made after the first `before` (by a region being recorded: a dim
// that changes between iterations, or a merged If output) is only known inside that region.
bool region_local(const ir::DimExpr& d, int before);

}  // namespace onnxify::torch::cf

namespace onnxify::torch::cf {

// How a recorded branch ended.
struct Branch {
  ir::Graph* g = nullptr;
  eval::Exit exit = eval::Exit::Normal;
  bool raised = false;
  bool fell_off = false;  // returned None by reaching the end of the function (no `return`)
  eval::Value exc;
  std::vector<eval::Value> vars;        // end values of the merged variables
  eval::Value retval;                   // when exit == Return
  std::vector<TensorState> tensors;     // end states of the tracked tensors
  std::vector<std::vector<eval::Value>> containers;  // ... and the items of the tracked containers
  ir::Value* keep_going = nullptr;      // inside a Loop: false when the branch breaks (null: true)
  ir::Value* returned = nullptr;        // inside a loop: the pending-return flag at its end (null: false)
  eval::Value ret;                      // ... and the value that return gives (Null: none yet)
  eval::Value returns;                  // inside a loop, when exit == Return: retval, frozen (freeze)
};

// A Loop being recorded: `break`/`continue` under a tensor condition end its iteration.
struct LoopCtx {
  const eval::Block* body = nullptr;
  eval::Frame* frame = nullptr;
  ir::Value* keep_going = nullptr;  // null: true
  // An unrolled `for` over Python values: once keep_going is set (a `break` under a tensor-dependent
  // condition), each later iteration is recorded inside an If on it.
  bool unrolled = false;
  SourceRange broke_at;  // the condition of the first such break (for diagnostics)
  // A `return` under a tensor-dependent condition in the body ends the loop like a `break` and
  // leaves a pending return: `returned` (a 0-d bool; null: false) and the value it returns. After
  // the loop the rest of the function runs only where it is false (Hook::settle_return).
  ir::Value* returned = nullptr;
  eval::Value ret;
};

// A pending return left by an unrolled loop, settled after its `for` statement.
struct PendingReturn {
  const eval::Stmt* stmt = nullptr;
  eval::Frame* frame = nullptr;
  ir::Value* returned = nullptr;
  eval::Value ret;
};

class Hook : public eval::ControlFlowHook {
 public:
  struct LoopSpec;  // a loop recorded as ONNX Loop (control_flow_loop.cpp)
  explicit Hook(Torch& T) : T(T) {}
  eval::Exit on_if(eval::Interp& I, eval::Frame& f, const eval::IfStmt& s, const eval::Value& cond) override;
  eval::Exit on_while(eval::Interp& I, eval::Frame& f, const eval::WhileStmt& s, const eval::Value& cond) override;
  eval::Value on_ifexp(eval::Interp& I, eval::Frame& f, const eval::IfExpExpr& e, const eval::Value& cond) override;
  eval::Value on_boolop(eval::Interp& I, eval::Frame& f, const eval::BoolOpExpr& e, size_t index,
                        const eval::Value& value) override;
  bool on_for_range(eval::Interp& I, eval::Frame& f, const eval::ForStmt& s, const std::vector<eval::Value>& args,
                    eval::Exit* exit, eval::Value* items) override;
  bool on_for_zip(eval::Interp& I, eval::Frame& f, const eval::ForStmt& s, bool enumerate, bool zipped,
                  const std::function<eval::Value()>& start, const std::vector<eval::Value>& rows,
                  eval::Exit* exit) override;
  bool on_for_iter(eval::Interp& I, eval::Frame& f, const eval::ForStmt& s, const eval::Value& iterable,
                   eval::Exit* exit) override;
  void on_unrolled_enter(eval::Interp& I, eval::Frame& f, const eval::ForStmt& s) override;
  eval::Exit on_unrolled_body(eval::Interp& I, eval::Frame& f, const eval::ForStmt& s, const eval::Value& item) override;
  bool on_unrolled_leave(eval::Interp& I, eval::Frame& f, const eval::ForStmt& s) override;
  eval::Exit on_unrolled_done(eval::Interp& I, eval::Frame& f, const eval::ForStmt& s, eval::Exit x) override;

 private:
  // The merge of two branches' values into If outputs.
  struct IfBuild {
    ir::Node* node = nullptr;
    ir::Graph* g[2] = {nullptr, nullptr};
    SourceRange where;
  };
  friend struct Merger;
  IfBuild new_if(ir::Value* cond);
  void drop_if(IfBuild& b);
  void reset_branch(IfBuild& b, int k);
  eval::Value merge(IfBuild& b, const eval::Value& a, const eval::Value& c, const std::string& name);
  // None in one arm and a tensor in the other, or a tensor that is None on some runs (core.h:
  // present) in either: a tensor with its `present` flag as a second If output; Null when the None
  // arm cannot make zeros of the tensor's shape (a size the other arm computed).
  eval::Value merge_maybe_none(IfBuild& b, const eval::Value& a, const eval::Value& c);
  // While the values the two arms left are merged: the tracked tensors as each arm left them (they
  // were restored after it), so that a value read in arm k's region reads them so (a view an arm
  // made and assigned to a variable, derived from its base as that arm wrote it).
  struct BranchEnds {
    const FrameState* state = nullptr;
    const std::vector<TensorState>* end[2] = {nullptr, nullptr};
  };
  const BranchEnds* ends_ = nullptr;
  struct UseEnds {  // sets ends_ for a scope
    Hook& h;
    const BranchEnds* saved;
    UseEnds(Hook& h, const BranchEnds* e) : h(h), saved(h.ends_) { h.ends_ = e; }
    ~UseEnds() { h.ends_ = saved; }
  };
  // `fn()` (an IR value) recorded in arm k's region, with the tracked tensors as arm k left them.
  ir::Value* in_branch(IfBuild& b, int k, const std::function<ir::Value*()>& fn);
  // An expression's If (a conditional expression, `and`, `or`): the tensors its arms write in place.
  struct ExprWrites {
    FrameState state;  // the logged tensors, with their states before the expression
    WriteLog log;
    std::vector<TensorState> ends[2];  // ... as each arm left them
  };
  // Arm k's value fn(), with the writes it makes logged into `w`, noted in w.ends[k] and undone.
  eval::Value run_expr_arm(ExprWrites& w, int k, const std::function<eval::Value()>& fn);
  // The arms' values merged (with the tensors as each arm left them) and their writes merged.
  eval::Value merge_expr(IfBuild& b, ExprWrites& w, const eval::Value& a, const eval::Value& c,
                         const std::string& name);
  ir::Value* add_output(IfBuild& b, ir::Value* v0, ir::Value* v1, DType dt, const std::vector<ir::DimExpr>& s0,
                        const std::vector<ir::DimExpr>& s1);
  eval::Value poison(const SourceRange& where, const std::string& name, const std::string& reason);
  // Tracked tensors changed in place in either branch become If outputs.
  void merge_tensors(IfBuild& b, const FrameState& state, const std::vector<TensorState>& t0,
                     const std::vector<TensorState>& t1);
  // Every variable of the frame (a branch that leaves early, or a guarded iteration, may assign any).
  static std::vector<eval::VarRef> frame_vars(eval::Frame& f, const std::vector<eval::VarRef>& otherwise);

  // `if t is None:` / `if t is not None:` (or a conditional expression on it) for a tensor that is
  // None on some runs: in the arm where it is None (none_arm) the frame's variables bound to t
  // (vars) hold None, in the other t is a plain tensor (its `present` flag set aside), as Python
  // knows there. Empty (no obj) for any other condition.
  struct Narrowing {
    eval::Ref<TensorObj> obj;
    int none_arm = 0;
    std::vector<eval::VarRef> vars;
    // Runs arm k's `fn` with t narrowed: its variables None in the None arm, t a plain tensor in
    // the other (and t itself as that arm's value a plain tensor of its values).
    eval::Value run(eval::Interp& I, eval::Frame& f, int k, const std::function<eval::Value()>& fn) const;
  };
  Narrowing narrowing(eval::Interp& I, eval::Frame& f, const eval::Value& cond);

  // An If on `cond` whose two arms are `arm[0]` (then) and `arm[1]` (else), recorded at statement `at`
  // (the rest of the function or loop body after it is the continuation of an arm that does not
  // leave when the other does). `vars`: the variables the arms may assign. `fallback(k)`: what runs
  // unguarded when arm k raises; `may_raise[k]`: whether arm k may raise by design (else the
  // exception propagates).
  struct IfArms {
    const eval::Stmt* at = nullptr;
    std::function<eval::Exit()> arm[2];
    std::vector<eval::VarRef> vars;
    bool may_raise[2] = {false, false};
    std::function<eval::Exit(int)> fallback;
    // The condition's truth under the assumption that input dims are at least 2 (TensorObj::assumed).
    std::optional<bool> assumed;
    bool assumed_unless_empty = false;
    // The condition's narrowing (its variables also in `vars`).
    Narrowing narrow;
  };
  eval::Exit record_if(eval::Interp& I, eval::Frame& f, ir::Value* cond, IfArms& arms);
  // After the loop statement `s` left a pending return: If(returned) { return ret } else { the rest }.
  eval::Exit settle_return(eval::Interp& I, eval::Frame& f, const eval::Stmt* s, ir::Value* returned,
                           const eval::Value& ret);
  // A stand-in for `like` (a pending return value) on a path that has not returned: its tensors as
  // zeros of their dtype and shape (dims made after symbol `before`: 0), other values as they are.
  eval::Value ret_placeholder(const eval::Value& like, int before);
  // `v` with each tensor replaced by a new tensor of its current value: a pending return must not
  // follow later in-place writes to the objects it returned (in Python, nothing runs after return).
  eval::Value freeze(const eval::Value& v);
  // The innermost loop being recorded or unrolled in frame `f`, or null.
  LoopCtx* loop_of(eval::Frame& f) { return !loops_.empty() && loops_.back().frame == &f ? &loops_.back() : nullptr; }
  // Merges the pending returns of the two arms of `b` into `loop` (flags: null is false).
  void merge_returned(IfBuild& b, LoopCtx& loop, ir::Value* r0, const eval::Value& v0, ir::Value* r1,
                      const eval::Value& v1, int before);

  // Runs the statements after `s` up to the function body (Return) or the recorded Loop's body.
  eval::Exit continuation(eval::Interp& I, eval::Frame& f, const eval::Stmt* s, eval::Exit kind);
  eval::Value eval_rest(eval::Interp& I, eval::Frame& f, const eval::BoolOpExpr& e, size_t from);

  // Branches being recorded: a container reachable from the frame that a statement changes is an
  // error at that statement.
  // An If's guard only notes where each container first changed (`changed_at`, by container): its
  // arms' containers are merged item by item when both leave them the same structure (merge_containers).
  struct Guard {
    const FrameState* state;
    SourceRange where;
    std::vector<std::optional<SourceRange>>* changed_at = nullptr;
  };
  void merge_containers(IfBuild& b, const FrameState& state, const Branch& A, const Branch& B,
                        const std::vector<std::optional<SourceRange>>& changed_at);
  void check_guards(eval::Interp& I, eval::Frame& f, const eval::Stmt* st);
  eval::Exit exec_checked(eval::Interp& I, eval::Frame& f, const eval::Block& b);
  std::vector<Guard> guards_;

  eval::Exit record_loop(eval::Interp& I, eval::Frame& f, LoopSpec& spec);
  eval::Value row_item(const LoopSpec& spec, ir::Value* ix);
  static LoopSpec for_spec(const eval::ForStmt& s);
  // Records the loop's first iteration before it and a Loop over the others (a variable is None
  // before the loop and a tensor after that iteration).
  eval::Exit peel_first(eval::Interp& I, eval::Frame& f, LoopSpec& spec, const std::string& name,
                        const SourceRange& where);

  Torch& T;
  std::vector<LoopCtx> loops_;
  std::vector<PendingReturn> pending_;
};

}  // namespace onnxify::torch::cf
