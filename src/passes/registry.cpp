// The pass registry (passes.def) and the pipeline runner.
#include <fmt/core.h>

#include "ir/verifier.h"
#include "passes/passes.h"

namespace onnxify::passes {

const std::vector<PassInfo>& all_passes() {
  static const std::vector<PassInfo> table = {
#define ONNXIFY_PASS(name, summary) {#name, summary, &name},
#include "passes/passes.def"
#undef ONNXIFY_PASS
  };
  return table;
}

const PassInfo* find_pass(std::string_view name) {
  for (const PassInfo& p : all_passes())
    if (p.name == name) return &p;
  return nullptr;
}

const std::vector<std::string>& default_pipeline() {
  static const std::vector<std::string> p = {"fold", "cse", "fuse_rotary", "fuse_rms_norm", "dce"};
  return p;
}

namespace {
Status verified(const ir::Graph& g, const PassOptions& o, const std::string& when) {
  ir::VerifyOptions vo;
  vo.opset = o.opset;
  Status s = ir::verify(g, vo);
  if (s) return s;
  Diagnostic d = s.diagnostic();
  d.with_help(fmt::format("the IR is invalid {}", when));
  return Status(std::move(d));
}
}  // namespace

Status run_pipeline(ir::Graph& graph, const std::vector<std::string>& names, const PassOptions& options) {
  std::vector<const PassInfo*> passes;
  for (const std::string& n : names) {
    const PassInfo* p = find_pass(n);
    if (!p) {
      std::vector<std::string> known;
      for (const PassInfo& q : all_passes()) known.emplace_back(q.name);
      Diagnostic d = Diagnostic::error(fmt::format("unknown pass '{}'", n));
      std::string guess = closest_spelling(n, known);
      if (!guess.empty()) d.with_help(fmt::format("did you mean '{}'?", guess));
      return Status(std::move(d));
    }
    passes.push_back(p);
  }
  if (options.verify_each)
    if (Status s = verified(graph, options, "before the first pass"); !s) return s;
  for (const PassInfo* p : passes) {
    if (Status s = p->run(graph, options); !s) return s;
    if (options.verify_each)
      if (Status s = verified(graph, options, fmt::format("after pass '{}'", p->name)); !s) return s;
  }
  return Status::ok();
}

}  // namespace onnxify::passes
