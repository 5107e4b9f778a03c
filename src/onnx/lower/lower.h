// Internal interface of the lowering rules (src/onnx/lower/*.cpp): the context a rule sees, the rule
// table (rules.def), and Int, a size known at conversion time or computed at run time.
#pragma once

#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "ir/composite_ops.h"
#include "ir/dim.h"
#include "onnx/lower/builder.h"
#include "onnx/onnx.h"
#include "onnx/targets/target.h"
#include "support/diagnostic.h"

namespace onnxify::lowering {

// MaxPool's Indices output kept in ONNX's whole-tensor layout because it feeds max_unpool (and so
// needs no conversion when the unpool's output plane is as large as the pool's input plane).
struct WholeIndices {
  ir::DimExpr plane;                 // elements per (n, c) plane of the pooled input
  ir::Value* plane_value = nullptr;  // the same as an int64[1] (constant when static)
};

class Context {
 public:
  Context(const LowerOptions& options, const targets::TargetProfile& target, targets::TargetContext tc);

  const LowerOptions& options;
  const targets::TargetProfile& target;
  targets::TargetContext tc;
  targets::Capabilities caps;
  DiagnosticList diagnostics;
  std::unordered_map<const ir::Value*, WholeIndices> whole_indices;

  int opset() const { return tc.opset; }
  // Granularity: whether composite node `n` becomes the coarse ONNX op `onnx_op` (first in opset
  // `since`). `unfit` says why the coarse op cannot express this instance ("" when it can).
  // --decompose wins; --keep makes an impossible coarse op an error; otherwise the target decides.
  bool coarse(const ir::Node& n, std::string_view onnx_op, int since, std::string_view unfit = "");
  // Records a problem at `n`'s source location (the rule then leaves the node alone).
  void error(const ir::Node& n, const std::string& message, const std::string& help = "");

 private:
  std::set<std::string, std::less<>> decompose_, keep_;
};

// A rule replaces composite node `n`: it emits ONNX nodes through `b` and fills `out` with one
// value per output of `n` (null for an absent optional output). On failure it calls ctx.error()
// and leaves `out` empty.
using Rule = void (*)(ir::Node& n, Builder& b, Context& ctx, std::vector<ir::Value*>& out);

#define ONNXIFY_LOWERING(op, fn) void fn(ir::Node& n, Builder& b, Context& ctx, std::vector<ir::Value*>& out);
#include "onnx/lower/rules.def"
#undef ONNXIFY_LOWERING

Rule find_rule(std::string_view composite_op);

// ---- Int: a size as a DimExpr (for types) and, when not constant, the int64[1] value computing it.
struct Int {
  ir::DimExpr expr;
  ir::Value* value = nullptr;  // null when expr is a constant
  bool is_const() const { return expr.is_const(); }
  int64_t c() const { return expr.value(); }
};

Int int_const(int64_t v);
Int int_dim(Builder& b, ir::Value* x, int64_t axis);
Int int_add(Builder& b, const Int& a, const Int& c);
Int int_add(Builder& b, const Int& a, int64_t c);
Int int_mul(Builder& b, const Int& a, int64_t k);
Int int_mul(Builder& b, const Int& a, const Int& c);
Int int_floor_div(Builder& b, const Int& a, int64_t k);  // a >= 0 assumed (ONNX Div truncates)
Int int_min(Builder& b, const Int& a, const Int& c);
// The int64[1] value of an Int (a constant when static).
ir::Value* int_value(Builder& b, const Int& v);
// A 1-D int64 shape value from Ints.
ir::Value* shape_value(Builder& b, const std::vector<Int>& dims);
std::vector<ir::DimExpr> exprs(const std::vector<Int>& dims);

// ---- helpers shared by several rule files
// PyTorch's pooling output size along one axis (ceil_mode with PyTorch's rule: no window starts in
// the right padding).
Int pool_out(Builder& b, const Int& in, int64_t k, int64_t s, int64_t p, int64_t d, bool ceil_mode);
// Unbatched (C, *spatial) inputs get a batch dim for the ONNX pooling ops; `squeeze_out` undoes it.
ir::Value* batch_up(Builder& b, ir::Value* x, int64_t spatial, bool* added);
ir::Value* batch_down(Builder& b, ir::Value* y, bool added);
// Float constant of x's element type.
ir::Value* fconst(Builder& b, double v, const ir::Value* like);

}  // namespace onnxify::lowering
