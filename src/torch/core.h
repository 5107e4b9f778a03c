// The native core of the torch stage: the objects Python code sees (Tensor, Parameter, SymInt,
// torch.Size, dtype, device) and the per-interpreter state that ties them to the recorder.
//
// A Tensor is its type (dtype + symbolic shape) and the IR value that computes it. Constants made at
// conversion time (torch.zeros in __init__, torch.tensor([...])) keep their values and become graph
// constants only when an op uses them, so Python code may still read them (item(), tolist()).
//
// Functionalization: the graph is single-assignment, so an in-place op computes a new value and
// rebinds the Python tensor object to it (every Python reference to that object sees the change).
// A tensor made by a view op remembers its base and how it was derived; writing to the view writes
// the new values back into the base (index_put for x[idx], Reshape for view/reshape, the inverse
// Transpose for permute/transpose), and a view whose base changed later is re-derived when next read.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "eval/control_flow.h"
#include "eval/eval.h"
#include "ir/ir.h"
#include "torch/dtype.h"
#include "torch/recorder.h"

namespace onnxify::torch {

struct ViewSpec {
  // Expand: read-only. MaybeCopy: reshape/flatten of a tensor that may not be contiguous, where
  // PyTorch decides from strides whether it gets a view or a copy: readable; a write through it
  // detaches it and marks its bases (TensorObj::ambiguous_write), and reads after its base changed
  // are reported instead of guessed.
  enum class Kind : uint8_t { None, Alias, Index, Reshape, Permute, Expand, MaybeCopy };
  ViewSpec() = default;
  explicit ViewSpec(Kind k, eval::Value key = {}, std::vector<int64_t> perm = {})
      : kind(k), key(std::move(key)), perm(std::move(perm)) {}
  Kind kind = Kind::None;
  eval::Value key;            // Index: the Python index the view was taken with
  std::vector<int64_t> perm;  // Permute: the view's permutation of the base's dims
};

struct TensorObj : eval::Object {
  DType dtype = DType::Float32;
  std::vector<ir::DimExpr> shape;
  ir::Value* value = nullptr;                // null while a constant is not yet materialized
  std::shared_ptr<const ir::Tensor> data;    // the values, when known at conversion time
  std::optional<double> fill;                // or: every element has this value (zeros, ones, full)
  bool uninitialized = false;                // torch.empty: any values are right
  bool random = false;                       // torch.randn & co: values no export can reproduce
  bool requires_grad = false;
  // `.item()` of a bool tensor only known at run time: a Python bool known when the model runs (a
  // symbolic condition, as a comparison of symbolic sizes is). Ops take it for a `bool` parameter
  // (ops_registry.cpp: both values recorded, the results selected by it).
  bool symbolic_bool = false;
  // A tensor that is None on some runs: a variable None in one branch of a tensor-dependent `if`
  // and a tensor in the other (`if not mask.any(): mask = None`). `present` is the 0-d bool that
  // says which (true: this tensor; false: Python has None, and the values are zeros of the same
  // shape); `x is None` gives its negation, an op's optional tensor argument is recorded for both
  // and selected by it (control_flow.cpp, ops_registry.cpp). Every other use is the tensor's, as
  // Python raises for None there.
  ir::Value* present = nullptr;
  // This 0-d bool is `t is None` (or, with none_test_negated, `t is not None`) for such a tensor t:
  // an `if` on it binds t's variables to None in the arm where it is None (control_flow.cpp).
  eval::Ref<TensorObj> none_test;
  bool none_test_negated = false;
  // A comparison of run-time input sizes with small numbers (`x.size(0) == 1`): its truth when every
  // such size is at least 2, the assumption torch.export makes (and squeeze() here). An If on it
  // whose branches cannot be merged (different ranks) keeps that branch (control_flow.cpp).
  std::optional<bool> assumed;
  // ... and it holds already when those sizes are at least 1: only an empty input (`x.numel() > 0`)
  // takes the other branch.
  bool assumed_unless_empty = false;
  // Python's range() with a bound only known at run time, which onnxify makes the int64 arange of
  // its items (symint.cpp hook_range): torch.tensor(range(N)) is int64 only while N > 0 (PyTorch
  // infers float32 for an empty sequence), an assumption said where the data reaches torch.tensor.
  bool from_range = false;
  // An integer tensor made from sizes (torch.tensor(N), torch.tensor(x.shape[:2])): its elements as
  // those sizes, valid while `version` is `sizes_version`, so item()/tolist()/int() give them back.
  std::vector<ir::DimExpr> sizes;
  uint32_t sizes_version = 0;
  uint32_t version = 0;                      // bumped by every in-place write
  eval::Ref<TensorObj> base;                 // views: the tensor this one views
  uint32_t base_version = 0;
  ViewSpec view;
  // Where an in-place write to a possibly-copying reshape of this tensor (or of a view of it) was:
  // PyTorch changed this tensor there or not depending on strides, so reading it since is an error
  // (value_of), while the written reshape itself goes on as its own tensor.
  std::optional<SourceRange> ambiguous_write;
  // Creation order: a branch of an If tells the tensors it made from older ones it changed in place.
  static inline thread_local uint64_t births = 0;
  uint64_t born = ++births;

  size_t rank() const { return shape.size(); }
  ir::Type ir_type() const { return ir::Type::tensor(elem(dtype), shape); }
  bool is_constant() const { return data || fill; }
  // An in-place op that replaces the whole tensor (`x.data = y`, `x.squeeze_()`): this object takes
  // `src`'s shape and values, keeps its identity (aliases, module attributes) and counts a write.
  void take_state_of(const TensorObj& src) {
    shape = src.shape;
    value = src.value;
    data = src.data;
    fill = src.fill;
    uninitialized = src.uninitialized;
    random = src.random;
    ++version;
  }
};

struct SymIntObj : eval::Object {
  ir::DimExpr expr;
};
struct DTypeObj : eval::Object {
  DType dtype = DType::Float32;
};
struct DeviceObj : eval::Object {
  std::string kind = "cpu";  // the device type ("cpu", "cuda", ...)
  int64_t index = -1;
};

// Per-interpreter state of the torch stage.
class Torch {
 public:
  explicit Torch(eval::Interp& I) : I(I), rec(I) {}
  eval::Interp& I;
  Recorder rec;

  eval::Type* tensor_type = nullptr;
  eval::Type* parameter_type = nullptr;
  eval::Type* symint_type = nullptr;
  eval::Type* size_type = nullptr;
  eval::Type* dtype_type = nullptr;
  eval::Type* device_type = nullptr;
  std::vector<eval::Value> dtype_objects;  // by DType
  // torch.return_types.* (named tuples made by the prelude), by op name: max, min, topk, ...
  std::map<std::string, eval::Value> return_types;
  eval::Value cpu_device;
  DType default_dtype = DType::Float32;
  eval::Value tensor_api_names;  // frozenset of PyTorch's Tensor attribute names (torch._api_names)
  bool grad_enabled = true;
  // Data-dependent control flow (control_flow.h): the evaluator's hook and the type of the stacked
  // outputs a Loop leaves in a list that its body appended to.
  std::unique_ptr<eval::ControlFlowHook> control_flow;
  eval::Type* scan_type = nullptr;
  // Told of every in-place write (note_write) while branches of an If are recorded, so a branch's
  // writes to tensors its frame does not reach (a parameter written through a view made in the
  // branch) are undone after it and merged into the If like the others (control_flow.cpp).
  std::vector<std::function<void(TensorObj*)>> write_watchers;

  // True while model code builds the model (its __init__), false once forward is recorded. While
  // building, an op that reads a random tensor's values (torch.randn(1, n) * .02) gives a random
  // placeholder too, whose values come from the checkpoint like the random tensor's would
  // (dispatch in ops_registry.cpp); `random_reads` collects the random tensors such an op read.
  bool building = true;
  // True while the --model expression runs (Session::build_model): Python's unseeded `random` then
  // draws as if seeded with 0, with a warning (torch/_onnxify_support.py's unseeded_seed); while
  // modules are imported its draws stay unknown values (ids and caches of utility libraries).
  bool model_expr = false;
  std::vector<eval::Ref<TensorObj>>* random_reads = nullptr;
  // Whether reads of uninitialized tensors count as reads of random ones (not in an in-place op).
  bool uninitialized_reads = false;

  // Unsupported operations met so far (DESIGN.md decision 6: one run lists them all). Each poison
  // is reported once, where it first reached a torch op.
  DiagnosticList problems;
  std::set<std::string> reported;
  // Warnings (hooks registered, random weights, ...), printed by the driver.
  std::vector<Diagnostic> warnings;
  // --dim NAME=LO..: declared least values of input dims (size_assumptions.cpp).
  std::map<std::string, int64_t> declared_min;
  std::set<std::string> assumptions_said;  // one warning per place and assumption
  // The opset the file is written at (--opset): the few recording decisions that depend on it
  // (Reshape's allowzero exists from 14). Everything is recorded at 17; lowering converts.
  int out_opset = 17;
  // simplify_sizes' answers (symint.cpp).
  std::unordered_map<ir::DimExpr, ir::DimExpr> simplified_sizes;

  // Where each `present` flag of a tensor that is None on some runs was made (the If's condition),
  // for errors about it.
  std::unordered_map<const ir::Value*, SourceRange> present_where;

  // Conversion-time values (const_eval.cpp): what the fold kernels gave for recorded values of the
  // main graph, what could not be computed (and why), and the initializers that are no
  // conversion-time constants: weights bound from the checkpoint and placeholders for random or
  // uninitialized values (with the phrase errors use for them).
  std::unordered_map<const ir::Value*, std::shared_ptr<const ir::Tensor>> known;
  std::unordered_map<const ir::Value*, std::string> unknown;
  std::unordered_map<const ir::Value*, std::string> opaque;
  // The initializers bound from a real checkpoint (not random stand-ins): checkpoint_values() may
  // read them.
  std::unordered_set<const ir::Value*> checkpoint_weights;

  eval::Value dtype_object(DType t) const { return dtype_objects[static_cast<size_t>(t)]; }
  // Drops the Python values held here (before the interpreter that owns them goes away).
  void release_values() {
    dtype_objects.clear();
    cpu_device = eval::Value();
    return_types.clear();
    tensor_api_names = eval::Value();
  }
};

// The state installed in this thread's interpreter (install_torch in torch.h).
Torch& torch_state();
Torch* torch_state_opt();

// ---- tensors ---------------------------------------------------------------------------------------
bool is_tensor(const eval::Value& v);
inline TensorObj* as_tensor(const eval::Value& v) { return static_cast<TensorObj*>(v.obj()); }
// A new tensor of `dtype` and `shape` computed by `value`.
eval::Value new_tensor(Torch& T, ir::Value* value, DType dtype, std::vector<ir::DimExpr> shape);
// A new tensor of t's current value, dtype and shape: none of t's identity, view or flags.
eval::Value copy_of(Torch& T, TensorObj* t);
// A conversion-time constant (materialized on first use).
eval::Value new_constant(Torch& T, ir::Tensor data, DType dtype);
eval::Value new_fill(Torch& T, double fill, DType dtype, std::vector<ir::DimExpr> shape);
// The IR value of a tensor: materializes constants, re-derives stale views.
ir::Value* value_of(Torch& T, TensorObj* t);
// In-place write: rebinds `t` to `v` (same shape and dtype) and writes views back to their bases.
void assign_inplace(Torch& T, TensorObj* t, ir::Value* v);
// Called before any in-place change of `t`'s state (assign_inplace, take_state_of).
inline void note_write(Torch& T, TensorObj* t) {
  for (auto& w : T.write_watchers) w(t);
}
// Marks `view` as a view of `base` (for in-place writes through it).
void make_view(TensorObj* view, TensorObj* base, ViewSpec spec);
// Runs `op` (an op on tensors) while the model is built: when it read the values of a random tensor
// (torch.randn(1, n) * .02 in __init__), PyTorch's result is random too, so the tensors it gives (a
// tensor, or those in a tuple or list) become random placeholders whose values the checkpoint gives;
// `inplace`: also the tensors the written one views. Ops that do not read the values (zeros_like,
// fill_) give what they give.
eval::Value placeholder_scope(Torch& T, bool inplace, const std::function<eval::Value()>& op);
// An in-place random write while the model is built (normal_, uniform_, nn.init's random
// initializers): `t` and every tensor it views become random placeholders.
void make_random_inplace(TensorObj* t);
// Whether `t` is a random placeholder or a view of one: reading its values outside an op (a copy,
// Parameter(view)) must give a placeholder, not the zeros that stand for it in the graph.
bool has_random_values(const TensorObj* t);
// The legacy constructors torch.Tensor(...), torch.FloatTensor(...) & co (dtype `dt`) and
// Tensor.new(...) (the tensor's dtype), reading their arguments as PyTorch's legacy constructor does:
// () an empty 1-d tensor; (n, m, ...) or (torch.Size) an uninitialized tensor of that shape;
// (sequence) a tensor of its values (a tuple too: FloatTensor((2, 3)) holds 2 and 3); (tensor) an
// alias of it, whose dtype must be `dt`. `device=` is accepted (tensors have no device here).
eval::Value legacy_new(Torch& T, DType dt, const eval::Args& a, const char* what);

// ---- conversion-time values (const_eval.cpp) ---------------------------------------------------------
// The values of `t` when they depend on no graph input, no weight and no random or uninitialized
// placeholder (DESIGN.md decision 1): its data or fill, or what the recorded nodes computing it give
// when evaluated with the fold kernels (on demand, memoized). Null when they are not known at
// conversion time; then `why` (if given) says what they depend on ("" for a graph input).
std::shared_ptr<const ir::Tensor> known_values(Torch& T, TensorObj* t, std::string* why = nullptr);
// The one value every element of `v` has, when the IR that computes it says so whatever the input
// (const_uniform.cpp: fills of symbolic size through elementwise ops, data movement, reductions).
std::optional<ir::Tensor> uniform_value(Torch& T, const ir::Value* v);
// The same, or the error that `use` needs a concrete value that is not known at conversion time.
std::shared_ptr<const ir::Tensor> need_values(Torch& T, TensorObj* t, const std::string& use);
// The values of condition `v` as the checkpoint given makes them, when they depend on no graph input
// and no random placeholder (weights included, unlike known_values): null otherwise. Only to settle
// a tensor-dependent condition whose other arm cannot be recorded (control_flow.cpp); never memoized.
std::shared_ptr<const ir::Tensor> checkpoint_values(Torch& T, ir::Value* v);
// Marks an initializer whose values are no conversion-time constant: `what` names it in errors
// ("the weight 'fc.weight'", "a random tensor (torch.randn & co)").
void mark_opaque(Torch& T, const ir::Value* v, std::string what);

// ---- size assumptions (size_assumptions.cpp) ----------------------------------------------------------
// The inventory of decisions taken from a symbolic size that would come out differently when the
// size is 0 or 1 (issue 29). `what` names the operation the user wrote ("x.squeeze()"). Where the
// size is provably >= 2 (static, or every symbol declared so with --dim) nothing is said; where an
// input dim in it is declared to take 0 or 1 the export fails (no ONNX of fixed rank is right for
// both); otherwise the export assumes the size is not 1, as torch.export does, and warns at the
// user's line naming the dim.
void assume_not_one(Torch& T, ir::DimExpr size, const std::string& what, const std::string& consequence);
// The same for a decision that holds when the size is at least k.
void assume_at_least(Torch& T, ir::DimExpr size, int64_t k, const std::string& what, const std::string& consequence);
// Whether slice bound `b` (a size expression) counts from the end, i.e. is negative, as Python reads
// it; a sign the bounds do not prove, but undeclared dims of at least 2 would, is assumed and said;
// nullopt when not even that decides it (the caller then reads the bound exactly).
std::optional<bool> slice_bound_from_end(Torch& T, ir::DimExpr b);
// The least value declared for input dim `name` (--dim), if any.
std::optional<int64_t> declared_min(const Torch& T, const std::string& name);

// ---- sizes ------------------------------------------------------------------------------------------
// A shape as messages print it: [N, 3, floor(H / 2)].
std::string shape_text(const std::vector<ir::DimExpr>& shape);
// A size as Python sees it: an int when static, else a SymInt.
eval::Value make_size_value(Torch& T, ir::DimExpr d);
eval::Value make_size_tuple(Torch& T, const std::vector<ir::DimExpr>& dims);  // torch.Size
bool is_symint(const eval::Value& v);
// The least value a size expression can take, when there is one (sizes are never negative, which
// the DimExpr algebra itself does not assume): `N` >= 0, `N + 1` >= 1, `floor(N / 2)` >= 0.
// `undeclared` > 0: an input dim with no --dim bound counts as at least that (1: where the file must
// be right at batch 1 without saying so, not the bounds the export proves things with).
std::optional<int64_t> size_lower_bound(Torch& T, ir::DimExpr e, int64_t undeclared = 0);
// A Reshape of v to `shape` (every dim known, no -1) whose shape input says a run-time size that can be 0
// as a 0, not as ONNX's "copy the input's dim" (ops_shape.cpp). With `copy_from` (the input's shape),
// a size equal to the input's at the same index is written as that copy.
ir::Value* reshape_value(Torch& T, ir::Value* v, const std::vector<ir::DimExpr>& shape, ir::ElementType e,
                         const std::vector<ir::DimExpr>* copy_from = nullptr);
// `e` with the min/max arguments that those bounds order dropped (`min(0, N)` is 0).
ir::DimExpr simplify_sizes(Torch& T, ir::DimExpr e);
// A size read at run time from a one-element tensor's value (int(t), a size merged from two branches
// of an If), truncated toward zero.
ir::DimExpr size_from_tensor(Torch& T, TensorObj* t);
// A one-element tensor whose value is only known at run time (not random, not uninitialized, real):
// Python scalars read from it (int(t), float(t), t.item()) are run-time values, a size or a zero-dim
// tensor, instead of an error.
bool runtime_scalar(Torch& T, TensorObj* t);
// An int only known at run time: a size, or a zero-dim integer tensor of run-time value (a Loop's
// counter), as Python's range() and indexing take it through __index__ in eager.
bool runtime_int(Torch& T, const eval::Value& v);
// The value of a size or of a zero-dim integer tensor (its value known or not) as a zero-dim int64
// graph value, an index for Gather; null for anything else.
ir::Value* index_value(Torch& T, const eval::Value& v);
// The Python scalar int(t) / float(t) (as_float) gives for such a tensor: a size (truncated toward
// zero; the size it was made from when t holds sizes) or a zero-dim float tensor (a run-time Python
// float). t.item() is the one its dtype asks for.
eval::Value runtime_item(Torch& T, TensorObj* t, bool as_float);
// A Python number or size as a zero-dim tensor (a size's run-time value; a number as torch.tensor(n)
// gives it); a tensor as itself.
eval::Value operand_tensor(Torch& T, const eval::Value& v);

// ---- diagnostics --------------------------------------------------------------------------------------
// Records an unsupported operation (op name, why) at the current location and module path and
// returns a poison value standing for its result, so evaluation continues and later problems are
// reported too.
eval::Value unsupported(Torch& T, const std::string& what, const std::string& why);
// A poison argument reached a torch op: reported once per poison origin; returns a poison result.
eval::Value poison_reached_op(Torch& T, const eval::Value& poison, const std::string& op);
// A concrete value is needed but the tensor/size is only known at run time.
[[noreturn]] void need_concrete(Torch& T, const std::string& what, const std::string& use);

// Installers for the native types (called by install_torch in native_module.cpp).
void init_tensor_type(Torch& T);
void init_symint_type(Torch& T);
void init_dtype_types(Torch& T);

}  // namespace onnxify::torch
