// Golden tests for passes: tests/passes/NAME/CASE.in.ir -> pass NAME -> must print exactly as
// CASE.out.ir. The test walks the pass registry: every registered pass needs a folder with at least
// one case, and every folder must name a registered pass. A `// passes: a, b` line in the input's
// leading comments runs that pipeline instead (e.g. fold then dce, for readable expected files).
// The IR is verified before and after every pass, and each pipeline must be a fixpoint (running
// it again on its output changes nothing).
//
// tests/passes/semantics_test.py runs every pair in ONNX Runtime: the expected output computes the
// same values as the input, so the expected files are checked against a real oracle.
// ONNXIFY_UPDATE_GOLDEN=1 rewrites the .out.ir files (review the diff before committing).
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "ir/ir.h"
#include "passes/passes.h"

namespace onnxify::passes {
namespace {

namespace fs = std::filesystem;

std::string read(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::vector<std::string> pipeline_of(const std::string& text, std::string_view pass) {
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line) && line.rfind("//", 0) == 0) {
    if (line.rfind("// passes:", 0) != 0) continue;
    std::vector<std::string> out;
    std::string item;
    std::istringstream items(line.substr(10));
    while (std::getline(items, item, ',')) {
      item.erase(0, item.find_first_not_of(' '));
      item.erase(item.find_last_not_of(' ') + 1);
      out.push_back(item);
    }
    return out;
  }
  return {std::string(pass)};
}

TEST(PassGolden, EveryPassHasGoldenTestsAndEveryFolderIsAPass) {
  ASSERT_EQ(::chdir(ONNXIFY_SOURCE_DIR), 0);
  for (const PassInfo& p : all_passes()) {
    fs::path dir = fs::path("tests/passes") / p.name;
    ASSERT_TRUE(fs::is_directory(dir)) << "pass '" << p.name << "' has no golden tests in " << dir;
    size_t n = 0;
    for (const auto& e : fs::directory_iterator(dir)) n += e.path().string().ends_with(".in.ir");
    EXPECT_GT(n, 0u) << dir;
  }
  for (const auto& e : fs::directory_iterator("tests/passes")) {
    if (e.is_directory()) {
      EXPECT_NE(find_pass(e.path().filename().string()), nullptr) << e.path();
    }
  }
}

TEST(PassGolden, InputsThroughPassesPrintAsExpected) {
  ASSERT_EQ(::chdir(ONNXIFY_SOURCE_DIR), 0);
  std::vector<fs::path> cases;
  for (const auto& dir : fs::directory_iterator("tests/passes")) {
    if (!dir.is_directory()) continue;
    for (const auto& e : fs::directory_iterator(dir.path()))
      if (e.path().string().ends_with(".in.ir")) cases.push_back(e.path());
  }
  std::sort(cases.begin(), cases.end());
  ASSERT_FALSE(cases.empty());
  for (const fs::path& in : cases) {
    SCOPED_TRACE(in.string());
    std::string text = read(in);
    auto pipeline = pipeline_of(text, in.parent_path().filename().string());
    PassOptions opts;
    opts.verify_each = true;
    std::unique_ptr<ir::Graph> g;
    try {
      g = ir::parse(SourceFile::load(in.string()));
    } catch (const Diagnostic& d) {
      FAIL() << d.render();
    }
    Status s = run_pipeline(*g, pipeline, opts);
    ASSERT_TRUE(s.is_ok()) << s.diagnostic().render();
    std::string got = ir::print(*g);
    std::string out_name = in.string();
    out_name.replace(out_name.size() - 6, 6, ".out.ir");
    if (std::getenv("ONNXIFY_UPDATE_GOLDEN")) {
      std::ofstream(out_name, std::ios::binary) << got;
      continue;
    }
    ASSERT_TRUE(fs::exists(out_name)) << "missing " << out_name;
    EXPECT_EQ(got, read(out_name));
    // A fixpoint: the pipeline has nothing left to do on its own output.
    Status again = run_pipeline(*g, pipeline, opts);
    ASSERT_TRUE(again.is_ok()) << again.diagnostic().render();
    EXPECT_EQ(ir::print(*g), got) << "the pipeline is not idempotent";
  }
}

TEST(Pipeline, UnknownPassAndVerification) {
  auto g = ir::parse("graph @main(%x: float32[2]) {\n  %y = Relu(%x) : float32[2]\n  return %y\n}\n");
  Status s = run_pipeline(*g, {"cse", "fld"}, {});
  ASSERT_FALSE(s.is_ok());
  EXPECT_EQ(s.diagnostic().render(), "onnxify: error: unknown pass 'fld'\nhelp: did you mean 'fold'?\n");
  // verify_each reports an IR made invalid (here: before the first pass).
  auto bad = ir::parse("graph @main(%x: float32[2]) {\n  %y = Relu(%x, %x) : float32[2]\n  return %y\n}\n");
  PassOptions o;
  o.verify_each = true;
  Status v = run_pipeline(*bad, {"dce"}, o);
  ASSERT_FALSE(v.is_ok());
  EXPECT_EQ(v.diagnostic().render(),
            "onnxify: error: %y = Relu(%x, %x): Relu takes 1 input, not 2\nhelp: the IR is invalid before "
            "the first pass\n");
  EXPECT_EQ(default_pipeline(), (std::vector<std::string>{"fold", "cse", "fuse_rotary", "fuse_rms_norm", "dce"}));
}

TEST(Fold, SizeLimitIsConfigurable) {
  const char* text = R"(graph @main() {
  const %shape = dense<int64[1]>[1000]
  %z = ConstantOfShape(%shape) : float32[1000]
  return %z
}
)";
  auto g = ir::parse(text);
  PassOptions small;
  small.fold_max_bytes = 3999;
  ASSERT_TRUE(fold(*g, small).is_ok());
  EXPECT_EQ(g->num_nodes(), 1u);
  PassOptions enough;
  enough.fold_max_bytes = 4000;
  ASSERT_TRUE(fold(*g, enough).is_ok());
  EXPECT_EQ(g->num_nodes(), 0u);
  EXPECT_EQ(g->output(0)->initializer()->nbytes(), 4000u);
}

TEST(Fold, ViewOfASingleUseWeightIsFreeAboveTheLimit) {
  std::vector<float> w(100000, 1.0f);
  auto g = std::make_unique<ir::Graph>("main");
  ir::Value* weight = g->add_initializer(
      ir::Tensor(ir::ElementType::Float32, {1000, 100}, Bytes::copy_of(w.data(), w.size() * 4)), "w");
  ir::Value* shape = g->add_initializer(ir::Tensor::vector_int64({100, 1000}), "s");
  ir::Node* r = g->append("Reshape", {weight, shape});
  r->output(0)->set_type(ir::Type::tensor(ir::ElementType::Float32, {100, 1000}));
  g->add_output(r->output(0));
  ASSERT_TRUE(fold(*g, {}).is_ok());
  ASSERT_EQ(g->num_nodes(), 0u);
  // The folded constant views the weight's bytes: nothing was copied.
  EXPECT_EQ(g->output(0)->initializer()->data(), weight->initializer()->data());
}

// A constant Transpose of a weight (Keras' HWIO kernels to OIHW) folds into produced bytes whose every
// range, and whole, is the transposition; checked element by element against the index formula, for
// permutations whose leading output axis is x's last, first and a middle one.
TEST(Fold, LargeTransposesAreProducedAndExact) {
  struct Case {
    std::vector<int64_t> shape, perm;
    ir::ElementType type;
  };
  // Element sizes 4, 8, 2 and 1 (the walk turns blocks of elements through a buffer).
  for (const Case& c : {Case{{3, 3, 64, 520}, {3, 2, 0, 1}, ir::ElementType::Float32},
                        Case{{1100, 300}, {1, 0}, ir::ElementType::Float32},
                        Case{{40, 70, 110}, {0, 2, 1}, ir::ElementType::Float32},
                        Case{{20, 130, 3, 40}, {1, 3, 0, 2}, ir::ElementType::Float32},
                        Case{{3, 3, 61, 300}, {3, 2, 0, 1}, ir::ElementType::Int64},
                        Case{{700, 900}, {1, 0}, ir::ElementType::Float16},
                        Case{{33, 50, 700}, {2, 0, 1}, ir::ElementType::UInt8}}) {
    const size_t es = ir::storage_bytes(c.type, 1);
    int64_t n = 1;
    for (int64_t d : c.shape) n *= d;
    // Every element's bytes say its index (low bytes first), so a misplaced element shows.
    std::vector<uint8_t> x(static_cast<size_t>(n) * es);
    for (size_t i = 0; i < static_cast<size_t>(n); ++i)
      for (size_t b = 0; b < es; ++b) x[i * es + b] = static_cast<uint8_t>((i >> (8 * (b % 4))) + b);
    auto g = std::make_unique<ir::Graph>("main");
    ir::Value* w = g->add_initializer(ir::Tensor(c.type, c.shape, Bytes::copy_of(x.data(), x.size())), "w");
    ir::Node* t = g->append("Transpose", {w});
    t->set_attr("perm", ir::Attribute(c.perm));
    std::vector<int64_t> out_shape;
    for (int64_t p : c.perm) out_shape.push_back(c.shape[static_cast<size_t>(p)]);
    t->output(0)->set_type(ir::Type::tensor(c.type, std::vector<ir::DimExpr>(out_shape.begin(), out_shape.end())));
    g->add_output(t->output(0));
    PassOptions big;  // as for a kernel feeding a Conv (fold's limits_for), without the Conv
    big.fold_max_bytes = int64_t{1} << 30;
    ASSERT_TRUE(fold(*g, big).is_ok());
    ASSERT_EQ(g->num_nodes(), 0u);
    const ir::Tensor& got = *g->output(0)->initializer();
    ASSERT_TRUE(got.bytes().is_produced());
    // Expected: out[j] = x[i] where i's index along axis perm[k] is j's along k.
    const size_t r = c.shape.size();
    std::vector<uint8_t> want(x.size());
    std::vector<int64_t> idx(r, 0);
    for (size_t j = 0; j < static_cast<size_t>(n); ++j) {
      int64_t flat = 0;
      std::vector<int64_t> xi(r);
      for (size_t k = 0; k < r; ++k) xi[static_cast<size_t>(c.perm[k])] = idx[k];
      for (size_t a = 0; a < r; ++a) flat = flat * c.shape[a] + xi[a];
      std::memcpy(want.data() + j * es, x.data() + static_cast<size_t>(flat) * es, es);
      for (size_t k = r; k-- > 0;) {
        if (++idx[k] < out_shape[k]) break;
        idx[k] = 0;
      }
    }
    // Ranges of odd sizes (not whole slices), then the whole.
    std::vector<uint8_t> part(x.size());
    const size_t bytes = x.size(), step = 3 * 4 * 4099;
    for (size_t off = 0; off < bytes; off += step) got.bytes().read(off, std::min(step, bytes - off), part.data() + off);
    EXPECT_EQ(part, want) << "ranges of perm " << c.perm[0] << ", element size " << es;
    EXPECT_EQ(std::memcmp(got.data(), want.data(), bytes), 0) << "whole, perm " << c.perm[0] << ", element size " << es;
  }
}

// Folded weights stay produced bytes (computed by the writer into the file) through the passes that
// follow the fold, two identical folds included (cse compares them by identity, not by computing
// them); their values are the scaled weights.
TEST(FuseBatchnorm, FoldedWeightsAreComputedOnlyWhenRead) {
  const char* text = R"(graph @main(%x: float32[N, 1, H, W]) {
  const %w = dense<float32[2, 1, 1, 2]>[1.0, 2.0, 3.0, 4.0]
  const %scale = dense<float32[2]>[2.0, 0.5]
  const %beta = dense<float32[2]>[0.0, 1.0]
  const %mean = dense<float32[2]>[1.0, 0.0]
  const %var = dense<float32[2]>[1.0, 1.0]
  %c = Conv(%x, %w) : float32[N, 2, H, W - 1]
  %y = BatchNormalization(%c, %scale, %beta, %mean, %var) {epsilon = 0.0} : float32[N, 2, H, W - 1]
  %c2 = Conv(%x, %w) : float32[N, 2, H, W - 1]
  %y2 = BatchNormalization(%c2, %scale, %beta, %mean, %var) {epsilon = 0.0} : float32[N, 2, H, W - 1]
  %s = Add(%y, %y2) : float32[N, 2, H, W - 1]
  return %s
}
)";
  auto g = ir::parse(text);
  ASSERT_TRUE(run_pipeline(*g, {"fuse_batchnorm", "cse", "dce", "fold", "cse", "dce"}, {}).is_ok());
  int convs = 0;
  for (ir::Node* n : g->nodes()) {
    if (!n->is("Conv")) continue;
    ++convs;
    const ir::Tensor& w = *n->input(1)->initializer();
    EXPECT_TRUE(w.bytes().is_produced()) << "a pass computed the folded weights";
    std::vector<float> got(4);
    w.bytes().read(0, 16, reinterpret_cast<uint8_t*>(got.data()));
    EXPECT_EQ(got, (std::vector<float>{2.0f, 4.0f, 1.5f, 2.0f}));
  }
  EXPECT_EQ(convs, 2);
}

}  // namespace
}  // namespace onnxify::passes
