// The verifier: the IR's invariants, checked between passes in debug/test pipelines.
//
//  * structure: every node is linked into the graph it claims, every use list matches the inputs
//    and graph outputs that refer to the value, no input or output refers to a value that is no
//    longer defined anywhere (dangling);
//  * dominance: each use is preceded by its definition, in the same graph or in an enclosing one
//    before the node that holds the region (implicit capture); values of sibling regions and later
//    nodes are not visible;
//  * op rules: ONNX-domain nodes against libonnx's schema for the chosen opset (op exists, input and
//    output counts, required inputs present, attribute names and kinds, required attributes, each
//    typed input/output allowed by its type constraint and one type per type variable). libonnx 1.12
//    knows opsets <= 17; past that, onnx_versions.def supplies what changed: ops re-signed or new
//    after 17 are checked for arity and attribute names only, ops whose later versions only widened
//    types are checked against libonnx's opset-17 schema without type lists; If, Loop and
//    Scan regions against their node's inputs and outputs; "onnxify" composite ops against the rule
//    registered for them (op_rules.h).
//
// Messages name the node as it prints (`%y = Add(%a, %b): ...`) and carry its Python location.
#pragma once

#include <string>

#include "ir/graph.h"
#include "support/diagnostic.h"
#include "support/status.h"

namespace onnxify::ir {

struct VerifyOptions {
  int opset = 17;  // the ONNX opset whose schemas ONNX-domain nodes must satisfy
  // Also accept ops that arrived after `opset` up to this opset, checked against their
  // onnx_versions.def row: lowering works on opset-17 forms mixed with newer coarse ops (Gelu,
  // Attention, ...) before converting everything to the requested opset. 0: not accepted.
  int newer_ops_up_to = 0;
  // Only the graph's structure (values defined before use and visible where used, regions, outputs),
  // not the ops' schemas: a recorded graph still holding composite ops can be checked this way.
  bool structure_only = false;
};

// Every problem found, in graph order.
DiagnosticList verify_all(const Graph& graph, const VerifyOptions& options = {});
// The first problem, if any.
Status verify(const Graph& graph, const VerifyOptions& options = {});

// A diagnostic about `node`: at its Python location when known (quoting the line when the file's
// text is available), its printed header leading the message.
Diagnostic node_diagnostic(const Node& node, const std::string& message, Severity severity = Severity::Error,
                           const NameTable* names = nullptr);

}  // namespace onnxify::ir
