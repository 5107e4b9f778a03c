// Public header of src/weights: read PyTorch checkpoints and safetensors files without PyTorch and
// without executing anything from them (DESIGN.md decisions 8 and 9).
//
//   auto ckpt = weights::Checkpoint::open("resnet18.pth");       // mmap, parse, validate
//   weights::StateDict sd = ckpt.select("state_dict");           // or "" to find the obvious dict
//   for (const auto& [name, t] : sd.tensors) use(t.storage, t.shape, ...);   // zero-copy views
//
// Formats: torch.save's zip container (PyTorch >= 1.6, stored or deflated records, zip64), the
// legacy pre-1.6 stream of pickles, safetensors, and Keras' HDF5 weights (.keras, .weights.h5). Pickles are read by a data-only unpickler whose
// globals are resolved against a small allowlist (globals.h); anything else is refused by name.
// Every error is a one-line Diagnostic carrying the file name.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "support/bytes.h"
#include "support/diagnostic.h"
#include "weights/dtype.h"
#include "weights/tensor.h"
#include "weights/value.h"

namespace onnxify::weights {

// Keras: a `.keras` archive or a `.weights.h5` file (HDF5), its tensors named by their dataset paths.
enum class Format { TorchZip, TorchLegacy, Safetensors, Keras, TFCheckpoint };
std::string_view format_name(Format f);

struct NamedTensor {
  std::string name;  // qualified name relative to the selected dict ("layer1.0.conv1.weight")
  Tensor tensor;
};

// The tensors selected from a checkpoint, in the checkpoint's order, with lookup by name.
struct StateDict {
  std::string key;  // the path that was selected ("" for the root)
  // The file's format: Keras files name tensors by Keras' variable paths, which the model's own code
  // maps to its state_dict (src/torch/weights_bind.cpp).
  Format format = Format::TorchZip;
  std::vector<NamedTensor> tensors;
  // Keras 2's .h5 (keras_h5.cpp read_legacy_layout): its layer groups in the file's order, each with
  // its dataset paths in weight order; empty for every other file.
  std::vector<std::pair<std::string, std::vector<std::string>>> keras_legacy;
  const Tensor* find(std::string_view name) const;
  // Appends a tensor (names are unique; the caller checks).
  void add(NamedTensor t);

 private:
  friend class Checkpoint;
  std::unordered_map<std::string, size_t> index_;
};

class Checkpoint {
 public:
  // Maps and reads the file. Throws Diagnostic (with the file name) on any problem.
  static Checkpoint open(const std::string& path);
  // Reads a checkpoint from bytes already in memory; `name` is used in messages.
  static Checkpoint from_bytes(Bytes bytes, const std::string& name);

  Format format() const { return format_; }
  const std::string& path() const { return path_; }
  // The whole unpickled object (for safetensors: a dict of name -> tensor).
  const Value& root() const { return root_; }

  // Selects the tensors under `key` and names them by their path below it (README "onnxify
  // weights"). `key` is a dotted path through dicts, lists and objects ("state_dict", "model.ema",
  // "optimizer.state"), longest dict key first, so keys that contain dots work; a prefix of
  // qualified names in a flat dict selects those entries ("encoder" picks "encoder.*"); "." is the
  // whole checkpoint. With an empty key: among the dicts that hold tensors directly, the one with
  // the most tensors if it has at least twice as many as any other, else an error that lists the
  // candidates. Throws Diagnostic.
  StateDict select(const std::string& key = "") const;

 private:
  Checkpoint() = default;
  std::string path_;
  Format format_ = Format::TorchZip;
  Bytes file_;                  // keeps the mapping (or buffer) alive
  std::shared_ptr<Heap> heap_;  // owns everything root_ points to
  Value root_;
};

// The state_dict a user names with --weights: a checkpoint file, a sharded checkpoint's index
// (model.safetensors.index.json, pytorch_model.bin.index.json: every shard opened and the tensors
// merged, each shard's `key` selected as in select()), or a Hugging Face model folder holding one of
// those. Throws Diagnostic (with the file name).
StateDict open_state_dict(const std::string& path, const std::string& key = "");

// The checksum of a tensor's logical contents (README "Checkpoint checksum"): the row-major
// little-endian bytes, zero-padded to whole 64-bit words w[0..m), then
//   h = 0; for w in (w[0], …, w[m-1], nbytes): h = h * K + w   (mod 2^64),  K = 0x9E3779B97F4A7C15
// Exact for every dtype (bfloat16, float16 and bool hash their raw bytes).
constexpr uint64_t kChecksumMultiplier = 0x9E3779B97F4A7C15ull;
uint64_t checksum(const Tensor& t);
// Checksums of many tensors, each equal to checksum(t); large contiguous tensors are split across
// up to `threads` threads (0 = hardware concurrency).
std::vector<uint64_t> checksums(const std::vector<NamedTensor>& tensors, unsigned threads = 0);

}  // namespace onnxify::weights
