// The op library: ONE table type, rows split by family into ops_<family>.cpp files.
//
// A row is a PyTorch schema string, flags saying where Python sees it, and the function that applies
// the shape/dtype rule and records IR nodes (ONNX ops at opset 17, or composite `onnxify` ops from
// src/ir/composite_ops.def). Rows with the same name are overloads, tried in table order.
//
//   {"relu(Tensor self) -> Tensor", kFn | kMethod | kInplace, [](OpCall& c) { return c.unary("Relu"); }},
//
// See src/torch/README.md ("How to add an op").
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "torch/core.h"
#include "torch/schema.h"

namespace onnxify::torch {

enum OpFlags : uint32_t {
  kFn = 1u << 0,        // torch.NAME (and torch._C._VariableFunctions.NAME)
  kMethod = 1u << 1,    // Tensor.NAME (the first parameter is self)
  kInplace = 1u << 2,   // also Tensor.NAME_ : the result is written into self (functionalized)
  kNN = 1u << 3,        // torch._C._nn.NAME (the prelude's torch.nn.functional uses these)
  kFnInplace = 1u << 4, // also torch.NAME_ (torch.relu_)
};

class OpCall;
using OpFn = eval::Value (*)(OpCall& c);

struct OpDef {
  const char* schema;
  uint32_t flags;
  OpFn fn;
};

// The family tables (ops_<family>.cpp). Tests walk them through all_ops().
const std::vector<OpDef>& pointwise_ops();
const std::vector<OpDef>& reduce_ops();
const std::vector<OpDef>& shape_ops();
const std::vector<OpDef>& nn_ops();
const std::vector<OpDef>& create_ops();
const std::vector<OpDef>& index_ops();
const std::vector<OpDef>& layer_ops();   // ops_layers.cpp
const std::vector<OpDef>& math_ops();    // ops_math.cpp
const std::vector<OpDef>& stats_ops();   // ops_stats.cpp
const std::vector<OpDef>& linalg_ops();  // ops_linalg.cpp
const std::vector<OpDef>& attention_ops();  // ops_attention.cpp (scaled_dot_product_attention, rms_norm)
const std::vector<OpDef>& rnn_ops();  // ops_rnn.cpp (torch.lstm/gru/rnn_tanh/rnn_relu, _onnxify_rnn)
const std::vector<OpDef>& derived_ops();    // ops_derived.cpp (compositions: isnan, diag, cdist, index_add, ...)
const std::vector<OpDef>& random_ops();     // ops_random.cpp (rand/randn/..., in-place random fills, dropout)

struct OpRow {
  const OpDef* def;
  Schema schema;
};
// Every row of every family, in order, with its parsed schema.
const std::vector<OpRow>& all_ops();

// One name and its overloads.
struct OpGroup {
  std::string name;
  uint32_t flags = 0;  // union of the rows' flags
  std::vector<const OpRow*> rows;
};
const OpGroup* find_op(std::string_view name);
const std::vector<OpGroup>& op_groups();

// Calls an op as Python would (`self` Null for torch.NAME, the tensor for Tensor.NAME).
eval::Value call_op(Torch& T, const OpGroup& g, const eval::Value& self, const eval::Args& a, bool inplace = false);
// Convenience for C++ callers (operator slots): positional arguments only.
eval::Value call_op(Torch& T, std::string_view name, std::vector<eval::Value> args, bool inplace = false);
// ... with one keyword argument (`dtype=...`, `decimals=...`).
eval::Value call_op_kw(Torch& T, std::string_view name, std::vector<eval::Value> pos, const char* kw,
                       eval::Value kwval);

// The Tensor methods of the table (Tensor.NAME, Tensor.NAME_), for the Tensor type's spec.
std::vector<eval::MethodDef> op_tensor_methods();
// Fills torch._C._VariableFunctions (torch.NAME, torch.NAME_) and torch._C._nn.
void install_op_functions(Torch& T, eval::Module* variable_functions, eval::Module* nn);

// What an op function gets: the bound arguments and helpers to read tensors and record nodes.
class OpCall {
 public:
  OpCall(Torch& T, const Bound& a) : T(T), I(T.I), rec(T.rec), a(a) {}
  Torch& T;
  eval::Interp& I;
  Recorder& rec;
  const Bound& a;

  const std::string& name() const { return a.schema->name; }
  TensorObj* t(size_t i) const { return a.tensor(i); }
  ir::Value* v(TensorObj* t) { return value_of(T, t); }
  ir::Value* v(size_t i) { return value_of(T, a.tensor(i)); }

  // A new tensor for a recorded value.
  eval::Value out(ir::Value* v, DType dtype, std::vector<ir::DimExpr> shape) {
    return new_tensor(T, v, dtype, std::move(shape));
  }
  // Records a one-output node of `type` and wraps it as a tensor.
  eval::Value node(std::string_view op, const std::vector<ir::Value*>& in, DType dtype, std::vector<ir::DimExpr> shape,
                   Attrs attrs = {}, std::string_view domain = "");
  // Same-shape, same-dtype unary op on argument 0.
  eval::Value unary(std::string_view op, Attrs attrs = {});
  // A unary float op: integer inputs are computed in the default float dtype (torch.sqrt(int) is float).
  eval::Value unary_float(std::string_view op);

  // An error in the user's arguments (raised as the Python exception PyTorch raises).
  [[noreturn]] void fail(eval::Type* exc, const std::string& msg) const;
  [[noreturn]] void value_error(const std::string& msg) const { fail(I.exc.ValueError, msg); }
  [[noreturn]] void runtime_error(const std::string& msg) const { fail(I.exc.RuntimeError, msg); }
  // An op or variant onnxify does not support: reported (with all others) and poison returned.
  eval::Value unsupported(const std::string& why) const;
};

// ---- helpers shared by the families (ops_util.cpp) ------------------------------------------------------

// A tensor of `shape` filled with `v` (a conversion-time constant; `uninitialized`: torch.empty's,
// whose values nothing may read). ops_create.cpp.
eval::Value fill_tensor(OpCall& c, std::vector<ir::DimExpr> shape, double v, DType dt, bool uninitialized = false);
// A random placeholder of `shape` (a draw while the model is built: the checkpoint gives its values).
// ops_random.cpp.
eval::Value random_placeholder(OpCall& c, std::vector<ir::DimExpr> shape, DType dt);
// A numpy array or scalar of the prelude's numpy passed where PyTorch takes tensors and numbers: its
// tensor, or its Python number, in *out (false for anything else). ops_registry.cpp.
bool numpy_operand(eval::Interp& I, const eval::Value& v, eval::Value* out);
// Normalizes a dim index against a rank like PyTorch (IndexError "Dimension out of range").
int64_t norm_dim(eval::Interp& I, int64_t d, int64_t rank);
// numpy broadcasting of two shapes (RuntimeError on a static mismatch).
std::vector<ir::DimExpr> broadcast_shapes(eval::Interp& I, const std::vector<ir::DimExpr>& a,
                                          const std::vector<ir::DimExpr>& b);
// Casts a tensor's value to `to` (no node when it already is).
ir::Value* cast_to(Torch& T, ir::Value* v, DType from, DType to, const std::vector<ir::DimExpr>& shape);
// Where(cond, a, b) of dtype `dt` (cond bool): ONNX Runtime's CPU Where has no bool, int8 or int16
// kernel, so bool data is selected with And/Or/Not and int8/int16 data in int32.
ir::Value* select_value(Torch& T, ir::Value* cond, ir::Value* a, ir::Value* b, DType dt,
                        const std::vector<ir::DimExpr>& shape);
// An operand of an elementwise op: a tensor or a Python scalar.
struct Operand {
  TensorObj* t = nullptr;
  Scalar s;
  bool is_tensor() const { return t != nullptr; }
};
Operand operand(eval::Interp& I, const eval::Value& v);  // tensor or Python number
// The dtype PyTorch computes an elementwise op on these operands in.
DType result_dtype(Torch& T, const std::vector<Operand>& ops);
// The operand's value in dtype `dt` (scalars become constants).
ir::Value* operand_value(Torch& T, const Operand& o, DType dt);
// Records an elementwise binary op with PyTorch's promotion and broadcasting. `compute`: the dtype
// to compute in (nullopt: the promoted dtype); `result`: the output dtype (nullopt: same as compute).
eval::Value binary_op(Torch& T, std::string_view onnx_op, const Operand& a, const Operand& b,
                      std::optional<DType> compute = std::nullopt, std::optional<DType> result = std::nullopt);
// An op's tuple result as torch.return_types.NAME when the prelude registered one (max.dim gives
// `values` and `indices`), else a plain tuple.
eval::Value make_return_type(Torch& T, const std::string& name, std::vector<eval::Value> items);
// The dims a reduction reduces (all when `dims` is empty or absent), normalized and sorted (ops_reduce.cpp).
std::vector<int64_t> reduce_dims(OpCall& c, TensorObj* x, std::optional<std::vector<int64_t>> dims);
// A shape (x's) after reducing `axes` (sorted), keeping them as 1 with keepdim.
std::vector<ir::DimExpr> reduced_shape(const std::vector<ir::DimExpr>& shape, const std::vector<int64_t>& axes,
                                       bool keepdim);
std::vector<ir::DimExpr> reduced_shape(TensorObj* x, const std::vector<int64_t>& axes, bool keepdim);
// The mean of `v` (of `shape`, in dtype `dt`) over `axes` (sorted): ReduceMean, or ReduceSum divided by
// the count when the reduced extent may be 0 at run time (ONNX Runtime's ReduceMean of nothing is 0,
// PyTorch's mean is NaN).
ir::Value* reduce_mean(OpCall& c, ir::Value* v, DType dt, const std::vector<ir::DimExpr>& shape,
                       const std::vector<int64_t>& axes, bool keepdim);
// A product of dims (numel).
ir::DimExpr product(const std::vector<ir::DimExpr>& dims, size_t from = 0, size_t to = SIZE_MAX);
// Whether t holds exactly one element (zero-dim, [1], [1, 1], ...), which Python reads as a number.
bool one_element(const TensorObj* t);

}  // namespace onnxify::torch
