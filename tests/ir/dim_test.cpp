// DimExpr: canonical simplification, printing/parsing, evaluation.
//
// The oracle for simplification is integer arithmetic itself: a randomized test builds expression
// trees, evaluates each tree directly with Python's floor semantics (without simplifying), and
// checks that the simplified DimExpr evaluates to the same value for many bindings, and that its
// printed form parses back to the same node.
#include "ir/dim.h"

#include <gtest/gtest.h>

#include <functional>
#include <random>

namespace onnxify::ir {
namespace {

DimExpr S(const char* n) { return DimExpr::symbol(n); }
std::string str(DimExpr d) { return d.str(); }

TEST(Dim, ConstantsAndSymbols) {
  EXPECT_EQ(str(DimExpr(3) + 4), "7");
  EXPECT_EQ(str(S("N")), "N");
  EXPECT_TRUE((S("N") + 0) == S("N"));
  EXPECT_TRUE((S("N") * 1) == S("N"));
  EXPECT_TRUE((S("N") * 0) == DimExpr(0));
  EXPECT_TRUE(S("N") == S("N"));
  EXPECT_FALSE(S("N") == S("M"));
}

TEST(Dim, SumsOfProducts) {
  DimExpr N = S("N"), C = S("C"), H = S("H");
  EXPECT_EQ(str(N * C + 0), "C*N");
  EXPECT_TRUE(N * C == C * N);
  EXPECT_EQ(str((N + 1) * (N - 1)), "N*N - 1");
  EXPECT_EQ(str(H + 2 * 3 - 7), "H - 1");
  EXPECT_EQ(str(N - N), "0");
  EXPECT_EQ(str(2 * N + 3 * N), "5*N");
  EXPECT_EQ(str(-N + 3), "-N + 3");
  EXPECT_TRUE((N + C) * H == N * H + C * H);
}

TEST(Dim, FloorDivision) {
  DimExpr N = S("N"), H = S("H"), C = S("C");
  EXPECT_EQ(str(floor_div(N * 2, 2)), "N");
  EXPECT_EQ(str(floor_div(2 * N + 5, 2)), "N + 2");
  EXPECT_EQ(str(floor_div(H - 1, 2) + 1), "floor((H + 1) / 2)");  // conv k=3 s=2 p=1
  EXPECT_EQ(str(floor_div(2 * H + 2, 4)), "floor((H + 1) / 2)");
  EXPECT_EQ(str(floor_div(floor_div(N, 2), 3)), "floor(N / 6)");
  EXPECT_EQ(str(floor_div(N * C * H, N)), "C*H");
  EXPECT_EQ(str(floor_div(N * C + 1, C)), "N + floor(1 / C)");
  EXPECT_EQ(str(floor_div(N, C)), "floor(N / C)");
  EXPECT_EQ(str(floor_div(N, -2)), "floor(-N / 2)");
  EXPECT_EQ(str(floor_div(7, -2)), "-4");
  EXPECT_TRUE(floor_div(N, 0).is_unknown());
}

TEST(Dim, CeilModMinMax) {
  DimExpr N = S("N"), M = S("M");
  EXPECT_EQ(str(ceil_div(N, 2)), "floor((N + 1) / 2)");
  EXPECT_TRUE(ceil_div(N, 2) == floor_div(N + 1, 2));
  EXPECT_EQ(str(ceil_div(N, M)), "ceil(N / M)");
  EXPECT_EQ(str(mod(N + 4, 4)), "mod(N, 4)");
  EXPECT_EQ(str(mod(2 * N, 4)), "2*mod(N, 2)");
  EXPECT_EQ(str(mod(4 * N + 8, 4)), "0");
  EXPECT_EQ(str(mod(-7, 3)), "2");
  EXPECT_EQ(str(max(N, N + 1)), "N + 1");
  EXPECT_EQ(str(min(N, N + 1)), "N");
  EXPECT_EQ(str(max(M, N)), "max(M, N)");
  EXPECT_TRUE(max(M, N) == max(N, M));
  EXPECT_EQ(str(max(max(M, N), M)), "max(M, N)");
  EXPECT_EQ(str(min(3, 5)), "3");
}

// Sizes made from earlier sizes (window padding: pad = mod(-H, w), then H + pad, pooled, padded
// again) share subexpressions, so the printed tree of a DAG can grow exponentially with depth.
DimExpr deep_dag(int depth) {
  DimExpr H = S("H"), W = S("W");
  for (int i = 0; i < depth; ++i) {
    DimExpr h = max(H, floor_div(W + 3, 2)), w = min(W, floor_div(H + 1, 3) + 1);
    H = h;
    W = w;
  }
  return max(H, W);
}

TEST(Dim, TextOfADeepExpressionIsCutNotExponential) {
  DimExpr e = deep_dag(60);  // printed in full: about 2^60 characters
  EXPECT_EQ(e.str(256), std::nullopt);
  std::string text = e.str();
  EXPECT_LE(text.size(), 4096u + 3);
  EXPECT_EQ(text.substr(text.size() - 3), "...");
  EXPECT_EQ(text.substr(0, 4), "max(");
  // Short expressions print in full and parse back.
  DimExpr small = deep_dag(1);
  ASSERT_TRUE(small.str(256).has_value());
  EXPECT_EQ(*small.str(256), small.str());
  EXPECT_TRUE(DimExpr::parse(small.str()) == small);
}

TEST(Dim, UnknownPropagates) {
  DimExpr u = DimExpr::unknown();
  EXPECT_TRUE((u + 1).is_unknown());
  EXPECT_TRUE((S("N") * u).is_unknown());
  EXPECT_TRUE(floor_div(u, 2).is_unknown());
  EXPECT_FALSE(u.provably_equal(u));
  EXPECT_EQ(str(u), "?");
}

TEST(Dim, OverflowIsUnknown) {
  DimExpr big(INT64_MAX);
  EXPECT_TRUE((big + 1).is_unknown());
  EXPECT_TRUE((S("N") * big * 2).is_unknown());
}

TEST(Dim, Eval) {
  DimBinding b{{"N", 5}, {"H", 224}};
  EXPECT_EQ(floor_div(S("H") - 1, 2).eval(b), 111);
  EXPECT_EQ(mod(-S("N"), 3).eval(b), 1);  // Python: -5 % 3 == 1
  EXPECT_EQ(ceil_div(S("H"), S("N")).eval(b), 45);
  EXPECT_EQ(S("M").eval(b), std::nullopt);
  EXPECT_EQ(floor_div(S("H"), S("N") - 5).eval(b), std::nullopt);
}

TEST(Dim, ParseErrors) {
  std::string err;
  EXPECT_FALSE(DimExpr::parse("N +", &err));
  EXPECT_EQ(err, "column 4: expected a dimension, found the end");
  EXPECT_FALSE(DimExpr::parse("sqrt(N)", &err));
  EXPECT_EQ(err, "column 1: unknown function 'sqrt' in a dimension (expected floor, ceil, mod, min, max)");
  EXPECT_FALSE(DimExpr::parse("floor(N + 1 / 2)", &err));
  EXPECT_EQ(err, "column 9: expected '/'");
  EXPECT_FALSE(DimExpr::parse("99999999999999999999", &err));
  EXPECT_FALSE(DimExpr::parse(std::string(1000, '(') + "N" + std::string(1000, ')'), &err));
  EXPECT_NE(err.find("nested too deeply"), std::string::npos);
}

TEST(Dim, Substitute) {
  DimExpr e = floor_div(S("H") + 2 * S("p") - 3, 2) + 1;
  DimExpr r = e.substitute([](std::string_view n) -> std::optional<DimExpr> {
    if (n == "p") return DimExpr(1);
    return std::nullopt;
  });
  EXPECT_EQ(str(r), "floor((H + 1) / 2)");
  EXPECT_EQ(str(e), "p + floor((H + 1) / 2) - 1");
  EXPECT_EQ(e.symbols(), (std::vector<std::string>{"p", "H"}));
}

// ------------------------------------------------------------------------------------------------
// Randomized: simplified == direct evaluation, and print/parse round-trips.

struct Ref {
  DimExpr expr;
  std::function<std::optional<int64_t>(const DimBinding&)> eval;
};

int64_t pfloordiv(int64_t a, int64_t b) { return floor_div(a, b); }
int64_t pmod(int64_t a, int64_t b) { return floor_mod(a, b); }

Ref random_expr(std::mt19937& rng, int depth) {
  std::uniform_int_distribution<int> pick(0, depth <= 0 ? 1 : 9);
  const char* syms[] = {"N", "H", "W", "k"};
  switch (pick(rng)) {
    case 0: {
      int64_t c = std::uniform_int_distribution<int64_t>(-6, 9)(rng);
      return {DimExpr(c), [c](const DimBinding&) { return std::optional<int64_t>(c); }};
    }
    case 1: {
      std::string s = syms[std::uniform_int_distribution<int>(0, 3)(rng)];
      return {DimExpr::symbol(s), [s](const DimBinding& b) { return std::optional<int64_t>(b.at(s)); }};
    }
    default:
      break;
  }
  Ref a = random_expr(rng, depth - 1), b = random_expr(rng, depth - 1);
  int op = std::uniform_int_distribution<int>(0, 7)(rng);
  // Divisors are kept as small nonzero constants or symbols (bindings make symbols nonzero).
  if (op >= 3 && op <= 5 && std::uniform_int_distribution<int>(0, 2)(rng) > 0) {
    int64_t c = std::uniform_int_distribution<int64_t>(1, 5)(rng) *
                (std::uniform_int_distribution<int>(0, 4)(rng) ? 1 : -1);
    b = {DimExpr(c), [c](const DimBinding&) { return std::optional<int64_t>(c); }};
  } else if (op >= 3 && op <= 5) {
    std::string s = syms[std::uniform_int_distribution<int>(0, 3)(rng)];
    b = {DimExpr::symbol(s), [s](const DimBinding& bb) { return std::optional<int64_t>(bb.at(s)); }};
  }
  auto fa = a.eval, fb = b.eval;
  auto both = [fa, fb](auto f) {
    return [fa, fb, f](const DimBinding& bd) -> std::optional<int64_t> {
      auto x = fa(bd), y = fb(bd);
      if (!x || !y) return std::nullopt;
      return f(*x, *y);
    };
  };
  switch (op) {
    case 0:
      return {a.expr + b.expr, both([](int64_t x, int64_t y) { return x + y; })};
    case 1:
      return {a.expr - b.expr, both([](int64_t x, int64_t y) { return x - y; })};
    case 2:
      return {a.expr * b.expr, both([](int64_t x, int64_t y) { return x * y; })};
    case 3:
      return {floor_div(a.expr, b.expr), both(pfloordiv)};
    case 4:
      return {ceil_div(a.expr, b.expr), both([](int64_t x, int64_t y) { return -pfloordiv(-x, y); })};
    case 5:
      return {mod(a.expr, b.expr), both(pmod)};
    case 6:
      return {min(a.expr, b.expr), both([](int64_t x, int64_t y) { return std::min(x, y); })};
    default:
      return {max(a.expr, b.expr), both([](int64_t x, int64_t y) { return std::max(x, y); })};
  }
}

TEST(Dim, RandomizedAgainstDirectEvaluation) {
  std::mt19937 rng(12345);
  int checked = 0;
  for (int iter = 0; iter < 4000; ++iter) {
    Ref r = random_expr(rng, 4);
    // Round trip through text.
    std::string err;
    auto back = DimExpr::parse(r.expr.str(), &err);
    ASSERT_TRUE(back) << r.expr.str() << ": " << err;
    ASSERT_TRUE(*back == r.expr) << r.expr.str() << " reparsed as " << back->str();
    for (int k = 0; k < 8; ++k) {
      DimBinding b;
      for (const char* s : {"N", "H", "W", "k"}) {
        int64_t v = std::uniform_int_distribution<int64_t>(-20, 40)(rng);
        b[s] = v == 0 ? 1 : v;
      }
      auto want = r.eval(b);
      auto got = r.expr.eval(b);
      ASSERT_TRUE(want.has_value());
      ASSERT_TRUE(got.has_value()) << r.expr.str();
      ASSERT_EQ(*got, *want) << r.expr.str();
      ++checked;
    }
  }
  EXPECT_EQ(checked, 4000 * 8);
}

}  // namespace
}  // namespace onnxify::ir
