// Rules for ops outside the ONNX domain. ONNX-domain nodes are checked against libonnx's schemas
// (verifier.cpp); composite torch-semantics ops (domain "onnxify", DESIGN.md decision 3) get their
// rule from the composite-op table (composite_ops.def), registered here before the first lookup.
// The verifier refuses an "onnxify" op without a rule; other domains (com.microsoft, ...) are
// unchecked.
#pragma once

#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace onnxify::ir {

class Node;

inline constexpr std::string_view kOnnxifyDomain = "onnxify";

struct OpRule {
  std::string domain;
  std::string op_type;
  std::string summary;  // one line, for listings
  // Checks arity, attributes and types of a node; returns "" when fine, else the problem (the
  // verifier adds the node and its location).
  std::function<std::string(const Node&)> verify;
};

// Adds or replaces the rule for (domain, op_type).
void register_op_rule(OpRule rule);
const OpRule* find_op_rule(std::string_view domain, std::string_view op_type);
std::vector<const OpRule*> all_op_rules();

}  // namespace onnxify::ir
