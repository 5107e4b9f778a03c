// The recorder: where tensor operations become IR nodes.
//
// One recorder per export. It owns the main graph; nodes go into the innermost graph of a stack
// (the main graph, or the body of an If/Loop being recorded -- issue 7 pushes regions). Every node
// is stamped with the user's source location (the innermost frame outside the embedded prelude) and
// the module path of the innermost nn.Module being called (Module.__call__ pushes scopes).
//
// Shapes are DimExprs. A symbolic size is turned into a graph value only when an op needs it as data
// (Reshape's shape, Range's limit, ...): dim_value() walks the expression and builds Shape/Gather and
// integer arithmetic from the symbols' sources (the graph input and axis each symbol was declared
// on, or the tensor a data-dependent size was read from), cached per graph.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <unordered_map>
#include <variant>
#include <vector>

#include "eval/eval.h"
#include "ir/ir.h"

namespace onnxify::torch {

// A copyable attribute value for node-building code (ir::Attribute owns regions and is move-only).
struct AttrValue {
  std::variant<int64_t, float, std::string, std::vector<int64_t>, std::vector<float>, ir::Tensor> v;
  AttrValue(int64_t x) : v(x) {}                    // NOLINT
  AttrValue(float x) : v(x) {}                      // NOLINT
  AttrValue(std::string x) : v(std::move(x)) {}     // NOLINT
  AttrValue(const char* x) : v(std::string(x)) {}   // NOLINT
  AttrValue(std::vector<int64_t> x) : v(std::move(x)) {}  // NOLINT
  AttrValue(std::vector<float> x) : v(std::move(x)) {}    // NOLINT
  AttrValue(ir::Tensor x) : v(std::move(x)) {}            // NOLINT
  ir::Attribute to_attribute() const;
};
using Attrs = std::vector<std::pair<std::string, AttrValue>>;

class Recorder {
 public:
  explicit Recorder(eval::Interp& I);

  ir::Graph& main() { return *main_; }
  ir::Graph& current() { return *regions_.back(); }
  std::unique_ptr<ir::Graph> take_graph() { return std::move(main_); }
  void push_region(ir::Graph* g) { regions_.push_back(g); }
  void pop_region() { regions_.pop_back(); }
  // Drops what is cached for `g` (a region about to be deleted).
  void forget_graph(const ir::Graph* g) { dim_cache_.erase(g->serial()); }
  // How many fresh symbols were made so far (symbols made later are "u<k>" with k above it).
  int symbol_count() const { return fresh_counter_; }

  // ---- module scopes ------------------------------------------------------------------------------
  // The path named_modules() gives `module` ("layer1.0.conv1"); set by the export driver.
  void set_module_path(eval::Object* module, std::string path) { paths_[module] = std::move(path); }
  const std::string* module_path(eval::Object* module) const;
  void push_scope(eval::Object* module);
  void pop_scope();
  const std::string& scope() const;

  // ---- nodes ---------------------------------------------------------------------------------------
  // A node in the current graph, with location and module path. Output types are set by the caller.
  ir::Node* node(std::string_view op, const std::vector<ir::Value*>& inputs, size_t num_outputs = 1,
                 std::string_view domain = "");
  // One-output node whose output gets `type`; returns the output.
  ir::Value* emit(std::string_view op, const std::vector<ir::Value*>& inputs, ir::Type type, const Attrs& attrs = {},
                  std::string_view domain = "");
  SourceRange location() const;

  // ---- constants (initializers of the main graph, visible in every region) -------------------------
  ir::Value* constant(ir::Tensor t, std::string name = {});
  ir::Value* const_i64(const std::vector<int64_t>& v);  // 1-d int64
  ir::Value* const_i64_scalar(int64_t v);               // 0-d int64
  ir::Value* const_scalar(ir::ElementType t, double v);  // 0-d of any numeric type

  // ---- symbolic sizes as graph values ---------------------------------------------------------------
  // Declares where symbol `name` can be read at run time: dim `axis` of `tensor`.
  void add_symbol_source(const std::string& name, ir::Value* tensor, int64_t axis);
  bool has_symbol_source(const std::string& name) const { return sources_.count(name) != 0; }
  // Whether symbol `name` is a size (read from a tensor's dim, so never negative), not a value
  // read with int(t).
  bool is_size_symbol(const std::string& name) const {
    auto it = sources_.find(name);
    return it != sources_.end() && it->second.axis != kValueAxis;
  }
  // Whether symbol `name` is a dim of one of the exported model's inputs (`N` of x=float32[N,3]),
  // not a size computed inside it.
  bool is_input_dim(const std::string& name) const {
    auto it = sources_.find(name);
    return it != sources_.end() && it->second.axis != kValueAxis && it->second.tensor &&
           it->second.tensor->def() == ir::Value::Def::GraphInput && it->second.tensor->graph() == main_.get();
  }
  // A fresh symbol for a size only known at run time, read from dim `axis` of `tensor`.
  ir::DimExpr fresh_symbol(ir::Value* tensor, int64_t axis);
  // A fresh symbol whose run-time value is `value` itself (a 1-d int64 tensor of one element):
  // int(t) of a zero-dim tensor computed at run time.
  ir::DimExpr value_symbol(ir::Value* value) { return fresh_symbol(value, kValueAxis); }
  // The value of `e` as a 1-d int64 tensor of one element / a 0-d int64 scalar.
  ir::Value* dim_vec(ir::DimExpr e);
  ir::Value* dim_scalar(ir::DimExpr e);
  // A 1-d int64 tensor holding `dims` (a constant when all are static, else a Concat).
  ir::Value* shape_value(const std::vector<ir::DimExpr>& dims);
  // Whether dim_vec(e) can be computed in graph `g`: every symbol of `e` comes from a value of `g`
  // or of a graph enclosing it (not from a sibling branch of an If).
  bool computable_in(const ir::DimExpr& e, const ir::Graph* g) const;

 private:
  struct Source {
    ir::Value* tensor;
    int64_t axis;  // kValueAxis: `tensor` is the size itself
  };
  static constexpr int64_t kValueAxis = -1;
  ir::Value* build_dim(ir::DimExpr e);

  eval::Interp& I_;
  std::unique_ptr<ir::Graph> main_;
  std::vector<ir::Graph*> regions_;
  std::unordered_map<eval::Object*, std::string> paths_;
  std::vector<std::string> scopes_;
  std::map<std::string, Source> sources_;
  int fresh_counter_ = 0;
  // Per graph: values already built for a DimExpr (1-d form).
  // keyed by Graph::serial(): a graph's address can be reused by a later region
  std::unordered_map<uint64_t, std::unordered_map<ir::DimExpr, ir::Value*>> dim_cache_;
  std::map<std::vector<int64_t>, ir::Value*> i64_cache_;
  std::map<int64_t, ir::Value*> i64_scalar_cache_;
};

}  // namespace onnxify::torch
