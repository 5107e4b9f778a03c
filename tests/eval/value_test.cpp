// Unit tests of the evaluator's value layer and extension API. Expected values marked "CPython"
// were produced by /usr/bin/python3 (CPython 3.11) and are the oracle here.
#include <gtest/gtest.h>

#include <cmath>

#include "eval/eval.h"
#include "eval/poison.h"
#include "eval/internal.h"

namespace onnxify::eval {
namespace {

TEST(Value, InlineScalarsNeedNoHeap) {
  Interp I;
  size_t before = I.heap.objects;
  Value a = Value::integer(42), b = Value::real(2.5), c = Value::boolean(true), n = Value::none();
  Value d = a;
  EXPECT_EQ(I.heap.objects, before);
  EXPECT_TRUE(a.is(d));
  EXPECT_EQ(sizeof(Value), 16u);
  EXPECT_EQ(I.type_of(a), I.t.int_);
  EXPECT_EQ(I.type_of(b), I.t.float_);
  EXPECT_EQ(I.type_of(c), I.t.bool_);
  EXPECT_EQ(I.type_of(n), I.t.none);
}

TEST(Value, RefcountingFreesAndTeardownFreesCycles) {
  Interp I;
  size_t before = I.heap.objects;
  {
    Value l = new_list(I, {Value::integer(1)});
    EXPECT_GT(I.heap.objects, before);
  }
  EXPECT_EQ(I.heap.objects, before);
  {
    // A cycle: kept until teardown.
    Value l = new_list(I);
    list_append(I, as_list(l), l);
  }
  EXPECT_GT(I.heap.objects, before);
}

TEST(Value, DeepChainIsFreedWithoutRecursion) {
  Interp I;
  Value head = Value::none();
  for (int i = 0; i < 200000; ++i) head = new_list(I, {head});
  size_t with_chain = I.heap.objects;
  head = Value();
  EXPECT_LT(I.heap.objects, with_chain - 199000);
}

TEST(FloatRepr, MatchesCPython) {
  // CPython: repr() of each double.
  struct {
    double d;
    const char* repr;
  } cases[] = {{0.1, "0.1"},
               {0.1 + 0.2, "0.30000000000000004"},
               {1.0, "1.0"},
               {1e16, "1e+16"},
               {1e15, "1000000000000000.0"},
               {123456789.123, "123456789.123"},
               {1e-5, "1e-05"},
               {0.0001, "0.0001"},
               {5e-324, "5e-324"},
               {1.7976931348623157e308, "1.7976931348623157e+308"},
               {-0.0, "-0.0"},
               {1.0 / 3, "0.3333333333333333"},
               {9999999999999998.0, "9999999999999998.0"},
               {1e22, "1e+22"},
               {INFINITY, "inf"},
               {-INFINITY, "-inf"}};
  for (auto& c : cases) EXPECT_EQ(float_repr(c.d), c.repr) << c.repr;
  EXPECT_EQ(float_repr(NAN), "nan");
}

TEST(Format, SpecsMatchCPython) {
  Interp I;
  // CPython: format(value, spec).
  EXPECT_EQ(format_float(I, 3.14159, ".2f"), "3.14");
  EXPECT_EQ(format_float(I, 1234567.891, ",.2f"), "1,234,567.89");
  EXPECT_EQ(format_float(I, 123.0, ".3"), "1.23e+02");
  EXPECT_EQ(format_float(I, 12.0, ".3"), "12.0");
  EXPECT_EQ(format_float(I, 0.0, "#g"), "0.00000");
  EXPECT_EQ(format_float(I, 1e-5, "g"), "1e-05");
  EXPECT_EQ(format_float(I, 2.5, ".0f"), "2");
  EXPECT_EQ(format_float(I, -0.0, "z.1f"), "0.0");
  EXPECT_EQ(format_float(I, 0.5, "%"), "50.000000%");
  EXPECT_EQ(format_int(I, 255, "#010x"), "0x000000ff");
  EXPECT_EQ(format_int(I, 1234567, "_"), "1_234_567");
  EXPECT_EQ(format_int(I, 12345, "010,"), "00,012,345");
  EXPECT_EQ(format_int(I, -5, "08d"), "-0000005");
  EXPECT_EQ(format_int(I, 1, "0>5"), "00001");
  EXPECT_EQ(format_str(I, "x", "05"), "x0000");
  EXPECT_EQ(format_str(I, "abc", "*^9"), "***abc***");
  EXPECT_EQ(format_complex(I, 3, 4, ".2f"), "3.00+4.00j");
}

TEST(Hash, NumericHashesMatchCPython) {
  Interp I;
  // CPython: hash(x).
  EXPECT_EQ(hash(I, Value::real(1.5)), 1152921504606846977LL);
  EXPECT_EQ(hash(I, Value::real(0.1)), 230584300921369408LL);
  EXPECT_EQ(hash(I, Value::real(1e100)), 1822893315824342674LL);
  EXPECT_EQ(hash(I, Value::integer(-1)), -2);
  EXPECT_EQ(hash(I, Value::integer((int64_t{1} << 61) - 1)), 0);
  EXPECT_EQ(hash(I, Value::integer(int64_t{1} << 61)), 1);
  EXPECT_EQ(hash(I, Value::real(INFINITY)), 314159);
  Value t = new_tuple(I, {Value::integer(1), Value::integer(2)});
  EXPECT_EQ(hash(I, t), -3550055125485641917LL);
  EXPECT_EQ(hash(I, Value::borrow(I.empty_tuple.get())), 5740354900026072187LL);
  EXPECT_EQ(hash(I, new_frozenset(I, Value())), 133146708735736LL);
  Value fs = new_frozenset(I, new_list(I, {Value::integer(1), Value::integer(2), Value::integer(3)}));
  EXPECT_EQ(hash(I, fs), -272375401224217160LL);
}

std::string set_repr(Interp& I, std::initializer_list<int64_t> items) {
  Value s = new_set(I);
  for (int64_t v : items) set_add(I, as<Set>(s), Value::integer(v));
  return repr_string(I, s);
}

TEST(Set, IterationOrderMatchesCPython) {
  Interp I;
  // CPython: s = set(); s.add(x) for each item in order; print(s).
  EXPECT_EQ(set_repr(I, {100, 200, 300, 5, 64, 8}), "{64, 100, 5, 200, 8, 300}");
  EXPECT_EQ(set_repr(I, {5, 1, 5, 9, 1, 13, 17}), "{1, 5, 9, 13, 17}");
  EXPECT_EQ(set_repr(I, {-1, -5, 0, 7}), "{0, -5, -1, 7}");
  Value s = new_set(I);
  for (int64_t v = 0; v < 100; v += 7) set_add(I, as<Set>(s), Value::integer(v));
  set_discard(I, as<Set>(s), Value::integer(49));
  EXPECT_EQ(repr_string(I, s), "{0, 98, 35, 70, 7, 42, 77, 14, 84, 21, 56, 91, 28, 63}");
}

TEST(Dict, KeepsInsertionOrderThroughGrowthAndDeletion) {
  Interp I;
  Ref<Dict> d = new_dict_ref(I);
  for (int i = 0; i < 1000; ++i) dict_set(I, d.get(), Value::integer(i), Value::integer(i * i));
  for (int i = 0; i < 1000; i += 2) EXPECT_TRUE(dict_del(I, d.get(), Value::integer(i)));
  EXPECT_EQ(d->used, 500);
  dict_set(I, d.get(), Value::integer(0), I.str("back"));
  std::vector<int64_t> keys;
  for (auto& e : d->entries)
    if (!e.key.is_null()) keys.push_back(e.key.i());
  ASSERT_EQ(keys.size(), 501u);
  EXPECT_EQ(keys.front(), 1);
  EXPECT_EQ(keys.back(), 0);
  EXPECT_EQ(dict_get(I, d.get(), Value::integer(999)).i(), 999 * 999);
  EXPECT_TRUE(dict_get(I, d.get(), Value::integer(2)).is_null());
  // Equal keys of different types find the same entry (1 == 1.0 == True).
  dict_set(I, d.get(), Value::real(1.0), I.str("one"));
  EXPECT_EQ(str_string(I, dict_get(I, d.get(), Value::boolean(true))), "one");
}

TEST(Parse, IntAndFloatLiterals) {
  int64_t v;
  bool ovf;
  EXPECT_TRUE(parse_int(" -0x1f ", 0, &v, &ovf));
  EXPECT_EQ(v, -31);
  EXPECT_TRUE(parse_int("1_000", 10, &v, &ovf));
  EXPECT_EQ(v, 1000);
  EXPECT_FALSE(parse_int("1__0", 10, &v, &ovf));
  EXPECT_FALSE(parse_int("010", 0, &v, &ovf));
  EXPECT_TRUE(parse_int("99999999999999999999", 10, &v, &ovf));
  EXPECT_TRUE(ovf);
  double d;
  EXPECT_TRUE(parse_float(" 1_000.25 ", &d));
  EXPECT_EQ(d, 1000.25);
  EXPECT_TRUE(parse_float("-Infinity", &d));
  EXPECT_TRUE(std::isinf(d) && d < 0);
  EXPECT_FALSE(parse_float(".", &d));
  EXPECT_FALSE(parse_float("1e", &d));
}

TEST(Errors, PythonExceptionsCarryCPythonMessages) {
  Interp I;
  try {
    binary_op(I, BinOp::Add, Value::integer(1), I.str("a"));
    FAIL();
  } catch (PyException& e) {
    EXPECT_EQ(type_name(I, e.exc), "TypeError");
    EXPECT_EQ(str_string(I, e.exc), "unsupported operand type(s) for +: 'int' and 'str'");
  }
  try {
    binary_op(I, BinOp::FloorDiv, Value::integer(1), Value::integer(0));
    FAIL();
  } catch (PyException& e) {
    EXPECT_EQ(str_string(I, e.exc), "integer division or modulo by zero");
  }
}

TEST(Errors, IntOverflowIsUnknownNotAWrap) {
  // A result beyond 64 bits is an unknown value (an error where a concrete value is needed), never a
  // wrapped int.
  Interp I;
  Value m = binary_op(I, BinOp::Mul, Value::integer(INT64_MAX), Value::integer(2));
  Value p = binary_op(I, BinOp::Pow, Value::integer(2), Value::integer(64));
  EXPECT_TRUE(is_poison(m));
  EXPECT_TRUE(is_poison(p));
  EXPECT_THROW(is_true(I, p), Diagnostic);
}

TEST(Budgets, MemoryBudgetStopsAllocation) {
  Options o;
  o.budgets.max_memory = 8u << 20;
  Interp I(o);
  Value l = new_list(I);
  try {
    for (int i = 0; i < 10000000; ++i) list_append(I, as_list(l), new_list(I, {Value::integer(i)}));
    FAIL() << "no budget error";
  } catch (Diagnostic& d) {
    EXPECT_NE(d.message().find("memory budget exceeded"), std::string::npos);
    EXPECT_NE(d.help().find("--max-memory"), std::string::npos);
  }
}

TEST(Signature, BindsLikePythonAndReportsCPythonErrors) {
  Interp I;
  Signature sig("f", "a, /, b=, *args, c, d=, **kw");
  Value pos[] = {Value::integer(1), Value::integer(2), Value::integer(3)};
  Str* names[] = {I.intern("c"), I.intern("z")};
  Value kw[] = {Value::integer(4), Value::integer(5)};
  Args a(pos, 3);
  a.nkw = 2;
  a.kwnames = names;
  a.kwvals = kw;
  Value out[6];
  sig.bind(I, a, out);
  EXPECT_EQ(out[0].i(), 1);
  EXPECT_EQ(out[1].i(), 2);
  EXPECT_EQ(repr_string(I, out[2]), "(3,)");
  EXPECT_EQ(out[3].i(), 4);
  EXPECT_TRUE(out[4].is_null());
  EXPECT_EQ(repr_string(I, out[5]), "{'z': 5}");
  try {
    sig.bind(I, Args(pos, 1), out);
    FAIL();
  } catch (PyException& e) {
    EXPECT_EQ(str_string(I, e.exc), "f() missing 1 required keyword-only argument: 'c'");
  }
}

// ---- the extension API the torch stage uses ------------------------------------------------------

struct Vec2 : Object {
  double x = 0, y = 0;
};

Value vec_alloc(Interp& I, Type* cls) { return I.make<Vec2>(cls).take_value(); }

TEST(Extension, NativeTypeWithSlotsBehavesLikeAPythonClass) {
  Interp I;
  TypeSpec s;
  s.name = "Vec2";
  s.module = "ext";
  s.alloc = &vec_alloc;
  s.slots.new_ = [](Interp& I, Type* cls, const Args& a) -> Value {
    static const Signature sig("Vec2", "x=0, y=0");
    Value v[2];
    sig.bind(I, a, v);
    Value o = alloc_instance(I, cls);
    as<Vec2>(o)->x = v[0] ? to_double(I, v[0]) : 0;
    as<Vec2>(o)->y = v[1] ? to_double(I, v[1]) : 0;
    return o;
  };
  s.slots.add = [](Interp& I, const Value& a, const Value& b) -> Value {
    if (!has_layout(b, a.obj()->type->layout) || I.type_of(b) != I.type_of(a)) return I.notimplemented;
    Value r = alloc_instance(I, I.type_of(a));
    as<Vec2>(r)->x = as<Vec2>(a)->x + as<Vec2>(b)->x;
    as<Vec2>(r)->y = as<Vec2>(a)->y + as<Vec2>(b)->y;
    return r;
  };
  s.slots.repr = [](Interp& I, const Value& v) -> Value {
    return I.str(fmt::format("Vec2({}, {})", float_repr(as<Vec2>(v)->x), float_repr(as<Vec2>(v)->y)));
  };
  s.slots.bool_ = [](Interp& I, const Value& v) -> Truth {
    return (as<Vec2>(v)->x || as<Vec2>(v)->y) ? kTrue : kFalse;
  };
  s.methods = {{"norm1", [](Interp& I, const Value& self, const Args& a) -> Value {
                  return Value::real(std::fabs(as<Vec2>(self)->x) + std::fabs(as<Vec2>(self)->y));
                }}};
  s.getsets = {{"x", [](Interp& I, const Value& self) { return Value::real(as<Vec2>(self)->x); }}};
  Type* t = new_native_type(I, s);
  Ref<Module> m = new_module(I, "ext");
  module_set(I, m.get(), "Vec2", Value::borrow(t));
  dict_set(I, I.modules.get(), I.str("ext"), m.value());

  // Python code uses it, subclasses it, and reaches its slots through object.__getattribute__.
  auto src = std::make_shared<SourceFile>("<test>",
                                          "import ext\n"
                                          "a = ext.Vec2(1, 2) + ext.Vec2(3, -4)\n"
                                          "class V(ext.Vec2):\n"
                                          "    def twice(self):\n"
                                          "        return self + self\n"
                                          "r = [repr(a), a.norm1(), a.x, bool(ext.Vec2()), repr(V(1, 1).twice()),\n"
                                          "     type(V(1, 1).twice()).__name__, ext.Vec2.__add__(a, a).x]\n");
  std::unique_ptr<CodeUnit> unit = compile_module(I, src, "__test__");
  Ref<Dict> g = new_dict_ref(I);
  dict_set(I, g.get(), "__name__", I.str("__test__"));
  exec_module_code(I, unit->module, g.get());
  EXPECT_EQ(repr_string(I, dict_get(I, g.get(), "r")), "['Vec2(4.0, -2.0)', 6.0, 4.0, False, 'Vec2(2.0, 2.0)', 'V', 8.0]");
  I.keep(std::move(unit));
}

TEST(Extension, EmbeddedPythonPackagesImport) {
  Interp I;
  I.add_embedded({"fakepkg", "<test>/fakepkg/__init__.py", "from .core import Thing\n", true});
  I.add_embedded({"fakepkg.core", "<test>/fakepkg/core.py", "class Thing:\n    kind = 'core'\n", false});
  auto src = std::make_shared<SourceFile>("<test>",
                                          "import fakepkg\nimport fakepkg.core as c\nfrom fakepkg import Thing\n"
                                          "r = (Thing.kind, c.Thing is Thing, fakepkg.__name__)\n");
  std::unique_ptr<CodeUnit> unit = compile_module(I, src, "__test__");
  Ref<Dict> g = new_dict_ref(I);
  dict_set(I, g.get(), "__name__", I.str("__test__"));
  exec_module_code(I, unit->module, g.get());
  EXPECT_EQ(repr_string(I, dict_get(I, g.get(), "r")), "('core', True, 'fakepkg')");
  I.keep(std::move(unit));
}

TEST(Poison, PropagatesUntilItMatters) {
  Interp I;
  auto src = std::make_shared<SourceFile>("<test>",
                                          "import torch_not_here as t\n"
                                          "x = t.nn.Linear(3, 4).weight + 1\n"
                                          "y = [x, t.cuda][0]\n"
                                          "if y:\n"
                                          "    pass\n");
  std::unique_ptr<CodeUnit> unit = compile_module(I, src, "__test__");
  Ref<Dict> g = new_dict_ref(I);
  dict_set(I, g.get(), "__name__", I.str("__test__"));
  try {
    exec_module_code(I, unit->module, g.get());
    FAIL();
  } catch (Diagnostic& d) {
    EXPECT_EQ(d.range().begin.line, 4u);
    EXPECT_NE(d.message().find("a condition"), std::string::npos);
    EXPECT_NE(d.message().find("module 'torch_not_here' is not available"), std::string::npos);
    ASSERT_FALSE(d.notes().empty());
    EXPECT_EQ(d.notes()[0].range().begin.line, 1u);
  }
  I.keep(std::move(unit));
}

TEST(Generators, FibersInterleaveAndUnwindWhenAbandoned) {
  Interp I;
  auto src = std::make_shared<SourceFile>("<test>",
                                          "def count(n):\n"
                                          "    i = 0\n"
                                          "    while True:\n"
                                          "        yield i * n\n"
                                          "        i += 1\n"
                                          "a, b = count(1), count(10)\n"
                                          "r = [(next(a), next(b)) for _ in range(3)]\n"
                                          "gens = [count(k) for k in range(50)]\n"
                                          "firsts = [next(g) for g in gens]\n"
                                          "del gens\n");
  std::unique_ptr<CodeUnit> unit = compile_module(I, src, "__test__");
  Ref<Dict> g = new_dict_ref(I);
  dict_set(I, g.get(), "__name__", I.str("__test__"));
  exec_module_code(I, unit->module, g.get());
  EXPECT_EQ(repr_string(I, dict_get(I, g.get(), "r")), "[(0, 0), (1, 10), (2, 20)]");
  I.keep(std::move(unit));
}

// ---- the control-flow hook (issue 7) -------------------------------------------------------------

// A value whose truth is symbolic, as a tensor's is during export.
Value sym_alloc(Interp& I, Type* cls) { return I.make<Object>(cls).take_value(); }
Type* make_symbolic_type(Interp& I) {
  TypeSpec s;
  s.name = "Sym";
  s.module = "ext";
  s.alloc = &sym_alloc;
  s.slots.bool_ = [](Interp&, const Value&) -> Truth { return kSymbolic; };
  return new_native_type(I, s);
}

std::unique_ptr<CodeUnit> run_with_sym(Interp& I, const char* text, Ref<Dict>& g) {
  auto src = std::make_shared<SourceFile>("<test>", text);
  std::unique_ptr<CodeUnit> unit = compile_module(I, src, "__test__");
  g = new_dict_ref(I);
  dict_set(I, g.get(), "__name__", I.str("__test__"));
  dict_set(I, g.get(), "s", alloc_instance(I, make_symbolic_type(I)));
  exec_module_code(I, unit->module, g.get());
  return unit;
}

TEST(ControlFlow, SymbolicConditionWithoutHookIsAnErrorAtTheCondition) {
  Interp I;
  Ref<Dict> g;
  try {
    std::unique_ptr<CodeUnit> unit = run_with_sym(I, "x = 1\nif s:\n    x = 2\n", g);
    FAIL() << "no error";
  } catch (Diagnostic& d) {
    EXPECT_EQ(d.range().begin.line, 2u);
    EXPECT_EQ(d.range().begin.col, 3u);
    EXPECT_NE(d.message().find("symbolic 'Sym'"), std::string::npos) << d.message();
  }
}

// A hook that runs both branches of an `if` from the same state and records what each assigned,
// as the torch stage does to build an If node.
struct BothBranches : ControlFlowHook {
  std::vector<std::string> log;
  Exit on_if(Interp& I, Frame& f, const IfStmt& s, const Value& cond) override {
    std::vector<VarRef> vars = s.body_summary.assigned;
    for (const VarRef& v : s.orelse_summary.assigned) vars.push_back(v);
    VarSnapshot before = snapshot_vars(I, f, vars);
    exec_block(I, f, s.body);
    VarSnapshot after_then = snapshot_vars(I, f, vars);
    restore_vars(I, f, vars, before);
    exec_block(I, f, s.orelse);
    std::string entry;
    for (size_t k = 0; k < vars.size(); ++k) {
      Value t = after_then.values[k], e = read_var(I, f, vars[k]);
      entry += vars[k].name->s + "=" + (t ? repr_string(I, t) : "<unbound>") + "|" +
               (e ? repr_string(I, e) : "<unbound>") + " ";
    }
    entry += s.body_summary.may_return ? "then-may-return" : "";
    log.push_back(entry);
    return Exit::Normal;
  }
  Exit on_while(Interp& I, Frame& f, const WhileStmt& s, const Value& cond) override {
    log.push_back("while");
    return Exit::Normal;
  }
  Value on_ifexp(Interp& I, Frame& f, const IfExpExpr& e, const Value& cond) override {
    log.push_back("ifexp");
    return I.str("merged");
  }
  Value on_boolop(Interp& I, Frame& f, const BoolOpExpr& e, size_t index, const Value& value) override {
    log.push_back("boolop " + std::to_string(index));
    return I.str("merged-bool");
  }
};

TEST(ControlFlow, HookSeesBothBranchesAndTheirAssignedLocals) {
  Interp I;
  BothBranches hook;
  I.control_flow_hook = &hook;
  Ref<Dict> g;
  std::unique_ptr<CodeUnit> unit = run_with_sym(I,
                                                "def f(s):\n"
                                                "    y = 0\n"
                                                "    if s:\n"
                                                "        y = 1\n"
                                                "        z = 'then'\n"
                                                "    else:\n"
                                                "        y = 2\n"
                                                "    while s:\n"
                                                "        pass\n"
                                                "    return y, (1 if s else 2), (3 and s and 4)\n"
                                                "r = f(s)\n",
                                                g);
  ASSERT_EQ(hook.log.size(), 4u);
  EXPECT_EQ(hook.log[0], "y=1|2 z='then'|<unbound> y=1|2 ");
  EXPECT_EQ(hook.log[1], "while");
  EXPECT_EQ(hook.log[2], "ifexp");
  EXPECT_EQ(hook.log[3], "boolop 1");
  EXPECT_EQ(repr_string(I, dict_get(I, g.get(), "r")), "(2, 'merged', 'merged-bool')");
  I.keep(std::move(unit));
}

}  // namespace
}  // namespace onnxify::eval
