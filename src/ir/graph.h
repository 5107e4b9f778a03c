// Graph, Node, Value: the IR's core data structures.
//
// A Graph is a list of Nodes in execution order plus its interface: inputs, initializers (named
// constants whose data is a Tensor, usually a view into a mapped checkpoint) and outputs. A Node is
// one op (domain + op type: ONNX ops in domain "", composite torch-semantics ops in domain
// "onnxify"), with inputs (a null input is an omitted optional input), outputs (a null output is an
// omitted optional output), attributes, a source location and a module path. Graph-valued
// attributes are the node's regions (If branches, Loop and Scan bodies): nodes inside a region may
// use any value visible at the region's parent node -- ONNX's implicit capture of outer values.
//
// Every Value knows its definition (node output, graph input or initializer) and its uses (node
// input slots and graph output slots), kept up to date by the mutators below, so passes can ask
// "who uses this?" and call replace_all_uses_with(). Values are single-assignment by construction.
//
// Names: Value::name() is a hint (a Python variable or parameter name); the printer and the ONNX
// writer make names unique across the whole model (NameTable), as ONNX requires.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "ir/attribute.h"
#include "ir/tensor.h"
#include "ir/type.h"
#include "support/source.h"

namespace onnxify::ir {

class Graph;
class Node;

// One use of a value: input slot `index` of `user`, or output slot `index` of `graph` (user null).
struct Use {
  Node* user = nullptr;
  Graph* graph = nullptr;
  uint32_t index = 0;
  friend bool operator==(const Use&, const Use&) = default;
};

class Value {
 public:
  enum class Def : uint8_t { NodeOutput, GraphInput, Initializer };

  const Type& type() const { return type_; }
  void set_type(Type t) { type_ = std::move(t); }
  const std::string& name() const { return name_; }
  // An all-digit name means "no name" (so `%7` in IR text renumbers freely).
  void set_name(std::string name);

  Def def() const { return def_; }
  bool is_initializer() const { return def_ == Def::Initializer; }
  bool is_graph_input() const { return def_ == Def::GraphInput; }
  // The node that computes this value (null for graph inputs and initializers).
  Node* producer() const { return producer_; }
  // Output slot in the producer, or position among the graph's inputs / initializers.
  uint32_t index() const { return index_; }
  // The graph in which the value is defined.
  Graph* graph() const { return graph_; }
  // Initializer data (null unless is_initializer()).
  const Tensor* initializer() const { return init_.get(); }
  void set_initializer(Tensor t);

  const std::vector<Use>& uses() const { return uses_; }
  bool has_uses() const { return !uses_.empty(); }
  // Redirects every use (node inputs and graph outputs) to `other`.
  void replace_all_uses_with(Value* other);

 private:
  friend class Node;
  friend class Graph;
  Value(Def def, Graph* graph, Node* producer, uint32_t index, Type type, std::string name);
  void add_use(Use u) { uses_.push_back(u); }
  void remove_use(Use u);

  Type type_;
  std::string name_;
  Def def_;
  Node* producer_;
  Graph* graph_;
  uint32_t index_;
  std::vector<Use> uses_;
  std::unique_ptr<Tensor> init_;
};

class Node {
 public:
  Node(const Node&) = delete;
  friend class Value;
  Node& operator=(const Node&) = delete;

  const std::string& domain() const { return domain_; }
  const std::string& op_type() const { return op_type_; }
  // "Conv", or "onnxify::layer_norm" for other domains (the IR text spelling).
  std::string qualified_op() const;
  bool is(std::string_view op_type, std::string_view domain = "") const {
    return op_type_ == op_type && domain_ == domain;
  }

  size_t num_inputs() const { return inputs_.size(); }
  Value* input(size_t i) const { return i < inputs_.size() ? inputs_[i] : nullptr; }
  const std::vector<Value*>& inputs() const { return inputs_; }
  void set_input(size_t i, Value* v);
  void add_input(Value* v);
  // Removes input i; later inputs move down one slot.
  void remove_input(size_t i);

  size_t num_outputs() const { return outputs_.size(); }
  Value* output(size_t i) const { return outputs_[i].get(); }
  Value* add_output(Type type = {}, std::string name = {});
  // An omitted optional output (ONNX's empty output name).
  void add_absent_output() { outputs_.emplace_back(); }
  // Removes output i, which must have no uses; later outputs move down one slot.
  void erase_output(size_t i);

  // Attributes in insertion order. Mutate through set_attr / remove_attr (they own regions).
  const std::vector<std::pair<std::string, Attribute>>& attrs() const { return attrs_; }
  const Attribute* attr(std::string_view name) const;
  void set_attr(std::string name, Attribute value);
  bool remove_attr(std::string_view name);
  // Convenience readers with defaults.
  int64_t attr_int(std::string_view name, int64_t dflt) const;
  float attr_float(std::string_view name, float dflt) const;
  std::string attr_string(std::string_view name, std::string dflt) const;
  std::vector<int64_t> attr_ints(std::string_view name, std::vector<int64_t> dflt = {}) const;
  // The graphs held by graph-valued attributes, in attribute order.
  std::vector<Graph*> regions() const;
  bool has_regions() const;

  const SourceRange& loc() const { return loc_; }
  void set_loc(SourceRange loc) { loc_ = std::move(loc); }
  // Dotted path of the nn.Module that created the node ("layer1.0.conv1"); "" at the top.
  const std::string& module_path() const { return module_path_; }
  void set_module_path(std::string p) { module_path_ = std::move(p); }

  Graph* graph() const { return graph_; }
  Node* next() const { return next_; }
  Node* prev() const { return prev_; }

 private:
  friend class Graph;
  Node(Graph* g, std::string domain, std::string op_type)
      : domain_(std::move(domain)), op_type_(std::move(op_type)), graph_(g) {}
  ~Node();

  std::string domain_;
  std::string op_type_;
  std::vector<Value*> inputs_;
  std::vector<std::unique_ptr<Value>> outputs_;
  std::vector<std::pair<std::string, Attribute>> attrs_;
  SourceRange loc_;
  std::string module_path_;
  Graph* graph_;
  Node* prev_ = nullptr;
  Node* next_ = nullptr;
};

// Iterates a graph's nodes; the current node may be erased during iteration.
class NodeRange {
 public:
  class iterator {
   public:
    explicit iterator(Node* n) : cur_(n), next_(n ? n->next() : nullptr) {}
    Node* operator*() const { return cur_; }
    iterator& operator++() {
      cur_ = next_;
      next_ = cur_ ? cur_->next() : nullptr;
      return *this;
    }
    bool operator!=(const iterator& o) const { return cur_ != o.cur_; }

   private:
    Node* cur_;
    Node* next_;
  };
  explicit NodeRange(Node* first) : first_(first) {}
  iterator begin() const { return iterator(first_); }
  iterator end() const { return iterator(nullptr); }

 private:
  Node* first_;
};

// Old value -> new value, for cloning.
using ValueMap = std::unordered_map<const Value*, Value*>;

class Graph {
 public:
  friend class Value;
  explicit Graph(std::string name = "");
  ~Graph();
  Graph(const Graph&) = delete;
  Graph& operator=(const Graph&) = delete;

  const std::string& name() const { return name_; }
  void set_name(std::string n) { name_ = std::move(n); }
  // Unique for the process's lifetime, unlike the graph's address (a region deleted and a new one
  // allocated at the same address): caches keyed by graph use it, so a stale entry is never found.
  uint64_t serial() const { return serial_; }

  // --- interface ---
  Value* add_input(Type type, std::string name = {});
  size_t num_inputs() const { return inputs_.size(); }
  Value* input(size_t i) const { return inputs_[i].get(); }
  // Removes input i, which must have no uses.
  void erase_input(size_t i);

  Value* add_initializer(Tensor data, std::string name = {});
  size_t num_initializers() const { return initializers_.size(); }
  Value* initializer(size_t i) const { return initializers_[i].get(); }
  // Removes an initializer of this graph, which must have no uses.
  void erase_initializer(Value* v);
  // Moves an initializer of a nested graph into this graph (keeping its uses).
  void adopt_initializer(Value* v);

  size_t num_outputs() const { return outputs_.size(); }
  Value* output(size_t i) const { return outputs_[i]; }
  const std::vector<Value*>& outputs() const { return outputs_; }
  void add_output(Value* v);
  void set_output(size_t i, Value* v);
  void erase_output(size_t i);

  // --- nodes ---
  // Creates a node before `before` (at the end when null) with `num_outputs` outputs of unknown type.
  Node* create(std::string domain, std::string op_type, const std::vector<Value*>& inputs, size_t num_outputs,
               Node* before = nullptr);
  Node* append(std::string op_type, const std::vector<Value*>& inputs, size_t num_outputs = 1) {
    return create("", std::move(op_type), inputs, num_outputs);
  }
  // Deletes a node whose outputs have no uses (throws std::logic_error otherwise); drops the uses
  // made by the node and by everything in its regions.
  void erase(Node* n);
  // Moves `n` (a node of this graph) to just before `before` (to the end when null).
  void move_before(Node* n, Node* before);
  NodeRange nodes() const { return NodeRange(first_); }
  Node* first() const { return first_; }
  Node* last() const { return last_; }
  bool empty() const { return first_ == nullptr; }
  size_t num_nodes() const { return size_; }

  // --- nesting ---
  // The node whose attribute holds this graph (null for the main graph).
  Node* parent_node() const { return parent_; }
  Graph* parent_graph() const;
  // True when `g` is this graph or nested (at any depth) inside it.
  bool encloses(const Graph* g) const;

  // Deep copy. Values found in `map` are replaced; values defined outside the copied graph and not in
  // the map (outer captures) are kept. The map is extended with every copied value.
  std::unique_ptr<Graph> clone(ValueMap& map) const;
  // Copies node `n` (with its regions) before `before` in this graph, mapping inputs through `map`.
  Node* clone_node(const Node& n, ValueMap& map, Node* before = nullptr);

 private:
  friend class Node;
  void link(Node* n, Node* before);
  void unlink(Node* n);
  // Removes uses held by nodes/outputs of this graph (recursively) on values defined outside it.
  void detach_outer_uses();

  std::string name_;
  std::vector<std::unique_ptr<Value>> inputs_;
  std::vector<std::unique_ptr<Value>> initializers_;
  std::vector<Value*> outputs_;
  Node* first_ = nullptr;
  Node* last_ = nullptr;
  size_t size_ = 0;
  Node* parent_ = nullptr;
  uint64_t serial_;
};

// Unique names for every value of a model (the main graph and all regions), assigned in definition
// order: a value's hint when free, else hint_1, hint_2, ...; unnamed values get 0, 1, 2, ...
// The printer and the ONNX writer share it, so ONNX tensor names match the printed IR.
class NameTable {
 public:
  explicit NameTable(const Graph& main);
  const std::string& operator()(const Value* v) const;
  // A name no value uses, derived from `hint` (for values a writer adds); it is then taken.
  std::string fresh(const std::string& hint);

 private:
  void assign(const Graph& g);
  void take(const Value* v);
  std::unordered_map<const Value*, std::string> names_;
  std::unordered_map<std::string, int> taken_;
  int64_t counter_ = 0;
};

}  // namespace onnxify::ir
