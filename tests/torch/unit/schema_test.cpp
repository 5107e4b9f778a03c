// The op table and its schema parser: every row parses, overloads are well formed, flags are
// consistent with the schema; the parser's grammar and errors; the binder's PyTorch rules.
#include <gtest/gtest.h>

#include <set>

#include "eval/containers.h"
#include "torch/ops.h"
#include "torch/torch.h"

namespace onnxify::torch {
namespace {

TEST(Schema, ParsesTypesDefaultsAndReturns) {
  Schema s = parse_schema(
      "conv2d.padding(Tensor input, Tensor weight, Tensor? bias=None, int[2] stride=1, str padding=\"valid\", "
      "int[2] dilation=[1, 1], *, bool flag=True, float eps=1e-05) -> (Tensor values, Tensor)");
  EXPECT_EQ(s.name, "conv2d");
  EXPECT_EQ(s.overload, "padding");
  ASSERT_EQ(s.params.size(), 8u);
  EXPECT_EQ(s.params[2].base, BaseType::Tensor);
  EXPECT_TRUE(s.params[2].optional);
  EXPECT_EQ(s.params[3].list_size, 2);
  EXPECT_EQ(s.params[3].dflt.kind, Default::Kind::Int);
  EXPECT_EQ(s.params[4].dflt.s, "valid");
  EXPECT_EQ(s.params[5].dflt.ints, (std::vector<int64_t>{1, 1}));
  EXPECT_TRUE(s.params[6].kwonly);
  EXPECT_EQ(s.params[6].dflt.i, 1);
  EXPECT_DOUBLE_EQ(s.params[7].dflt.f, 1e-05);
  EXPECT_EQ(s.returns.size(), 2u);
  EXPECT_EQ(s.signature(),
            "conv2d(Tensor input, Tensor weight, Tensor? bias=None, int[2] stride=1, str padding=\"valid\", "
            "int[2] dilation=[1, 1], *, bool flag=True, float eps=1e-05)");
}

TEST(Schema, RejectsMalformedText) {
  EXPECT_THROW(parse_schema("relu(Tensor self)"), std::invalid_argument);           // no return
  EXPECT_THROW(parse_schema("relu(Tensr self) -> Tensor"), std::invalid_argument);  // unknown type
  EXPECT_THROW(parse_schema("f(int a, int a) -> int"), std::invalid_argument);      // duplicate
  try {
    parse_schema("f(int[2 a) -> int");
    FAIL();
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("expected ']'"), std::string::npos);
  }
}

// Walks the table: the invariants every row must keep.
TEST(OpTable, EveryRowIsWellFormed) {
  const auto& rows = all_ops();
  ASSERT_GT(rows.size(), 150u);
  std::set<std::string> seen;
  for (const OpRow& r : rows) {
    SCOPED_TRACE(r.def->schema);
    EXPECT_NE(r.def->fn, nullptr);
    EXPECT_NE(r.def->flags, 0u) << "a row nobody can call";
    std::string key = r.schema.name + "." + r.schema.overload;
    EXPECT_TRUE(seen.insert(key).second) << "duplicate overload " << key;
    if (r.def->flags & (kMethod | kInplace | kFnInplace)) {
      ASSERT_FALSE(r.schema.params.empty());
      EXPECT_EQ(r.schema.params[0].base, BaseType::Tensor) << "methods and in-place forms write/read self";
      EXPECT_FALSE(r.schema.params[0].optional);
    }
    // Defaults must be acceptable values of their parameter's type.
    for (const Param& p : r.schema.params) {
      if (!p.has_default) continue;
      if (p.dflt.kind == Default::Kind::None) EXPECT_TRUE(p.optional) << p.name << " defaults to None but is not T?";
      if (p.dflt.kind == Default::Kind::Ints) EXPECT_TRUE(p.is_list) << p.name;
    }
  }
}

TEST(OpTable, GroupsCollectOverloadsInTableOrder) {
  const OpGroup* add = find_op("add");
  ASSERT_NE(add, nullptr);
  // add.Tensor and add.Scalar (ops_pointwise.cpp), then PyTorch's deprecated add(self, alpha, other)
  // (ops_derived.cpp, a later family): tried in that order.
  ASSERT_EQ(add->rows.size(), 3u);
  EXPECT_EQ(add->rows[0]->schema.overload, "Tensor");
  EXPECT_EQ(add->rows[1]->schema.overload, "Scalar");
  EXPECT_EQ(add->rows[2]->schema.overload, "deprecated");
  EXPECT_TRUE(add->flags & kInplace);
  EXPECT_EQ(find_op("no_such_op"), nullptr);
  // Every group name is a Python identifier (it becomes torch.NAME / Tensor.NAME).
  for (const OpGroup& g : op_groups())
    for (char c : g.name) EXPECT_TRUE(std::isalnum(static_cast<unsigned char>(c)) || c == '_') << g.name;
}

TEST(Promotion, FollowsPyTorchCategories) {
  EXPECT_EQ(promote_types(DType::UInt8, DType::Int8), DType::Int16);
  EXPECT_EQ(promote_types(DType::Int32, DType::Float16), DType::Float16);
  EXPECT_EQ(promote_types(DType::Float16, DType::BFloat16), DType::Float32);
  EXPECT_EQ(promote_types(DType::Bool, DType::Int64), DType::Int64);
  EXPECT_EQ(promote_types(DType::Float64, DType::Complex64), DType::Complex128);
  // Dimensioned tensors win within a category; a higher category wins over priority.
  ResultType r1;
  r1.add(ResultType::Kind::DimTensor, DType::Int32);
  r1.add_int_scalar();
  EXPECT_EQ(r1.result(), DType::Int32);
  ResultType r2;
  r2.add(ResultType::Kind::DimTensor, DType::Int32);
  r2.add_float_scalar(DType::Float32);
  EXPECT_EQ(r2.result(), DType::Float32);
  ResultType r3;
  r3.add(ResultType::Kind::DimTensor, DType::Float16);
  r3.add(ResultType::Kind::ZeroDimTensor, DType::Float64);
  EXPECT_EQ(r3.result(), DType::Float16);
  ResultType r4;
  r4.add(ResultType::Kind::DimTensor, DType::Bool);
  r4.add(ResultType::Kind::ZeroDimTensor, DType::Int32);
  EXPECT_EQ(r4.result(), DType::Int32);
}

// The binder through the interpreter: PyTorch's varargs sizes, int[N] broadcasting, TypeErrors.
class Binder : public ::testing::Test {
 protected:
  eval::Interp I;
  std::unique_ptr<Torch> T = install(I);
  ~Binder() override {
    T->release_values();
  }
  std::string run(const std::string& code) {
    auto src = std::make_shared<SourceFile>("<test>", code);
    std::unique_ptr<eval::CodeUnit> unit = eval::compile_module(I, src, "__test__");
    eval::Ref<eval::Dict> g = eval::new_dict_ref(I);
    eval::dict_set(I, g.get(), "__name__", I.str("__test__"));
    eval::dict_set(I, g.get(), "__builtins__", I.builtins_module.value());
    try {
      eval::exec_module_code(I, unit->module, g.get());
    } catch (eval::PyException& e) {
      I.keep(std::move(unit));
      return "raised " + eval::str_string(I, e.exc);
    }
    I.keep(std::move(unit));
    return eval::repr_string(I, eval::dict_get(I, g.get(), "r"));
  }
};

TEST_F(Binder, SizesAndBroadcastLists) {
  EXPECT_EQ(run("import torch\nx = torch.zeros(2, 3)\nr = (x.shape, x.view(3, 2).shape, x.view(-1).shape)\n"),
            "(torch.Size([2, 3]), torch.Size([3, 2]), torch.Size([6]))");
  EXPECT_EQ(run("import torch\nr = torch.ones((2, 3, 4)).permute(2, 0, 1).shape\n"), "torch.Size([4, 2, 3])");
  EXPECT_EQ(run("import torch\nx = torch.zeros(1, 2, 9, 9)\n"
                "r = torch.nn.functional.max_pool2d(x, 3, 2, 1).shape\n"),
            "torch.Size([1, 2, 5, 5])");
  EXPECT_EQ(run("import torch\nr = torch.zeros(2, 3).sum([0, 1]).shape\n"), "torch.Size([])");
}

TEST_F(Binder, TypeErrorsNameTheArgument) {
  EXPECT_EQ(run("import torch\nr = torch.relu('x')\n"),
            "raised relu(): argument 'self' (position 1) must be Tensor, not str");
  std::string msg = run("import torch\nr = torch.add(torch.zeros(2), 'a')\n");
  EXPECT_NE(msg.find("add() received an invalid combination of arguments - got (Tensor, str)"), std::string::npos) << msg;
  EXPECT_NE(msg.find(" * add(Tensor self, Tensor other, *, Scalar alpha=1)"), std::string::npos) << msg;
}

TEST_F(Binder, ConstantsStayReadable) {
  EXPECT_EQ(run("import torch\nr = torch.linspace(0, 1, 5).tolist()\n"), "[0.0, 0.25, 0.5, 0.75, 1.0]");
  EXPECT_EQ(run("import torch\nr = [torch.arange(3).tolist(), torch.tensor([[1, 2]]).dtype, torch.tensor(2.5).item()]\n"),
            "[[0, 1, 2], torch.int64, 2.5]");
  EXPECT_EQ(run("import torch\nr = torch.full((2,), 7).tolist()\n"), "[7, 7]");
}

TEST_F(Binder, ModuleStateDictNaming) {
  EXPECT_EQ(run("import torch\nimport torch.nn as nn\n"
                "class B(nn.Module):\n"
                "    def __init__(self):\n"
                "        super().__init__()\n"
                "        self.conv = nn.Conv2d(2, 3, 1)\n"
                "        self.register_buffer('tmp', None)\n"
                "        self.register_buffer('scale', torch.ones(1), persistent=False)\n"
                "m = nn.Sequential(B(), nn.BatchNorm2d(3))\n"
                "m.eval()\n"
                "r = (list(m.state_dict().keys()), m.training, m[0].training, [n for n, _ in m.named_modules()])\n"),
            "(['0.conv.weight', '0.conv.bias', '1.weight', '1.bias', '1.running_mean', '1.running_var', "
            "'1.num_batches_tracked'], False, False, ['', '0', '0.conv', '1'])");
}

}  // namespace
}  // namespace onnxify::torch
