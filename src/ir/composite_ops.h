// The composite-op table (composite_ops.def) as data: ports, attributes with their kinds and
// defaults, and the verifier rule of each op (registered with op_rules.h the first time any rule is
// looked up). The lowering (src/onnx/lower/) reads attributes through attr_*() below so that the
// table's defaults are the only defaults.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "ir/graph.h"
#include "ir/op_rules.h"

namespace onnxify::ir {

enum class PortType : uint8_t { Float, Int64, Int, Bool, Num, Mask, Any };

struct CompositePort {
  std::string name;
  PortType type = PortType::Any;
  bool optional = false;
};

struct CompositeAttr {
  enum class Presence : uint8_t { Required, Default, Optional };
  std::string name;
  AttrKind kind = AttrKind::Int;
  Presence presence = Presence::Required;
  // The default (for Presence::Default), in the member matching `kind`.
  int64_t i = 0;
  float f = 0;
  std::string s;
  std::vector<int64_t> ints;
  std::vector<float> floats;
  std::vector<std::string> choices;  // allowed values of a string attribute (empty: any)
};

struct CompositeOp {
  std::string name;
  std::string semantics;  // the PyTorch function whose behaviour is the spec
  std::string summary;
  std::vector<CompositePort> inputs;
  std::vector<CompositePort> outputs;
  std::vector<CompositeAttr> attrs;
  const CompositeAttr* attr(std::string_view name) const;
};

// Every row of composite_ops.def, in table order.
const std::vector<CompositeOp>& composite_ops();
const CompositeOp* find_composite_op(std::string_view name);
// One verifier rule per row (op_rules.cpp registers them before the first lookup).
std::vector<OpRule> composite_op_rules();

// Attribute readers for composite nodes: the node's value, else the table's default. Calling one
// for an attribute the table does not list, or with the wrong kind, throws std::logic_error.
// has_attr() is false for an absent optional attribute without default.
bool has_attr(const Node& n, std::string_view name);
int64_t attr_i(const Node& n, std::string_view name);
float attr_f(const Node& n, std::string_view name);
std::string attr_s(const Node& n, std::string_view name);
std::vector<int64_t> attr_ints(const Node& n, std::string_view name);
std::vector<float> attr_floats(const Node& n, std::string_view name);

}  // namespace onnxify::ir
