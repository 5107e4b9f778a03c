// Node attributes: every ONNX attribute kind, from ONE table.
//
// Columns: enumerator, IR-text keyword (used to type an empty list: `ints[]`), ONNX
// AttributeProto.AttributeType value. Graph-valued attributes are the node's regions (If branches,
// Loop/Scan bodies); the node owns them.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

#include "ir/tensor.h"

namespace onnxify::ir {

class Graph;

// The order is the std::variant alternative order in Attribute.
#define ONNXIFY_ATTR_KINDS(X) \
  X(Float, "float", 1)        \
  X(Int, "int", 2)            \
  X(String, "string", 3)      \
  X(Tensor, "tensor", 4)      \
  X(Graph, "graph", 5)        \
  X(Floats, "floats", 6)      \
  X(Ints, "ints", 7)          \
  X(Strings, "strings", 8)    \
  X(Tensors, "tensors", 9)    \
  X(Graphs, "graphs", 10)

enum class AttrKind : uint8_t {
#define X(e, name, onnx) e,
  ONNXIFY_ATTR_KINDS(X)
#undef X
};

std::string_view to_string(AttrKind k);
int onnx_attr_type(AttrKind k);
std::optional<AttrKind> attr_kind_from_onnx(int onnx_type);
std::optional<AttrKind> attr_kind_from_name(std::string_view name);

class Attribute {
 public:
  using GraphPtr = std::unique_ptr<Graph>;
  using GraphList = std::vector<GraphPtr>;

  Attribute(float v);                     // NOLINT
  Attribute(int64_t v);                   // NOLINT
  Attribute(std::string v);               // NOLINT
  Attribute(const char* v);               // NOLINT
  Attribute(Tensor v);                    // NOLINT
  Attribute(GraphPtr v);                  // NOLINT
  Attribute(std::vector<float> v);        // NOLINT
  Attribute(std::vector<int64_t> v);      // NOLINT
  Attribute(std::vector<std::string> v);  // NOLINT
  Attribute(std::vector<Tensor> v);       // NOLINT
  Attribute(GraphList v);                 // NOLINT
  Attribute(Attribute&&) noexcept;
  Attribute& operator=(Attribute&&) noexcept;
  ~Attribute();

  AttrKind kind() const { return static_cast<AttrKind>(v_.index()); }
  float f() const { return std::get<float>(v_); }
  int64_t i() const { return std::get<int64_t>(v_); }
  const std::string& s() const { return std::get<std::string>(v_); }
  const Tensor& t() const { return std::get<Tensor>(v_); }
  Graph& g() const { return *std::get<GraphPtr>(v_); }
  const std::vector<float>& floats() const { return std::get<std::vector<float>>(v_); }
  const std::vector<int64_t>& ints() const { return std::get<std::vector<int64_t>>(v_); }
  const std::vector<std::string>& strings() const { return std::get<std::vector<std::string>>(v_); }
  const std::vector<Tensor>& tensors() const { return std::get<std::vector<Tensor>>(v_); }
  const GraphList& graphs() const { return std::get<GraphList>(v_); }
  bool has_graphs() const { return kind() == AttrKind::Graph || kind() == AttrKind::Graphs; }
  // Moves the graph out of a Graph attribute (which is left holding null).
  GraphPtr release_graph() { return std::move(std::get<GraphPtr>(v_)); }

  // Value equality for non-graph kinds; graph attributes are equal only to themselves.
  bool equals(const Attribute& other) const;
  size_t hash() const;

 private:
  friend class Node;
  std::variant<float, int64_t, std::string, Tensor, GraphPtr, std::vector<float>, std::vector<int64_t>,
               std::vector<std::string>, std::vector<Tensor>, GraphList>
      v_;
};

}  // namespace onnxify::ir
