// Public header of src/onnx: the ONNX writer (and, later, per-target lowering in src/onnx/lower/ and
// target profiles in src/onnx/targets/).
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
#include <limits>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "ir/graph.h"
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

// Writes `graph` to `path`. The graph should verify; the writer itself checks only what it needs
// (types of the main graph's inputs and outputs, element types the IR version knows, no composite
// ops) and returns an error Status otherwise.
Status write_onnx(const ir::Graph& graph, const std::string& path, const WriteOptions& options = {},
                  WriteStats* stats = nullptr);

}  // namespace onnxify
