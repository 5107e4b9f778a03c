// A data-only unpickler: runs the pickle machine of protocols 0-5 (stack, marks, memo, frames,
// persistent ids) and builds Values in a Heap. It never imports or calls anything: GLOBAL resolves
// against the allowlist (globals.h), and REDUCE / NEWOBJ / BUILD only build data.
// Internal to src/weights.
#pragma once

#include <cstddef>
#include <functional>
#include <string>

#include "support/bytes.h"
#include "weights/value.h"

namespace onnxify::weights {

struct UnpickleOptions {
  // Resolves a persistent id (torch.save's ('storage', type, key, location, numel) tuples).
  // Null: a persistent id is an error.
  std::function<Value(const Value& pid)> persistent_load;
  // How messages name the pickle ("'archive/data.pkl'", "the legacy checkpoint's main pickle").
  std::string name = "the pickle";
};

struct UnpickleResult {
  Value value;
  size_t end = 0;  // offset just past the STOP opcode
};

// Reads one pickle from data[offset..]. Throws Diagnostic (without a file name) on malformed or
// refused input; the message says where (byte offset) and what.
UnpickleResult unpickle(const Bytes& data, size_t offset, Heap& heap, const UnpickleOptions& options);

}  // namespace onnxify::weights
