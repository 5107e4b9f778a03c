// DimExpr: the one symbolic-shape algebra of the project (DESIGN.md decision 4).
//
// A dimension is an integer, a named symbol (`N`), an expression over them, or unknown (`?`, a
// data-dependent size nobody named). Expressions are immutable, hash-consed nodes: building the
// same expression twice yields the same node, so equality and hashing are pointer operations and a
// DimExpr is one pointer wide. Every constructor simplifies to a canonical form:
//
//   * sums of products: constant + sum of coefficient * monomial, terms merged and sorted;
//     products are expanded (`(a + b) * c` = `a*c + b*c`), so `N*C + 0` = `C*N`;
//   * floor(a / k) for a constant k > 0 pulls out the part of `a` divisible by k
//     (`floor((2*N + 5) / 2)` = `N + 2`, `floor((N*2) / 2)` = `N`), keeps the remainder's
//     constant in [0, k) and divides out a common factor (`floor((2*H + 2) / 4)` = `floor((H + 1) / 2)`);
//     nested floors merge (`floor(floor(a / 2) / 3)` = `floor(a / 6)`);
//   * ceil(a / k) for a constant k > 0 is floor((a + k - 1) / k); both divisions by a monomial
//     divide exactly when they can (`floor(N*C*H / N)` = `C*H`);
//   * mod(a, k) drops multiples of k; min/max flatten, drop duplicates and arguments dominated by a
//     constant difference (`max(N, N + 1)` = `N + 1`), and fold constants.
//
// Semantics are Python's: floor division and modulo round toward negative infinity (`mod` takes the
// divisor's sign), as torch's shape arithmetic does. Symbols range over all integers, so only
// identities true for every integer are applied. Anything combined with unknown is unknown; int64
// overflow while simplifying also yields unknown (no real shape gets there).
//
// Text form (print/parse round-trip exactly; also the ONNX dim_param of an expression):
//   expr  := term (('+' | '-') term)*
//   term  := unary ('*' unary)*
//   unary := '-' unary | atom
//   atom  := INT | NAME | '?' | '(' expr ')'
//          | ('floor' | 'ceil') '(' term '/' term ')'
//          | ('mod' | 'min' | 'max') '(' expr (',' expr)+ ')'      (mod takes exactly two)
// e.g. `floor((H + 1) / 2)`, `C*H*W`, `max(N, 1)`, `-N + 3`.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace onnxify::ir {

struct DimNode;

enum class DimOp : uint8_t { Const, Symbol, Product, FloorDiv, CeilDiv, Mod, Min, Max, Sum, Unknown };

// Values of symbols for evaluation.
using DimBinding = std::unordered_map<std::string, int64_t>;

class DimExpr {
 public:
  DimExpr();               // the constant 0
  DimExpr(int64_t value);  // NOLINT: a constant converts implicitly, as in `x * 2 + 1`
  DimExpr(int value) : DimExpr(static_cast<int64_t>(value)) {}  // NOLINT
  static DimExpr symbol(std::string_view name);
  static DimExpr unknown();

  DimOp op() const;
  bool is_const() const { return op() == DimOp::Const; }
  bool is_symbol() const { return op() == DimOp::Symbol; }
  bool is_unknown() const { return op() == DimOp::Unknown; }
  // The value of a constant; only valid when is_const().
  int64_t value() const;
  // The name of a symbol; "" otherwise.
  std::string_view name() const;
  // True when the expression mentions unknown nowhere (then eval() succeeds given all symbols).
  bool is_known() const { return !is_unknown(); }

  // Structural equality (pointer equality of the hash-consed nodes). Two unknowns compare equal
  // structurally; use provably_equal() when asking whether two sizes are the same at run time.
  friend bool operator==(DimExpr a, DimExpr b) { return a.node_ == b.node_; }
  friend bool operator!=(DimExpr a, DimExpr b) { return a.node_ != b.node_; }
  bool provably_equal(DimExpr other) const { return *this == other && !is_unknown(); }
  size_t hash() const;
  // A deterministic total order (used to sort terms; also handy for std::map keys).
  static int compare(DimExpr a, DimExpr b);

  friend DimExpr operator+(DimExpr a, DimExpr b);
  friend DimExpr operator-(DimExpr a, DimExpr b);
  friend DimExpr operator*(DimExpr a, DimExpr b);
  friend DimExpr operator-(DimExpr a);
  DimExpr& operator+=(DimExpr b) { return *this = *this + b; }
  DimExpr& operator-=(DimExpr b) { return *this = *this - b; }
  DimExpr& operator*=(DimExpr b) { return *this = *this * b; }

  // Evaluates under `binding`; nullopt when a symbol is unbound, the expression is unknown, a
  // division by zero happens, or int64 overflows.
  std::optional<int64_t> eval(const DimBinding& binding) const;
  // Replaces symbols for which `f` returns a value, re-simplifying.
  DimExpr substitute(const std::function<std::optional<DimExpr>(std::string_view)>& f) const;
  // The symbol names, each once, in order of first appearance in the printed form.
  std::vector<std::string> symbols() const;

  std::string str() const;  // cut to a few KiB ending in "..." when longer
  // The text when it is at most max_chars long, else nullopt (without printing the rest).
  std::optional<std::string> str(size_t max_chars) const;
  std::string str_prefix(size_t max_chars) const;
  // Parses the whole of `text`; on failure returns nullopt and sets *error (with the column).
  static std::optional<DimExpr> parse(std::string_view text, std::string* error = nullptr);
  // Parses one expression starting at text[*pos] and advances *pos past it (for the IR parser). On
  // failure *pos is the position of the error and *error the message without a position.
  static std::optional<DimExpr> parse_prefix(std::string_view text, size_t* pos, std::string* error);

  // Structure access for code that walks expressions (printers, lowering to ONNX arithmetic).
  const DimNode* node() const { return node_; }
  // Operands: Sum terms (see term_coefficient), Product factors, or the arguments of div/mod/min/max.
  size_t num_operands() const;
  DimExpr operand(size_t i) const;
  // Sum only: the coefficient of operand i, and the constant term.
  int64_t term_coefficient(size_t i) const;
  int64_t sum_constant() const;

 private:
  explicit DimExpr(const DimNode* n) : node_(n) {}
  friend struct DimAlgebra;
  const DimNode* node_;
};

DimExpr floor_div(DimExpr a, DimExpr b);
DimExpr ceil_div(DimExpr a, DimExpr b);
DimExpr mod(DimExpr a, DimExpr b);
DimExpr min(DimExpr a, DimExpr b);
DimExpr max(DimExpr a, DimExpr b);

// Python's floor division and modulo on integers (b != 0).
int64_t floor_div(int64_t a, int64_t b);
int64_t floor_mod(int64_t a, int64_t b);

}  // namespace onnxify::ir

template <>
struct std::hash<onnxify::ir::DimExpr> {
  size_t operator()(onnxify::ir::DimExpr d) const { return d.hash(); }
};
