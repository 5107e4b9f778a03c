#include "ir/onnx_versions.h"

#include <onnx/defs/schema.h>

#include <sstream>

namespace onnxify::ir {

namespace {

std::vector<std::string> words(const char* s) {
  std::vector<std::string> out;
  std::istringstream in(s);
  std::string w;
  while (in >> w) out.push_back(w);
  return out;
}

const std::vector<OnnxVersionRow>& rows() {
  static const std::vector<OnnxVersionRow> table = [] {
    std::vector<OnnxVersionRow> t;
#define ONNXIFY_ONNX_OP(op, since, change, min_in, max_in, min_out, max_out, attrs) \
  t.push_back(OnnxVersionRow{#op, since, OnnxChange::change, min_in, max_in, min_out, max_out, words(attrs)});
#include "ir/onnx_versions.def"
#undef ONNXIFY_ONNX_OP
    return t;
  }();
  return table;
}

}  // namespace

void load_onnx_schemas() {
  (void)libonnx_max_opset();
  (void)onnx::OpSchemaRegistry::Schema("Relu", 1, "");
}

int libonnx_max_opset() {
  static const int v = [] {
    const auto& map = onnx::OpSchemaRegistry::DomainToVersionRange::Instance().Map();
    auto it = map.find("");
    return it == map.end() ? 17 : it->second.second;
  }();
  return v;
}

std::vector<const OnnxVersionRow*> onnx_version_rows(std::string_view op) {
  std::vector<const OnnxVersionRow*> out;
  for (const auto& r : rows())
    if (r.op == op) out.push_back(&r);
  return out;
}

int onnx_op_version(std::string_view op, int opset) {
  int known = libonnx_max_opset();
  if (opset > known) {
    int best = 0;
    for (const auto& r : rows())
      if (r.op == op && r.since <= opset && r.since > best) best = r.since;
    if (best) return best;
  }
  const onnx::OpSchema* s = onnx::OpSchemaRegistry::Schema(std::string(op), std::min(opset, known), "");
  return s ? s->since_version() : 0;
}

int onnx_op_first_opset(std::string_view op) {
  int first = 0;
  for (int v = 1; v <= libonnx_max_opset(); ++v)
    if (onnx::OpSchemaRegistry::Schema(std::string(op), v, "")) {
      first = onnx::OpSchemaRegistry::Schema(std::string(op), v, "")->since_version();
      break;
    }
  if (first) return first;
  for (const auto& r : rows())
    if (r.op == op && (first == 0 || r.since < first)) first = r.since;
  return first;
}

}  // namespace onnxify::ir
