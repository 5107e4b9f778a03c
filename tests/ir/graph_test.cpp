// Graph API: use lists, erasure, regions capturing outer values, cloning, naming, and the verifier
// on IR broken through the API (what the parser cannot produce).
#include <gtest/gtest.h>

#include <new>

#include "ir/ir.h"

namespace onnxify::ir {
namespace {

Type f32(std::vector<DimExpr> dims) { return Type::tensor(ElementType::Float32, std::move(dims)); }

TEST(Graph, UsesFollowMutations) {
  Graph g("main");
  Value* x = g.add_input(f32({DimExpr::symbol("N")}), "x");
  Node* relu = g.append("Relu", {x});
  Node* neg = g.append("Neg", {relu->output(0)});
  g.add_output(neg->output(0));
  EXPECT_EQ(x->uses().size(), 1u);
  EXPECT_EQ(relu->output(0)->uses().size(), 1u);
  EXPECT_EQ(neg->output(0)->uses()[0].graph, &g);

  // Bypass the Relu: Neg reads x directly; the Relu becomes dead and can be erased.
  relu->output(0)->replace_all_uses_with(x);
  EXPECT_EQ(x->uses().size(), 2u);
  EXPECT_FALSE(relu->output(0)->has_uses());
  g.erase(relu);
  EXPECT_EQ(x->uses().size(), 1u);
  EXPECT_EQ(g.num_nodes(), 1u);
  EXPECT_TRUE(verify(g).is_ok()) << verify_all(g).render();

  // A node whose result is still used cannot be erased.
  EXPECT_THROW(g.erase(neg), std::logic_error);
}

// A region deleted and a new graph constructed at the same address (what malloc does when it reuses
// the block): the serial differs, so caches keyed by it (the torch recorder's size values) never hand
// the new graph a value of the dead one. Keyed by address, that was a use-after-free that ASan and
// valgrind could not see (their allocators never reuse a block at once).
TEST(Graph, SerialsAreNotReusedWithTheAddress) {
  alignas(Graph) unsigned char storage[sizeof(Graph)];
  Graph* a = new (storage) Graph("first");
  const uint64_t first = a->serial();
  a->~Graph();
  Graph* b = new (storage) Graph("second");
  EXPECT_EQ(static_cast<void*>(a), static_cast<void*>(b));
  EXPECT_NE(b->serial(), first);
  b->~Graph();
}

TEST(Graph, ErasingARegionDropsItsOuterUses) {
  Graph g("main");
  Value* c = g.add_input(Type::tensor(ElementType::Bool, {}), "c");
  Value* x = g.add_input(f32({3}), "x");
  Node* iff = g.append("If", {c});
  for (const char* br : {"then_branch", "else_branch"}) {
    auto body = std::make_unique<Graph>();
    Node* r = body->append("Relu", {x});  // captures %x
    body->add_output(r->output(0));
    iff->set_attr(br, std::move(body));
  }
  EXPECT_EQ(x->uses().size(), 2u);
  EXPECT_EQ(iff->regions().size(), 2u);
  EXPECT_EQ(iff->regions()[0]->parent_node(), iff);
  EXPECT_EQ(iff->regions()[0]->parent_graph(), &g);
  EXPECT_TRUE(g.encloses(iff->regions()[1]));

  // Replacing one branch drops that branch's use of %x.
  auto empty = std::make_unique<Graph>();
  empty->add_output(x);
  iff->set_attr("else_branch", std::move(empty));
  EXPECT_EQ(x->uses().size(), 2u);  // the then-branch Relu and the new else-branch output
  g.erase(iff);
  EXPECT_TRUE(x->uses().empty());
}

TEST(Graph, CloneKeepsOuterCapturesAndMapsTheRest) {
  Graph g("main");
  Value* x = g.add_input(f32({2}), "x");
  auto body = std::make_unique<Graph>("b");
  Value* a = body->add_input(f32({2}), "a");
  Node* add = body->append("Add", {a, x});
  body->add_output(add->output(0));
  ValueMap map;
  auto copy = body->clone(map);
  EXPECT_EQ(copy->num_nodes(), 1u);
  EXPECT_EQ(copy->first()->input(0), copy->input(0));  // mapped
  EXPECT_EQ(copy->first()->input(1), x);               // outer capture kept
  EXPECT_EQ(x->uses().size(), 2u);
  copy.reset();  // a dropped clone gives its outer uses back
  EXPECT_EQ(x->uses().size(), 1u);
}

TEST(Graph, NamesAreUniqueAcrossRegions) {
  Graph g("main");
  Value* x = g.add_input(f32({2}), "x");
  Node* n1 = g.append("Relu", {x});
  n1->output(0)->set_name("x");  // clashes with the input
  Node* n2 = g.append("Relu", {n1->output(0)});
  Node* n3 = g.append("Relu", {n2->output(0)});
  n3->output(0)->set_name("x_1");  // clashes with the renamed n1 result
  g.add_output(n3->output(0));
  NameTable names(g);
  EXPECT_EQ(names(x), "x");
  EXPECT_EQ(names(n1->output(0)), "x_1");
  EXPECT_EQ(names(n2->output(0)), "0");
  EXPECT_EQ(names(n3->output(0)), "x_1_1");
  // Printing then parsing reaches a fixed point after one print.
  std::string once = print(g);
  EXPECT_EQ(print(*parse(once)), once);
}

TEST(Verifier, UseBeforeDefinition) {
  Graph g("main");
  Value* x = g.add_input(f32({2}), "x");
  Node* a = g.append("Relu", {x});
  Node* b = g.append("Neg", {a->output(0)});
  g.add_output(b->output(0));
  g.move_before(b, a);  // now Neg reads Relu's result before the Relu runs
  // Names follow the current order: the Neg now comes first.
  EXPECT_EQ(verify_all(g).render(), "onnxify: error: %0 = Neg(%1): input 0 uses %1 before its definition\n");
}

TEST(Verifier, RegionUsesAValueDefinedAfterItsNode) {
  Graph g("main");
  Value* c = g.add_input(Type::tensor(ElementType::Bool, {}), "c");
  Value* x = g.add_input(f32({2}), "x");
  Node* iff = g.append("If", {c}, 0);
  Node* late = g.append("Relu", {x});
  late->output(0)->set_name("late");
  for (const char* br : {"then_branch", "else_branch"}) {
    auto body = std::make_unique<Graph>();
    Node* r = body->append("Neg", {late->output(0)});
    r->output(0)->set_name(br[0] == 't' ? "t" : "e");
    body->add_output(r->output(0));
    iff->set_attr(br, std::move(body));
  }
  iff->add_output(f32({2}), "y");
  g.add_output(iff->output(0));
  EXPECT_EQ(verify_all(g).render(),
            "onnxify: error: %t = Neg(%late): input 0 uses %late before its definition\n"
            "onnxify: error: %e = Neg(%late): input 0 uses %late before its definition\n");
}

TEST(Verifier, ValueOfAnotherRegion) {
  Graph g("main");
  Value* c = g.add_input(Type::tensor(ElementType::Bool, {}), "c");
  Value* x = g.add_input(f32({2}), "x");
  Node* iff = g.append("If", {c}, 1);
  auto then_b = std::make_unique<Graph>();
  Node* r = then_b->append("Relu", {x});
  r->output(0)->set_name("inner");
  then_b->add_output(r->output(0));
  auto else_b = std::make_unique<Graph>();
  else_b->add_output(r->output(0));  // reaches into the sibling branch
  iff->set_attr("then_branch", std::move(then_b));
  iff->set_attr("else_branch", std::move(else_b));
  g.add_output(iff->output(0));
  EXPECT_EQ(
      verify_all(g).render(),
      "onnxify: error: a region of %0 = If(%c): output 0 is %inner, which is not defined in this graph or an "
      "enclosing one\n");
}

TEST(Verifier, NodeLocationAndModulePath) {
  Graph g("main");
  Value* x = g.add_input(f32({2}), "x");
  Node* n = g.append("Sqrt", {x});
  n->output(0)->set_type(Type::tensor(ElementType::Int64, {2}));
  auto file = std::make_shared<SourceFile>("model.py", "def forward(self, x):\n    return torch.sqrt(x)\n");
  n->set_loc(SourceRange{file, {2, 11}, {2, 24}});
  n->set_module_path("head");
  g.add_output(n->output(0));
  EXPECT_EQ(
      verify_all(g).render(),
      "model.py:2:12: error: %0 = Sqrt(%x): output 0 (Y, %0) has type int64, but T of Sqrt allows bfloat16, "
      "float16, float32, float64\n"
      "    return torch.sqrt(x)\n"
      "           ^~~~~~~~~~~~~\n");
}

TEST(Verifier, CompositeRuleHook) {
  register_op_rule({"onnxify", "test_unary", "test op", [](const Node& n) -> std::string {
                      return n.num_inputs() == 1 ? "" : "test_unary takes one input";
                    }});
  Graph g("main");
  Value* x = g.add_input(f32({2}), "x");
  Node* ok = g.create("onnxify", "test_unary", {x}, 1);
  Node* bad = g.create("onnxify", "test_unary", {x, x}, 1);
  g.add_output(ok->output(0));
  g.add_output(bad->output(0));
  EXPECT_EQ(verify_all(g).render(),
            "onnxify: error: %1 = onnxify::test_unary(%x, %x): test_unary takes one input\n");
  EXPECT_NE(find_op_rule("onnxify", "test_unary"), nullptr);
}

TEST(Tensor, HalfConversionsRoundTrip) {
  for (uint32_t h = 0; h < 0x10000; ++h) {
    float f = half_to_float(static_cast<uint16_t>(h));
    if (f != f) continue;  // nan payloads are not preserved bit for bit
    EXPECT_EQ(float_to_half(f), h) << h;
  }
  EXPECT_EQ(float_to_half(65520.0f), 0x7c00);            // rounds to inf
  EXPECT_EQ(float_to_half(1.0f + 1.0f / 2048), 0x3c00);  // tie rounds to even
  EXPECT_EQ(float_to_bfloat16(1.0f), 0x3f80);
}

TEST(Tensor, RejectsMismatchedBytes) {
  EXPECT_THROW(Tensor(ElementType::Float32, {2, 2}, Bytes::from_vector(std::vector<uint8_t>(15))),
               std::invalid_argument);
  EXPECT_THROW(Tensor(ElementType::Float32, {-1}, Bytes()), std::invalid_argument);
  Tensor t(ElementType::Int4, {3}, Bytes::from_vector({0x21, 0x03}));  // packed two per byte
  EXPECT_EQ(t.nbytes(), 2u);
}

}  // namespace
}  // namespace onnxify::ir
