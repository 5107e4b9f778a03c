// Frames and the statement executor's interface. Exposed (through eval.h) so the torch stage can
// evaluate the two branches of a symbolic condition against copies of a frame's variables.
#pragma once

#include <vector>

#include "eval/code.h"

namespace onnxify::eval {

struct Generator;

// How a statement or block finished. Exceptions are C++ exceptions (PyException, Diagnostic).
enum class Exit : uint8_t { Normal, Return, Break, Continue };

struct Frame {
  Frame* back = nullptr;
  Code* code = nullptr;
  Value* fast = nullptr;   // code->nslots slots
  Dict* globals = nullptr;
  Value builtins;          // dict
  Value ns;                // class body namespace (a dict or a mapping), module: the globals dict
  Function* func = nullptr;
  const Node* cur = nullptr;  // the innermost node being evaluated that can fail (for locations)
  Value retval;
  Generator* gen = nullptr;
  Value handling;          // the exception an `except` block of this frame is handling

  SourceRange range() const {
    if (!code || !cur) return {};
    return code->range(*cur);
  }
};

// Makes `f` the innermost frame while it lives.
class FrameScope {
 public:
  FrameScope(Interp& I, Frame& f) : I_(I), prev_(I.frame) {
    f.back = I.frame;
    I.frame = &f;
  }
  ~FrameScope() { I_.frame = prev_; }
  FrameScope(const FrameScope&) = delete;
  FrameScope& operator=(const FrameScope&) = delete;

 private:
  Interp& I_;
  Frame* prev_;
};

// Slots for a frame, on the C++ stack when few.
class SlotArray {
 public:
  explicit SlotArray(uint32_t n) : n_(n) {
    data_ = n <= kInline ? inline_ : (heap_ = new Value[n]);
  }
  ~SlotArray() { delete[] heap_; }
  SlotArray(const SlotArray&) = delete;
  SlotArray& operator=(const SlotArray&) = delete;
  Value* data() { return data_; }
  uint32_t size() const { return n_; }

 private:
  static constexpr uint32_t kInline = 12;
  Value inline_[kInline];
  Value* heap_ = nullptr;
  Value* data_;
  uint32_t n_;
};

// ---- the evaluator ----------------------------------------------------------------------------------

Value eval(Interp& I, Frame& f, const Expr* e);
Exit exec_block(Interp& I, Frame& f, const Block& b);
Exit exec_stmt(Interp& I, Frame& f, const Stmt* s);
// With a control-flow hook: evaluates a `for` loop's iterable `iter` in frame `outer` and offers the
// loop `s`, whose body runs in frame `f`, to the hook (range() and zip()/enumerate() calls by their
// arguments, any value but a list, tuple or range as it is). True (and *exit) when the hook ran the
// loop; false with *src the evaluated iterable, to iterate as usual. `outer` is `f` for a `for`
// statement, the enclosing frame for a comprehension (its first iterable is evaluated there).
bool offer_for_to_hook(Interp& I, Frame& outer, const Expr* iter, Frame& f, const ForStmt& s, Value* src,
                       Exit* exit);
// Stores `v` into an assignment target (a name, attribute, subscript, or unpacking pattern).
void assign(Interp& I, Frame& f, const Expr* target, const Value& v);
void delete_target(Interp& I, Frame& f, const Expr* target);

// Runs a module's code with `globals` as its namespace.
void exec_module_code(Interp& I, Code* code, Dict* globals);
// Calls a Python function.
Value call_function(Interp& I, Function* fn, const Args& a);
Value call_function_with_self(Interp& I, Function* fn, const Value& self, const Args& a);
// Makes a function object from a def or lambda in frame f.
Value make_function(Interp& I, Frame& f, const FuncDef* def);

// The truth of a condition; a symbolic truth goes to the control-flow hook, and without one it is
// an error at the condition.
Truth condition_truth(Interp& I, Frame& f, const Expr* test, const Value& v);

// Records that an exception passes through frame f (its traceback grows by one entry).
void add_traceback(Interp& I, Value& exc, const Frame& f);

// Values of the variables a block may assign, so a branch can be run again from the same state.
struct VarSnapshot {
  std::vector<Value> values;
};
Value read_var(Interp& I, Frame& f, const VarRef& v);   // Null when unbound
void write_var(Interp& I, Frame& f, const VarRef& v, const Value& val);  // Null unbinds
VarSnapshot snapshot_vars(Interp& I, Frame& f, const std::vector<VarRef>& vars);
void restore_vars(Interp& I, Frame& f, const std::vector<VarRef>& vars, const VarSnapshot& s);

}  // namespace onnxify::eval
