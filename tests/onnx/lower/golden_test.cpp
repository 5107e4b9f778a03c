// Golden tests of the lowering (IR text in, IR text out; the text is the spec of what each target
// and opset gets) and of its diagnostics (exact text):
//   tests/onnx/lower/golden/NAME.in.ir   lowered with the options on its `// lower:` line, printed,
//                                        compared with NAME.out.ir
//   tests/onnx/lower/errors/NAME.ir      lowering must fail; every diagnostic == NAME.err
// Options: --target T --opset N --decompose a,b --keep a,b --trt-version V --no-pipeline.
// The numbers behind these graphs are checked against PyTorch in lower_test.py (same ops, every
// target, opset and granularity). ONNXIFY_UPDATE_GOLDEN=1 rewrites the expected files (review the
// diff before committing).
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "ir/ir.h"
#include "onnx/onnx.h"

namespace onnxify {
namespace {

namespace fs = std::filesystem;

std::string read(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::vector<fs::path> files(const std::string& dir, const std::string& suffix) {
  EXPECT_EQ(::chdir(ONNXIFY_SOURCE_DIR), 0);
  std::vector<fs::path> out;
  for (const auto& e : fs::directory_iterator(fs::path("tests/onnx/lower") / dir)) {
    std::string name = e.path().filename().string();
    if (name.size() > suffix.size() && name.compare(name.size() - suffix.size(), suffix.size(), suffix) == 0)
      out.push_back(e.path());
  }
  std::sort(out.begin(), out.end());
  EXPECT_FALSE(out.empty()) << "no files in tests/onnx/lower/" << dir;
  return out;
}

std::vector<std::string> split(const std::string& s, char sep) {
  std::vector<std::string> out;
  std::string item;
  std::istringstream in(s);
  while (std::getline(in, item, sep))
    if (!item.empty()) out.push_back(item);
  return out;
}

LowerOptions options_of(const std::string& text) {
  LowerOptions o;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line) && line.rfind("//", 0) == 0) {
    if (line.rfind("// lower:", 0) != 0) continue;
    std::vector<std::string> args = split(line.substr(9), ' ');
    for (size_t i = 0; i < args.size(); ++i) {
      const std::string& a = args[i];
      std::string next = i + 1 < args.size() ? args[i + 1] : "";
      if (a == "--target")
        o.target = next, ++i;
      else if (a == "--opset")
        o.opset = std::stoi(next), ++i;
      else if (a == "--decompose")
        o.decompose = split(next, ','), ++i;
      else if (a == "--keep")
        o.keep = split(next, ','), ++i;
      else if (a == "--trt-version")
        o.trt_version = next, ++i;
      else if (a == "--no-pipeline")
        o.run_pipeline = false;
      else
        ADD_FAILURE() << "unknown option " << a;
    }
  }
  return o;
}

void expect_golden(const fs::path& expected, const std::string& got) {
  if (std::getenv("ONNXIFY_UPDATE_GOLDEN")) {
    std::ofstream(expected, std::ios::binary) << got;
    return;
  }
  ASSERT_TRUE(fs::exists(expected)) << "missing " << expected;
  EXPECT_EQ(got, read(expected)) << "for " << expected;
}

TEST(LowerGolden, Lowering) {
  for (const fs::path& p : files("golden", ".in.ir")) {
    SCOPED_TRACE(p.string());
    std::string text = read(p);
    std::unique_ptr<ir::Graph> g = ir::parse(SourceFile::load(p.string()));
    DiagnosticList all;
    Status s = lower(*g, options_of(text), &all);
    ASSERT_TRUE(s.is_ok()) << all.render();
    std::string name = p.filename().string();
    fs::path out = p.parent_path() / (name.substr(0, name.size() - 6) + ".out.ir");
    std::string printed = ir::print(*g);
    expect_golden(out, printed);
    // Lowering is done: lowering the result again changes nothing.
    std::unique_ptr<ir::Graph> again = ir::parse(printed, p.string());
    ASSERT_TRUE(lower(*again, options_of(text)).is_ok());
    EXPECT_EQ(ir::print(*again), printed) << "lowering is not a fixpoint";
  }
}

TEST(LowerGolden, Errors) {
  for (const fs::path& p : files("errors", ".ir")) {
    SCOPED_TRACE(p.string());
    std::string text = read(p);
    std::unique_ptr<ir::Graph> g = ir::parse(SourceFile::load(p.string()));
    DiagnosticList all;
    Status s = lower(*g, options_of(text), &all);
    EXPECT_FALSE(s.is_ok()) << "lowering succeeded";
    expect_golden(fs::path(p).replace_extension(".err"), all.render());
  }
}

// Every composite op of the table has a lowering rule, and every rule names a composite op.
TEST(LowerTables, EveryCompositeOpHasARule) {
  std::vector<std::string> composites;
  for (const auto& op : ir::composite_ops()) composites.push_back(op.name);
  const char* rules[] = {
#define ONNXIFY_LOWERING(op, fn) #op,
#include "onnx/lower/rules.def"
#undef ONNXIFY_LOWERING
  };
  for (const std::string& c : composites)
    EXPECT_NE(std::find(std::begin(rules), std::end(rules), c), std::end(rules))
        << "no lowering rule for " << c;
  for (const char* r : rules)
    EXPECT_NE(std::find(composites.begin(), composites.end(), r), composites.end())
        << r << " is not a composite op";
  EXPECT_EQ(composites.size(), std::size(rules));
}

// onnx_versions.def against libonnx: an op listed as new after 17 is unknown to libonnx's opset-17
// registry, a re-signed or re-typed one is known to it; versions are ascending per op and in 18..26.
TEST(LowerTables, OnnxVersionsAgreeWithLibonnx) {
  std::vector<std::string> seen;
#define ONNXIFY_ONNX_OP(op, since, change, min_in, max_in, min_out, max_out, attrs) seen.push_back(#op);
#include "ir/onnx_versions.def"
#undef ONNXIFY_ONNX_OP
  ASSERT_FALSE(seen.empty());
  for (const std::string& op : seen) {
    SCOPED_TRACE(op);
    auto rows = ir::onnx_version_rows(op);
    ASSERT_FALSE(rows.empty());
    bool known = ir::onnx_op_version(op, ir::libonnx_max_opset()) != 0;
    EXPECT_EQ(rows.front()->change == ir::OnnxChange::New, !known);
    for (size_t i = 0; i < rows.size(); ++i) {
      EXPECT_GT(rows[i]->since, ir::libonnx_max_opset());
      EXPECT_LE(rows[i]->since, ir::kNewestOpset);
      if (i) EXPECT_GT(rows[i]->since, rows[i - 1]->since);
      if (i) EXPECT_NE(rows[i]->change, ir::OnnxChange::New);
    }
    EXPECT_EQ(ir::onnx_op_version(op, rows.back()->since), rows.back()->since);
  }
  EXPECT_EQ(ir::onnx_op_first_opset("Gelu"), 20);
  EXPECT_EQ(ir::onnx_op_first_opset("LayerNormalization"), 17);
  EXPECT_EQ(ir::onnx_op_version("ReduceMean", 17), 13);
  EXPECT_EQ(ir::onnx_op_version("ReduceMean", 26), 18);
  EXPECT_EQ(ir::onnx_op_version("Gelu", 19), 0);
}

TEST(LowerTables, Targets) {
  EXPECT_EQ(target_names(), (std::vector<std::string>{"onnxruntime", "tensorrt", "generic"}));
}

TEST(LowerOptionsTest, BadOptions) {
  auto msg = [](LowerOptions o) {
    ir::Graph g;
    Status s = lower(g, o);
    return s.is_ok() ? std::string("ok") : s.diagnostic().render();
  };
  LowerOptions o;
  o.target = "tensorrtt";
  EXPECT_EQ(msg(o), "onnxify: error: unknown target 'tensorrtt'\nhelp: did you mean 'tensorrt'?\n");
  o = LowerOptions();
  o.opset = 27;
  EXPECT_EQ(msg(o), "onnxify: error: target onnxruntime takes opsets 13 to 26, not 27\n");
  o = LowerOptions();
  o.target = "tensorrt";
  o.trt_version = "8.6";
  o.opset = 18;
  EXPECT_EQ(msg(o), "onnxify: error: target tensorrt takes opsets 13 to 17, not 18\n");
  o = LowerOptions();
  o.decompose = {"layernorm"};
  EXPECT_EQ(msg(o),
            "onnxify: error: 'layernorm' is not a composite op (in --decompose)\nhelp: did you mean "
            "'layer_norm'?\n");
  o = LowerOptions();
  o.keep = {"gelu"};
  o.decompose = {"gelu"};
  EXPECT_EQ(msg(o), "onnxify: error: 'gelu' is in both --keep and --decompose\n");
}

}  // namespace
}  // namespace onnxify
