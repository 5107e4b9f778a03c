// Public header of src/passes: graph-to-graph transformations over the IR.
//
// Every pass has one row in passes.def (name, summary), lives in its own file src/passes/NAME.cpp
// and has golden tests in tests/passes/NAME/ (IR text in, IR text out). run_pipeline() runs passes
// by name and, when asked (debug tools, tests), verifies the IR before the first and after every pass.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "ir/graph.h"
#include "support/status.h"

namespace onnxify::passes {

struct PassOptions {
  int opset = 17;                    // the ONNX opset the graph targets (schemas, folding rules)
  size_t fold_max_bytes = 64 << 10;  // fold never creates a constant larger than this
  bool verify_each = false;          // verify before the first pass and after each one
};

using PassFn = Status (*)(ir::Graph& graph, const PassOptions& options);

struct PassInfo {
  std::string_view name;
  std::string_view summary;
  PassFn run;
};

#define ONNXIFY_PASS(name, summary) Status name(ir::Graph& graph, const PassOptions& options);
#include "passes/passes.def"
#undef ONNXIFY_PASS

// Every registered pass, in passes.def order.
const std::vector<PassInfo>& all_passes();
const PassInfo* find_pass(std::string_view name);

// Runs the named passes in order. An unknown name is an error (with a did-you-mean), as is a graph
// that fails verification when options.verify_each is set.
Status run_pipeline(ir::Graph& graph, const std::vector<std::string>& names, const PassOptions& options);

// Whether a node draws random values (or drops them at random): each run differs, so such nodes are
// never merged (cse), folded, or evaluated at conversion time. cse.cpp.
bool nondeterministic(const ir::Node& n);

// The cleanup pipeline the exporter runs after recording: fold, cse, dce.
const std::vector<std::string>& default_pipeline();

}  // namespace onnxify::passes
