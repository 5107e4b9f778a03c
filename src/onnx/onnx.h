// Public header of src/onnx: per-target lowering (src/onnx/lower/), target profiles
// (src/onnx/targets/), opset conversion (src/onnx/opset/) and the ONNX writer.
//
// lower() turns a recorded graph (ONNX ops in their opset-17 form plus composite "onnxify" ops with
// PyTorch semantics, DESIGN.md decision 3) into plain ONNX for one target at one opset:
//   1. composite ops -> ONNX: the coarse op where the target prefers it and the opset has it, the
//      decomposition otherwise (LowerOptions::decompose / keep override per op);
//   2. the target's pass pipeline (fold, cse, fusions, dce; src/passes/);
//   3. opset conversion from the canonical opset 17 to the requested one (13..26);
//   4. the target's rewrites and check_target(): a node the target would reject is an error naming
//      the op and the Python line that made it.
//
// write_onnx() turns an IR graph into a ModelProto through libonnx's protobuf classes:
//  * opset imports: "" at options.opset, each other domain used by a node at its configured version;
//    composite ops (domain "onnxify") are refused unless allowed, since lowering must remove them;
//  * graph inputs/outputs with symbolic dims as dim_param (an expression's dim_param is its IR text,
//    e.g. "floor((H + 1) / 2)"), value_info for every typed intermediate, in every graph;
//  * node names from module paths ("layer1.0.conv1/Conv", made unique), doc_string "file.py:line";
//  * initializers of all graphs (regions' initializers are hoisted to the main graph, which regions
//    see by implicit capture) as raw_data, or as external data in a side file when at least
//    options.external_threshold bytes, and for every tensor of 1 KiB or more when the embedded total
//    would pass protobuf's 2 GB limit;
//  * metadata: producer "onnxify" and version, source file and its hash from the caller.
//
// Large tensors are never held twice: the ModelProto holds only tensor metadata, and tensor bytes
// are streamed to the file at their place in the serialized message (embedded) or to the side file
// (external, offsets aligned), copied file-to-file by the kernel when they are a slice of a mapped
// checkpoint.
#pragma once

#include <cstdint>
#include <functional>
#include <limits>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "ir/graph.h"
#include "support/diagnostic.h"
#include "support/status.h"

namespace onnxify {

struct WriteOptions {
  int opset = 17;                            // default-domain opset
  std::map<std::string, int> domain_opsets;  // other domains; unlisted ones get version 1
  // Tensors of at least this many bytes go to the side file (default: only when 2 GB forces it).
  uint64_t external_threshold = std::numeric_limits<uint64_t>::max();
  std::string external_file;           // side file; default "<model file>.data" next to the model
  uint64_t external_alignment = 4096;  // offset alignment of external tensors of at least this size
  bool allow_composite_ops = false;    // write "onnxify"-domain nodes instead of refusing them
  std::string producer_version;        // default: onnxify's version
  std::string source_file;             // metadata_props "source_file"
  std::string source_hash;             // metadata_props "source_hash"
  std::vector<std::pair<std::string, std::string>> metadata;  // more metadata_props
  std::string doc_string;
  // Called after each initializer is written with the tensor bytes written so far and in all (a
  // progress line for large models; may be empty).
  std::function<void(uint64_t done, uint64_t total)> progress;
};

struct WriteStats {
  uint64_t model_bytes = 0;
  uint64_t external_bytes = 0;
  size_t embedded_tensors = 0;
  size_t external_tensors = 0;
  uint64_t kernel_copied_bytes = 0;  // tensor bytes copied file-to-file (never in this process)
  bool forced_external = false;      // the 2 GB limit moved tensors to the side file
};

// The ONNX IR version that goes with a default-domain opset (ONNX's versioning table).
int onnx_ir_version_for_opset(int opset);

// ---- lowering --------------------------------------------------------------------------------

// The opset the recorder emits ONNX ops in and that lowering rules and fusion passes work on.
inline constexpr int kCanonicalOpset = 17;
// The opsets lower() converts to: 13 up to the newest ONNX Runtime 1.30 runs.
inline constexpr int kMinOpset = 13;
inline constexpr int kMaxOpset = 26;

struct LowerOptions {
  std::string target = "onnxruntime";  // a profile name: onnxruntime, tensorrt, generic
  int opset = kCanonicalOpset;         // the default-domain opset of the result
  std::vector<std::string> decompose;  // composite ops (layer_norm, gelu, ...) always decomposed
  std::vector<std::string> keep;       // composite ops kept as one coarse ONNX op (error if impossible)
  std::string trt_version = "10.15";   // tensorrt only: the TensorRT version whose parser is targeted
  bool run_pipeline = true;            // run the target's pass pipeline (fusions) after expanding
  bool verify = true;                  // verify the graph after each step (errors are internal bugs)
};

// Lowers `graph` in place. Returns the first problem; `all`, when given, receives every problem
// (one run reports every unsupported op).
Status lower(ir::Graph& graph, const LowerOptions& options, DiagnosticList* all = nullptr);
// Checks the options alone (target, TensorRT version, the target's opsets, --keep/--decompose
// names), so a caller can refuse a bad command line before converting anything.
Status check_lower_options(const LowerOptions& options);

// Expands composite ops only (step 1 above; no passes, no opset conversion, no target check).
Status lower_composites(ir::Graph& graph, const LowerOptions& options, DiagnosticList* all = nullptr);
// Converts ONNX ops from the canonical opset 17 forms to `opset` (step 3), in every region.
Status convert_opset(ir::Graph& graph, int opset, DiagnosticList* all = nullptr);
// Every node `target` (at options.opset, options.trt_version) would reject, each naming the op and
// the Python location of the node.
DiagnosticList check_target(const ir::Graph& graph, const LowerOptions& options);

// The names of the target profiles and the composite ops LowerOptions may name.
std::vector<std::string> target_names();

// Writes `graph` to `path`. The graph should verify; the writer itself checks only what it needs
// (types of the main graph's inputs and outputs, element types the IR version knows, no composite
// ops) and returns an error Status otherwise.
Status write_onnx(const ir::Graph& graph, const std::string& path, const WriteOptions& options = {},
                  WriteStats* stats = nullptr);

}  // namespace onnxify
