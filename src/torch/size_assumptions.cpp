// Size assumptions (issue 29): the places where the converter decides something from a symbolic size
// that would come out differently when the size is 0 or 1 at run time, and what each says.
//
// The inventory. Each decision below either gives ONNX that is right for every value, or goes
// through assume_not_one() here, or through the If fallback of control_flow.cpp:
//   * squeeze() / squeeze(dim) of a symbolic dim: PyTorch removes it exactly when it is 1, which
//     changes the rank; an ONNX value has one rank -> assume_not_one (ops_shape.cpp).
//   * zip() of a run-time batch with iterables of known length k: the first k rows are read, so the
//     batch is assumed to have at least k -> assume_at_least (eval's zip, symbolic.assume_at_least).
//   * a Python condition on sizes (`if x.size(0) > 1`, `len(x) == 1`, `x.numel() == 0`, max/min of
//     sizes compared): decided by the declared bounds when they decide it, else both sides as an
//     ONNX If (exact); only when the arms cannot be merged (different ranks, an arm that raises)
//     the side taken by sizes >= 2 is kept, with a warning (control_flow.cpp; symint.cpp marks the
//     condition's truth under that assumption, never for a dim declared to take 0 or 1).
//   * bincount() with weights: PyTorch returns int64 zeros for an empty input whatever the weights'
//     dtype; an ONNX value has one dtype -> assume_at_least(1) (ops_derived.cpp).
//   * the inf-norm of distances (cdist, pdist, dist) over a run-time extent: 0 at size 0, as in
//     PyTorch (ReduceMax of nothing clamped; exact).
//   * a Reshape to a run-time size that can be 0 (N - 1 at batch 1, a count of selected rows), the
//     user's view/reshape or one inside an op's ONNX (roll's flatten and restore, a write through a
//     view): allowzero = 1 from opset 14, before it the one such size as -1; exact. Two such sizes
//     before opset 14 -> assume_at_least(1) (reshape_value, ops_shape.cpp).
//   * a slice bound that is a size expression of unknown sign (`x[-n:]`, `x[:k - n]`): Python counts a
//     negative bound from the end, and at n = 0 `-n` is a 0 that counts from the start; the ONNX
//     Slice follows Python at run time, but the recorded shape takes one reading -> the sign the bound
//     has when undeclared dims are at least 2, assumed (slice_bound_from_end, index.cpp). A bound
//     whose sign even those bounds leave open (a run-time value, e.g. a shift chosen under a symbolic
//     condition) is read exactly instead: both readings in one size expression (index.cpp).
//   * broadcasting, expand, view/reshape with -1, unbind/split counts, size-1 indexing: ONNX's own
//     run-time semantics (multidirectional broadcasting, Expand, Reshape with 0/-1 from Shape) or a
//     static size, exact for every value.
#include "torch/core.h"

namespace onnxify::torch {

std::optional<int64_t> declared_min(const Torch& T, const std::string& name) {
  auto it = T.declared_min.find(name);
  if (it == T.declared_min.end()) return std::nullopt;
  return it->second;
}

// The least value to declare for input dim `dim` (--dim dim=LO..) that makes `size` >= k provable
// (`N - 1 >= 1` needs N=2..), if a small one does.
static std::optional<int64_t> least_declaration(Torch& T, ir::DimExpr size, int64_t k, const std::string& dim) {
  std::optional<int64_t> saved = declared_min(T, dim);
  std::optional<int64_t> least;
  for (int64_t lo = 0; lo <= k + 64 && !least; ++lo) {
    T.declared_min[dim] = lo;
    if (std::optional<int64_t> b = size_lower_bound(T, size); b && *b >= k) least = lo;
  }
  if (saved)
    T.declared_min[dim] = *saved;
  else
    T.declared_min.erase(dim);
  return least;
}

// The one place an assumption is said: `holds` when the size is at least `k`; `assumed` says it in
// words ("N != 1").
static void assume(Torch& T, ir::DimExpr size, int64_t k, const std::string& assumed, const std::string& what,
                   const std::string& consequence) {
  if (size.is_const()) return;
  if (std::optional<int64_t> lo = size_lower_bound(T, size); lo && *lo >= k) return;
  std::vector<std::string> dims;
  for (const std::string& s : size.symbols())
    if (T.rec.is_input_dim(s)) dims.push_back(s);
  std::string named = size.str();
  SourceRange where = T.rec.location();
  // An error when the declared bounds are why it may not hold (with every undeclared dim at the
  // default 2.. it still may not): the user said those sizes are possible.
  std::optional<int64_t> by_default = size_lower_bound(T, size, 2);
  for (const std::string& d : dims) {
    std::optional<int64_t> lo = declared_min(T, d);
    if (lo && (!by_default || *by_default < k))
      throw Diagnostic::error(fmt::format("{}: {} (--dim {}={}.. allows it), and one ONNX file cannot give both "
                                          "results",
                                          what, consequence, d, *lo),
                              where)
          .with_help(fmt::format("declare --dim {}={}.. if {} is never smaller, or give the operation an explicit, "
                                 "static choice",
                                 d, least_declaration(T, size, k, d).value_or(k), d));
  }
  std::string key = fmt::format("{}:{}:{}:{}:{}", where.file ? where.file->path() : "", where.begin.line,
                                where.begin.col, named, k);
  if (!T.assumptions_said.insert(key).second) return;
  std::string declare = "give that size as a static dim";
  if (std::optional<int64_t> least = dims.size() == 1 ? least_declaration(T, size, k, dims.front()) : std::nullopt)
    declare = fmt::format("declare --dim {}={}.. if it is never smaller", dims.front(), *least);
  T.warnings.push_back(Diagnostic::warning(fmt::format("{}: the export assumes {}; {}", what, assumed, consequence),
                                           where)
                           .with_help(fmt::format("{}, or write the operation so it does not depend on it", declare)));
}

void assume_not_one(Torch& T, ir::DimExpr size, const std::string& what, const std::string& consequence) {
  // (torch.export makes the same assumption about input dims, and says it as a guard)
  assume(T, size, 2, size.str() + " != 1 (as torch.export does)", what,
         fmt::format("at {} = 1 {}", size.str(), consequence));
}

void assume_at_least(Torch& T, ir::DimExpr size, int64_t k, const std::string& what, const std::string& consequence) {
  if (k <= 0) return;
  assume(T, size, k, fmt::format("{} >= {}", size.str(), k), what,
         fmt::format("with {} < {} {}", size.str(), k, consequence));
}

std::optional<bool> slice_bound_from_end(Torch& T, ir::DimExpr b) {
  if (std::optional<int64_t> lo = size_lower_bound(T, b); lo && *lo >= 0) return false;
  if (std::optional<int64_t> lo = size_lower_bound(T, -b); lo && *lo >= 1) return true;
  std::string what = fmt::format("the slice bound {}", b.str());
  // The reading the default bounds give (every undeclared dim at least 2) is assumed and said.
  if (std::optional<int64_t> lo = size_lower_bound(T, -b, 2); lo && *lo >= 1) {
    assume_at_least(T, -b, 1, what,
                    "Python reads the bound from the start, and the exported shapes read it from the end");
    return true;
  }
  if (std::optional<int64_t> lo = size_lower_bound(T, b, 2); lo && *lo >= 0) {
    assume(T, b, 0, fmt::format("{} >= 0", b.str()), what,
           fmt::format("with {} < 0 Python reads the bound from the end, and the exported shapes read it from the "
                       "start",
                       b.str()));
    return false;
  }
  return std::nullopt;
}

}  // namespace onnxify::torch
