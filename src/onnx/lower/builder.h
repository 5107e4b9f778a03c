// Builder: emits ONNX nodes in place of a composite node (before it, in its graph), stamping each
// with the composite's source location and module path, so a diagnostic about any emitted node
// (e.g. a target check) points at the Python line that made it.
//
// Emitted nodes use the canonical opset-17 forms (Reduce* with an `axes` attribute, Split with a
// `split` input, ...); ops newer than 17 (Gelu, GroupNormalization-21, Attention, ...) are emitted in
// their own form. The opset converter (src/onnx/opset/) turns the canonical forms into the
// requested opset afterwards, so no lowering rule needs to know about opset differences of the
// plain ops it uses.
//
// Every value gets a type where one can be worked out: from the explicit type given, else from
// infer_type() (types.cpp) over the inputs' types and constant inputs. Shapes are DimExprs, so
// symbolic dims flow through (`floor((H + 1) / 2)`).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "ir/graph.h"

namespace onnxify::lowering {

// Attributes for an emitted node: Attrs().i("axis", 1).ints("perm", {0, 2, 1}), or built up on a
// named Attrs and passed with std::move.
class Attrs {
 public:
#define ONNXIFY_ATTRS_SETTER(fn, T)                                              \
  Attrs& fn(std::string n, T v)& {                                               \
    list_.emplace_back(std::move(n), ir::Attribute(std::move(v)));               \
    return *this;                                                                \
  }                                                                              \
  Attrs&& fn(std::string n, T v)&& {                                             \
    return std::move(static_cast<Attrs&>(*this).fn(std::move(n), std::move(v))); \
  }
  ONNXIFY_ATTRS_SETTER(i, int64_t)
  ONNXIFY_ATTRS_SETTER(f, float)
  ONNXIFY_ATTRS_SETTER(s, std::string)
  ONNXIFY_ATTRS_SETTER(ints, std::vector<int64_t>)
  ONNXIFY_ATTRS_SETTER(floats, std::vector<float>)
  ONNXIFY_ATTRS_SETTER(t, ir::Tensor)
#undef ONNXIFY_ATTRS_SETTER
  std::vector<std::pair<std::string, ir::Attribute>>& list() { return list_; }

 private:
  std::vector<std::pair<std::string, ir::Attribute>> list_;
};

// A tensor of `shape` filled with v in element type t (numeric types).
ir::Tensor filled_tensor(double v, ir::ElementType t, const std::vector<int64_t>& shape);

// The type an ONNX op's first output would have (unknown when it cannot be worked out).
ir::Type infer_type(const ir::Node& n);

class Builder {
 public:
  // Emits before `anchor`, in anchor's graph, with anchor's location and module path.
  explicit Builder(ir::Node& anchor) : anchor_(anchor), graph_(*anchor.graph()) {}

  ir::Graph& graph() { return graph_; }
  const ir::Node& anchor() const { return anchor_; }

  // An ONNX node with one output. `type`, when given, is the output's type; else it is inferred.
  ir::Value* op(std::string_view op_type, const std::vector<ir::Value*>& inputs, Attrs&& attrs = Attrs(),
                std::optional<ir::Type> type = std::nullopt);
  // An ONNX node with `num_outputs` outputs (types given or unknown; the first is inferred when
  // not given). `present` marks which outputs exist (default: all).
  ir::Node* node(std::string_view op_type, const std::vector<ir::Value*>& inputs, size_t num_outputs,
                 Attrs&& attrs = Attrs(), std::vector<ir::Type> types = {});

  // ---- constants (initializers of the anchor's graph)
  ir::Value* constant(ir::Tensor t);
  ir::Value* i64(const std::vector<int64_t>& values);  // 1-D int64
  ir::Value* i64_scalar(int64_t v);                    // 0-d int64
  ir::Value* scalar(double v, ir::ElementType t);      // 0-d of a numeric element type
  ir::Value* filled(double v, ir::ElementType t, const std::vector<int64_t>& shape);

  // ---- shapes
  // int64[1] holding dim `axis` of x (negative counts from the end): a constant when static.
  ir::Value* dim(ir::Value* x, int64_t axis);
  // int64[end - start] holding dims [start, end) of x: constants where static.
  ir::Value* dims(ir::Value* x, int64_t start, int64_t end);
  // 1-D int64 concatenation of 1-D int64 parts (constant parts are merged).
  ir::Value* concat_i64(const std::vector<ir::Value*>& parts);
  // The whole shape of x (constant when static).
  ir::Value* shape(ir::Value* x) { return dims(x, 0, rank(x)); }

  // ---- common ops in canonical (opset 17) form
  ir::Value* reshape(ir::Value* x, ir::Value* shape, std::optional<ir::Type> type = std::nullopt);
  ir::Value* reshape(ir::Value* x, const std::vector<int64_t>& shape);
  ir::Value* transpose(ir::Value* x, const std::vector<int64_t>& perm);
  ir::Value* unsqueeze(ir::Value* x, const std::vector<int64_t>& axes);
  ir::Value* squeeze(ir::Value* x, const std::vector<int64_t>& axes);
  ir::Value* reduce(std::string_view op_type, ir::Value* x, const std::vector<int64_t>& axes, bool keepdims);
  ir::Value* slice(ir::Value* x, const std::vector<int64_t>& starts, const std::vector<int64_t>& ends,
                   const std::vector<int64_t>& axes, const std::vector<int64_t>& steps = {});
  ir::Value* cast(ir::Value* x, ir::ElementType to);
  ir::Value* concat(const std::vector<ir::Value*>& xs, int64_t axis);

  // ---- helpers
  static int64_t rank(const ir::Value* x);
  static ir::ElementType elem(const ir::Value* x);
  // The static value of dim `axis` of x, if known.
  static std::optional<int64_t> static_dim(const ir::Value* x, int64_t axis);
  // The constant values of a small int64/int32 initializer.
  static std::optional<std::vector<int64_t>> const_ints(const ir::Value* v);

 private:
  void stamp(ir::Node* n);
  ir::Node& anchor_;
  ir::Graph& graph_;
};

}  // namespace onnxify::lowering
