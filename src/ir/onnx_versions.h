// ONNX operator versions past libonnx 1.12's schemas (onnx_versions.def), and the questions the
// verifier and the opset converter ask about any opset: does op X exist at opset N, and which
// version of it is in effect there.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace onnxify::ir {

// libonnx builds its whole operator schema registry on first use (~8 ms). A process that forks
// exports (torch::KeptModules) builds it once first, so that every child inherits it.
void load_onnx_schemas();
// The newest default-domain opset libonnx's schema registry knows (17 for Debian's ONNX 1.12).
int libonnx_max_opset();
// The newest opset onnxify emits: what ONNX Runtime 1.30 runs.
inline constexpr int kNewestOpset = 26;

enum class OnnxChange : uint8_t { New, Sig, Types };

struct OnnxVersionRow {
  std::string_view op;
  int since;
  OnnxChange change;
  int min_inputs, max_inputs, min_outputs, max_outputs;  // -1: unbounded
  std::vector<std::string> attributes;
};

// The rows of onnx_versions.def for `op`, oldest first (empty when the op has no version past 17).
std::vector<const OnnxVersionRow*> onnx_version_rows(std::string_view op);

// The since_version of the default-domain op in effect at `opset` (0 when the op does not exist
// there), from libonnx for versions <= libonnx_max_opset() and the table above that.
int onnx_op_version(std::string_view op, int opset);
// The first opset that has the op (0 when unknown to both libonnx and the table).
int onnx_op_first_opset(std::string_view op);

}  // namespace onnxify::ir
