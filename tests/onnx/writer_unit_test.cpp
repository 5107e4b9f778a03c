// The writer's ModelProto, read back with libonnx's protobuf classes: names, value_info, dim_param,
// doc_string, metadata, opset imports, hoisted region initializers, external data layout; and the
// writer's refusals (exact messages: they are the spec of our diagnostics).
#include <gtest/gtest.h>
#include <onnx/onnx_pb.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "ir/ir.h"
#include "onnx/onnx.h"

namespace onnxify {
namespace {

namespace fs = std::filesystem;

struct TempDir {
  fs::path path;
  TempDir() {
    std::string tmpl = (fs::temp_directory_path() / "onnxify-writer-XXXXXX").string();
    path = ::mkdtemp(tmpl.data());
  }
  ~TempDir() { fs::remove_all(path); }
};

onnx::ModelProto load(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  onnx::ModelProto m;
  EXPECT_TRUE(m.ParseFromIstream(&in)) << p;
  return m;
}

std::unique_ptr<ir::Graph> ir_of(const std::string& text) { return ir::parse(text, "test.ir", {false}); }

TEST(Writer, StructureOfTheModel) {
  TempDir tmp;
  auto g = ir_of(R"(graph @net(%x: float32[N, 4], %c: bool[]) {
  const %w = dense<float32[4]>[1.0, 2.0, 3.0, 4.0]
  %a = Add(%x, %w) : float32[N, 4] @"block.0" loc("model.py":12:8)
  %b = Add(%a, %w) : float32[N, 4] @"block.0" loc("model.py":13:8)
  %y = If(%c) {
    else_branch = graph() {
      const %k = dense<float32[]>[3.0]
      %m = Mul(%b, %k) : float32[N, 4]
      return %m
    },
    then_branch = graph() {
      return %a
    }
  } : float32[N, 4] @"head"
  %s = Slice(%y, %w, %w) : float32[floor((N + 1) / 2), ?]
  %g = com.microsoft::Gelu(%s) : float32[floor((N + 1) / 2), ?]
  return %g, %x
}
)");
  WriteOptions o;
  o.source_file = "model.py";
  o.source_hash = "sha256:abc";
  o.domain_opsets["com.microsoft"] = 1;
  fs::path out = tmp.path / "m.onnx";
  ASSERT_TRUE(write_onnx(*g, out.string(), o).is_ok());
  onnx::ModelProto m = load(out);
  EXPECT_EQ(m.ir_version(), 8);
  EXPECT_EQ(m.producer_name(), "onnxify");
  ASSERT_EQ(m.opset_import_size(), 2);
  EXPECT_EQ(m.opset_import(0).domain(), "");
  EXPECT_EQ(m.opset_import(0).version(), 17);
  EXPECT_EQ(m.opset_import(1).domain(), "com.microsoft");
  ASSERT_EQ(m.metadata_props_size(), 2);
  EXPECT_EQ(m.metadata_props(0).key(), "source_file");
  EXPECT_EQ(m.metadata_props(1).value(), "sha256:abc");

  const onnx::GraphProto& gp = m.graph();
  EXPECT_EQ(gp.name(), "net");
  // Node names from module paths, unique; doc_string file:line.
  ASSERT_EQ(gp.node_size(), 5);
  EXPECT_EQ(gp.node(0).name(), "block.0/Add");
  EXPECT_EQ(gp.node(1).name(), "block.0/Add_1");
  EXPECT_EQ(gp.node(0).doc_string(), "model.py:12");
  EXPECT_EQ(gp.node(2).name(), "head/If");
  EXPECT_EQ(gp.node(4).domain(), "com.microsoft");
  // The region's initializer is hoisted to the main graph (regions see it by capture).
  ASSERT_EQ(gp.initializer_size(), 2);
  EXPECT_EQ(gp.initializer(1).name(), "k");
  // Outputs: symbolic dims as dim_param (an expression's text), unknown dims empty; the input
  // returned as an output keeps its name.
  const auto& shape = gp.output(0).type().tensor_type().shape();
  EXPECT_EQ(shape.dim(0).dim_param(), "floor((N + 1) / 2)");
  EXPECT_FALSE(shape.dim(1).has_dim_param() || shape.dim(1).has_dim_value());
  EXPECT_EQ(gp.output(1).name(), "x");
  // value_info for the intermediates (not for outputs).
  std::vector<std::string> infos;
  for (const auto& vi : gp.value_info()) infos.push_back(vi.name());
  EXPECT_EQ(infos, (std::vector<std::string>{"a", "b", "y", "s"}));
  // The then-branch returns an outer value: through an Identity.
  const onnx::GraphProto& then_g = gp.node(2).attribute(1).g();
  EXPECT_EQ(then_g.name(), "head/If/then_branch");
  ASSERT_EQ(then_g.node_size(), 1);
  EXPECT_EQ(then_g.node(0).op_type(), "Identity");
  EXPECT_EQ(then_g.node(0).input(0), "a");
}

// A dim whose expression is too long to read gets a short dim_param, the same for equal
// expressions, distinct for different ones.
TEST(Writer, LongSizeExpressionsGetShortNames) {
  TempDir tmp;
  ir::DimExpr H = ir::DimExpr::symbol("H"), W = ir::DimExpr::symbol("W");
  for (int i = 0; i < 6; ++i) {
    ir::DimExpr h = ir::max(H, ir::floor_div(W + 3, 2)), w = ir::min(W, ir::floor_div(H + 1, 3) + 1);
    H = h;
    W = w;
  }
  std::string h = H.str(), w = W.str();
  ASSERT_GT(h.size(), 256u);
  ASSERT_GT(w.size(), 256u);
  ASSERT_LT(h.size(), 4096u);
  auto g = ir_of("graph @net(%x: float32[H, W]) {\n  %a = Relu(%x) : float32[" + h + ", " + w +
                 "]\n  %b = Neg(%a) : float32[" + h + ", 2]\n  return %a, %b\n}\n");
  ASSERT_TRUE(g);
  fs::path out = tmp.path / "m.onnx";
  ASSERT_TRUE(write_onnx(*g, out.string(), WriteOptions{}).is_ok());
  onnx::ModelProto m = load(out);
  const auto& a = m.graph().output(0).type().tensor_type().shape();
  const auto& b = m.graph().output(1).type().tensor_type().shape();
  EXPECT_EQ(a.dim(0).dim_param(), "size_expr_1");
  EXPECT_EQ(a.dim(1).dim_param(), "size_expr_2");
  EXPECT_EQ(b.dim(0).dim_param(), "size_expr_1");
  EXPECT_EQ(b.dim(1).dim_value(), 2);
}

TEST(Writer, ExternalDataIsAlignedAndComplete) {
  TempDir tmp;
  // Two tensors from a mapped file (one big enough to be copied file-to-file) and one small inline.
  fs::path bin = tmp.path / "w.bin";
  std::vector<float> data(70000);
  for (size_t i = 0; i < data.size(); ++i) data[i] = static_cast<float>(i);
  {
    std::ofstream f(bin, std::ios::binary);
    f.write("abc", 3);  // unaligned in the source
    f.write(reinterpret_cast<const char*>(data.data()), static_cast<std::streamsize>(data.size() * 4));
  }
  std::string text =
      "graph @main(%x: float32[7]) {\n"
      "  const %big = ref<float32[70000]>(\"" +
      bin.string() +
      "\"@3+280000)\n"
      "  const %mid = ref<float32[7]>(\"" +
      bin.string() +
      "\"@7+28)\n"
      "  const %small = dense<float32[1]>[2.0]\n"
      "  %s = ReduceSum(%big) : float32[1]\n"
      "  %a = Add(%x, %mid) : float32[7]\n"
      "  %b = Mul(%a, %small) : float32[7]\n"
      "  %c = Add(%b, %s) : float32[7]\n"
      "  return %c\n}\n";
  auto g = ir_of(text);
  WriteOptions o;
  o.external_threshold = 16;
  WriteStats stats;
  fs::path out = tmp.path / "m.onnx";
  ASSERT_TRUE(write_onnx(*g, out.string(), o, &stats).is_ok());
  EXPECT_EQ(stats.external_tensors, 2u);
  EXPECT_EQ(stats.kernel_copied_bytes, 280000u);
  onnx::ModelProto m = load(out);
  ASSERT_EQ(m.graph().initializer_size(), 3);
  std::string side;
  {
    std::ifstream f(tmp.path / "m.onnx.data", std::ios::binary);
    side.assign(std::istreambuf_iterator<char>(f), {});
  }
  for (int i = 0; i < 2; ++i) {
    const auto& t = m.graph().initializer(i);
    EXPECT_EQ(t.data_location(), onnx::TensorProto::EXTERNAL);
    std::map<std::string, std::string> kv;
    for (const auto& e : t.external_data()) kv[e.key()] = e.value();
    EXPECT_EQ(kv["location"], "m.onnx.data");
    uint64_t off = std::stoull(kv["offset"]), len = std::stoull(kv["length"]);
    EXPECT_EQ(off % (len >= 4096 ? 4096 : 64), 0u) << t.name();
    ASSERT_LE(off + len, side.size());
    const char* want = reinterpret_cast<const char*>(data.data()) + (i == 0 ? 0 : 4);
    EXPECT_EQ(side.compare(off, len, want, len), 0) << t.name();
  }
  EXPECT_EQ(m.graph().initializer(2).raw_data().size(), 4u);
}

TEST(Writer, EmbeddedStreamedTensorsParseBack) {
  TempDir tmp;
  std::vector<uint8_t> bytes(200000);
  for (size_t i = 0; i < bytes.size(); ++i) bytes[i] = static_cast<uint8_t>(i * 7);
  auto g = std::make_unique<ir::Graph>("main");
  ir::Value* big = g->add_initializer(
      ir::Tensor(ir::ElementType::UInt8, {200000}, Bytes::copy_of(bytes.data(), bytes.size())), "big");
  ir::Node* n = g->append("Identity", {big});
  n->output(0)->set_type(big->type());
  g->add_output(n->output(0));
  fs::path out = tmp.path / "m.onnx";
  ASSERT_TRUE(write_onnx(*g, out.string()).is_ok());
  onnx::ModelProto m = load(out);
  ASSERT_EQ(m.graph().initializer_size(), 1);
  EXPECT_EQ(m.graph().initializer(0).name(), "big");
  EXPECT_EQ(m.graph().initializer(0).raw_data(), std::string(bytes.begin(), bytes.end()));
  EXPECT_EQ(m.graph().node_size(), 1);
  EXPECT_EQ(m.graph().output(0).name(), "0");
}

// Produced bytes (a folded weight) are computed into the file a chunk at a time: the file holds
// them, embedded or in the side file, and nothing asked for them whole.
TEST(Writer, ProducedTensorsAreWrittenWithoutBeingComputedWhole) {
  for (bool external : {false, true}) {
    TempDir tmp;
    const size_t n = (5u << 20) + 12;  // more than one chunk, and a short last one
    auto value = [](size_t i) { return static_cast<uint8_t>(i * 13 + i / 251); };
    Bytes produced = Bytes::produced(n, 4, [&](size_t offset, size_t size, uint8_t* out) {
      for (size_t i = 0; i < size; ++i) out[i] = value(offset + i);
    });
    auto g = std::make_unique<ir::Graph>("main");
    ir::Value* big = g->add_initializer(ir::Tensor(ir::ElementType::UInt8, {static_cast<int64_t>(n)}, produced), "big");
    ir::Node* node = g->append("Identity", {big});
    node->output(0)->set_type(big->type());
    g->add_output(node->output(0));
    WriteOptions o;
    if (external) o.external_threshold = 1024;
    fs::path out = tmp.path / "m.onnx";
    ASSERT_TRUE(write_onnx(*g, out.string(), o).is_ok());
    EXPECT_TRUE(produced.is_produced()) << "the writer computed the whole tensor in memory";
    onnx::ModelProto m = load(out);
    ASSERT_EQ(m.graph().initializer_size(), 1);
    std::string bytes = m.graph().initializer(0).raw_data();
    if (external) {
      std::ifstream f(tmp.path / "m.onnx.data", std::ios::binary);
      bytes.assign(std::istreambuf_iterator<char>(f), {});
      std::map<std::string, std::string> kv;
      for (const auto& e : m.graph().initializer(0).external_data()) kv[e.key()] = e.value();
      bytes = bytes.substr(std::stoull(kv["offset"]), std::stoull(kv["length"]));
    }
    ASSERT_EQ(bytes.size(), n) << external;
    size_t bad = 0;
    for (size_t i = 0; i < n; ++i) bad += static_cast<uint8_t>(bytes[i]) != value(i);
    EXPECT_EQ(bad, 0u) << external;
  }
}

std::string write_error(const std::string& text, WriteOptions o = {}) {
  TempDir tmp;
  Status s = write_onnx(*ir_of(text), (tmp.path / "m.onnx").string(), o);
  EXPECT_FALSE(fs::exists(tmp.path / "m.onnx")) << "a failed write must not leave a model";
  EXPECT_FALSE(fs::exists(tmp.path / "m.onnx.tmp"));
  return s.is_ok() ? "ok" : s.diagnostic().render();
}

TEST(Writer, RefusesCompositeOps) {
  const char* text = R"(graph @main(%x: float32[N, 4]) {
  %y = onnxify::layer_norm(%x) : float32[N, 4] @"ln" loc("model.py":3:4)
  return %y
}
)";
  EXPECT_EQ(
      write_error(text),
      "model.py:3:5: error: %y = onnxify::layer_norm(%x): composite op onnxify::layer_norm reached the ONNX "
      "writer\n"
      "help: lowering for a target must expand composite ops before writing ONNX\n");
  WriteOptions allow;
  allow.allow_composite_ops = true;
  TempDir tmp;
  ASSERT_TRUE(write_onnx(*ir_of(text), (tmp.path / "m.onnx").string(), allow).is_ok());
  onnx::ModelProto m = load(tmp.path / "m.onnx");
  ASSERT_EQ(m.opset_import_size(), 2);
  EXPECT_EQ(m.opset_import(1).domain(), "onnxify");
}

TEST(Writer, NeedsMainGraphTypes) {
  EXPECT_EQ(
      write_error("graph @main(%x: float32[3]) {\n  %y = Relu(%x)\n  return %y\n}\n"),
      "onnxify: error: graph output %y has no type; ONNX needs the types of the main graph's inputs and "
      "outputs\n");
}

TEST(Writer, ElementTypeNeedsIrVersion) {
  EXPECT_EQ(write_error("graph @main(%x: float8_e4m3fn[3]) {\n  return %x\n}\n"),
            "onnxify: error: graph input %x has element type float8_e4m3fn, which needs ONNX IR version 9 "
            "(opset 17 "
            "gives IR 8)\n");
}

TEST(Writer, OpsetRange) {
  WriteOptions o;
  o.opset = 42;
  EXPECT_EQ(write_error("graph @main(%x: float32[3]) {\n  return %x\n}\n", o),
            "onnxify: error: opset 42 is not supported by the writer (7 to 26)\n");
  EXPECT_EQ(onnx_ir_version_for_opset(13), 7);
  EXPECT_EQ(onnx_ir_version_for_opset(17), 8);
  EXPECT_EQ(onnx_ir_version_for_opset(21), 10);
}

}  // namespace
}  // namespace onnxify
