// Folding kernels for reductions along axes: ReduceSum/Prod/Min/Max/Mean and the norms and log-sums
// (ReduceL1/L2/SumSquare/LogSum/LogSumExp; axes from the attribute in older opsets or the second input
// in newer ones, keepdims, noop_with_empty_axes), Softmax/LogSoftmax, CumSum, ArgMax/ArgMin, TopK and
// Unique.
#include <algorithm>
#include <cmath>

#include "passes/kernels/array.h"
#include "passes/kernels/kernels.h"

namespace onnxify::passes::kernels {

using ir::AttrKind;
using ir::Node;
using ir::Tensor;
using Out = std::optional<std::vector<Tensor>>;

Out k_reduce(const Node& node, const std::vector<const Tensor*>& in, const Limits&) {
  if (in.empty() || !in[0]) return std::nullopt;
  auto x = load(*in[0]);
  if (!x) return std::nullopt;
  std::vector<int64_t> axes;
  if (const auto* a = node.attr("axes"); a && a->kind() == AttrKind::Ints) {
    axes = a->ints();
  } else if (in.size() > 1 && in[1]) {
    auto v = int_values(in[1]);
    if (!v) return std::nullopt;
    axes = *v;
  } else if (node.num_inputs() > 1 && node.input(1)) {
    return std::nullopt;  // axes given but not constant
  }
  bool keep = node.attr_int("keepdims", 1) != 0;
  int64_t r = static_cast<int64_t>(x->shape.size());
  std::vector<bool> reduce(x->shape.size(), false);
  if (axes.empty()) {
    if (node.attr_int("noop_with_empty_axes", 0)) return std::vector<Tensor>{*in[0]};
    reduce.assign(x->shape.size(), true);
  }
  for (int64_t a : axes) {
    auto n = norm_axis(a, r);
    if (!n) return std::nullopt;
    reduce[static_cast<size_t>(*n)] = true;
  }
  std::vector<int64_t> out_shape, kept_shape;  // kept_shape: reduced axes as 1 (for indexing)
  for (size_t k = 0; k < x->shape.size(); ++k) {
    kept_shape.push_back(reduce[k] ? 1 : x->shape[k]);
    if (!reduce[k] || keep) out_shape.push_back(reduce[k] ? 1 : x->shape[k]);
  }
  const std::string& op = node.op_type();
  int64_t n_out = product(kept_shape), n_in = x->numel();
  int64_t per = n_out == 0 ? 0 : n_in / n_out;
  if (per == 0 && (op == "ReduceMin" || op == "ReduceMax" || op == "ReduceMean")) return std::nullopt;
  // The norms and log-sums: a sum of each element's term, then a last step (floats only).
  const bool summed = op == "ReduceL1" || op == "ReduceL2" || op == "ReduceSumSquare" || op == "ReduceLogSum" ||
                      op == "ReduceLogSumExp";
  if (summed && (!x->is_float() || (per == 0 && (op == "ReduceLogSum" || op == "ReduceLogSumExp"))))
    return std::nullopt;
  // For each input element, the output element it reduces into.
  std::vector<int64_t> target(static_cast<size_t>(n_in));
  {
    std::vector<int64_t> counter(x->shape.size(), 0), ostride(x->shape.size(), 0);
    int64_t s = 1;
    for (size_t k = kept_shape.size(); k-- > 0;) {
      ostride[k] = reduce[k] ? 0 : s;
      s *= kept_shape[k];
    }
    for (int64_t e = 0; e < n_in; ++e) {
      int64_t flat = 0;
      for (size_t k = 0; k < counter.size(); ++k) flat += counter[k] * ostride[k];
      target[static_cast<size_t>(e)] = flat;
      for (size_t k = counter.size(); k-- > 0;) {
        if (++counter[k] < x->shape[k]) break;
        counter[k] = 0;
      }
    }
  }
  Array out = make(x->dtype, out_shape);
  std::vector<bool> seen(static_cast<size_t>(n_out), false);
  for (int64_t e = 0; e < n_in; ++e) {
    size_t o = static_cast<size_t>(target[static_cast<size_t>(e)]);
    size_t i = static_cast<size_t>(e);
    bool first = !seen[o];
    seen[o] = true;
    if (x->is_float()) {
      double v = x->f[i], &acc = out.f[o];
      if (summed) {
        double term = op == "ReduceL1" ? std::fabs(v) : op == "ReduceLogSumExp" ? std::exp(v)
                      : op == "ReduceLogSum"                                    ? v
                                                                                : v * v;
        acc = first ? term : acc + term;
      } else if (op == "ReduceSum" || op == "ReduceMean")
        acc = first ? v : acc + v;
      else if (op == "ReduceProd")
        acc = first ? v : acc * v;
      else if (op == "ReduceMin")
        acc = first || v < acc || std::isnan(v) ? v : acc;
      else
        acc = first || v > acc || std::isnan(v) ? v : acc;
    } else {
      int64_t v = x->i[i], &acc = out.i[o];
      auto u = [](int64_t z) { return static_cast<uint64_t>(z); };
      if (op == "ReduceSum" || op == "ReduceMean")
        acc = first ? v : static_cast<int64_t>(u(acc) + u(v));
      else if (op == "ReduceProd")
        acc = first ? v : static_cast<int64_t>(u(acc) * u(v));
      else if (op == "ReduceMin")
        acc = first || v < acc ? v : acc;
      else
        acc = first || v > acc ? v : acc;
    }
  }
  if (per == 0 && op == "ReduceProd") {
    for (double& v : out.f) v = 1;
    for (int64_t& v : out.i) v = 1;
  }
  if (op == "ReduceMean") {
    for (double& v : out.f) v /= static_cast<double>(per);
    for (int64_t& v : out.i) v /= per;
  }
  if (op == "ReduceL2")
    for (double& v : out.f) v = std::sqrt(v);
  if (op == "ReduceLogSum" || op == "ReduceLogSumExp")
    for (double& v : out.f) v = std::log(v);
  return std::vector<Tensor>{store(out)};
}

// Softmax / LogSoftmax along `axis` (opset 13: one axis, default -1), shifted by the maximum as
// PyTorch computes them.
Out k_softmax(const Node& node, const std::vector<const Tensor*>& in, const Limits&) {
  if (in.empty() || !in[0]) return std::nullopt;
  auto x = load(*in[0]);
  if (!x || !x->is_float() || x->shape.empty()) return std::nullopt;
  auto axis = norm_axis(node.attr_int("axis", -1), static_cast<int64_t>(x->shape.size()));
  if (!axis) return std::nullopt;
  size_t a = static_cast<size_t>(*axis);
  int64_t dim = x->shape[a], outer = 1, inner = 1;
  for (size_t d = 0; d < a; ++d) outer *= x->shape[d];
  for (size_t d = a + 1; d < x->shape.size(); ++d) inner *= x->shape[d];
  const bool log = node.op_type() == "LogSoftmax";
  for (int64_t o = 0; o < outer; ++o)
    for (int64_t e = 0; e < inner; ++e) {
      auto at = [&](int64_t s) -> double& { return x->f[static_cast<size_t>((o * dim + s) * inner + e)]; };
      double m = -INFINITY, sum = 0;
      for (int64_t s = 0; s < dim; ++s) m = std::max(m, at(s));
      for (int64_t s = 0; s < dim; ++s) sum += std::exp(at(s) - m);
      for (int64_t s = 0; s < dim; ++s) at(s) = log ? at(s) - m - std::log(sum) : std::exp(at(s) - m) / sum;
    }
  return std::vector<Tensor>{store(*x)};
}

// CumSum along the axis input, with exclusive and reverse. Float sums accumulate in double, as
// PyTorch's CPU cumsum does for float32 (its accumulation type), and are rounded once per element.
Out k_cumsum(const Node& node, const std::vector<const Tensor*>& in, const Limits&) {
  if (in.size() < 2 || !in[0] || !in[1]) return std::nullopt;
  auto x = load(*in[0]);
  auto ax = int_values(in[1]);
  if (!x || !ax || ax->size() != 1 || x->dtype == ir::ElementType::Bool) return std::nullopt;
  int64_t r = static_cast<int64_t>(x->shape.size());
  auto axis = norm_axis((*ax)[0], r);
  if (!axis) return std::nullopt;
  bool exclusive = node.attr_int("exclusive", 0) != 0, reverse = node.attr_int("reverse", 0) != 0;
  size_t a = static_cast<size_t>(*axis);
  int64_t dim = x->shape[a], outer = 1, inner = 1;
  for (size_t k = 0; k < a; ++k) outer *= x->shape[k];
  for (size_t k = a + 1; k < x->shape.size(); ++k) inner *= x->shape[k];
  Array out = make(x->dtype, x->shape);
  for (int64_t o = 0; o < outer; ++o)
    for (int64_t e = 0; e < inner; ++e) {
      double fs = 0;
      int64_t is = 0;
      for (int64_t s = 0; s < dim; ++s) {
        int64_t i = reverse ? dim - 1 - s : s;
        size_t p = static_cast<size_t>((o * dim + i) * inner + e);
        if (x->is_float()) {
          if (exclusive) out.f[p] = fs;
          fs += x->f[p];
          if (!exclusive) out.f[p] = fs;
        } else {
          if (exclusive) out.i[p] = is;
          is = static_cast<int64_t>(static_cast<uint64_t>(is) + static_cast<uint64_t>(x->i[p]));
          if (!exclusive) out.i[p] = is;
        }
      }
    }
  return std::vector<Tensor>{store(out)};
}

// ArgMax / ArgMin along `axis` (keepdims, select_last_index). NaN counts as the largest and the
// smallest value (PyTorch's argmax/argmin pick the first NaN).
Out k_arg_reduce(const Node& node, const std::vector<const Tensor*>& in, const Limits&) {
  if (in.empty() || !in[0]) return std::nullopt;
  auto x = load(*in[0]);
  if (!x || x->shape.empty()) return std::nullopt;
  int64_t r = static_cast<int64_t>(x->shape.size());
  auto axis = norm_axis(node.attr_int("axis", 0), r);
  if (!axis) return std::nullopt;
  bool keep = node.attr_int("keepdims", 1) != 0, last = node.attr_int("select_last_index", 0) != 0;
  bool is_max = node.op_type() == "ArgMax";
  size_t a = static_cast<size_t>(*axis);
  int64_t dim = x->shape[a], outer = 1, inner = 1;
  if (dim == 0) return std::nullopt;
  for (size_t k = 0; k < a; ++k) outer *= x->shape[k];
  for (size_t k = a + 1; k < x->shape.size(); ++k) inner *= x->shape[k];
  std::vector<int64_t> shape = x->shape;
  if (keep)
    shape[a] = 1;
  else
    shape.erase(shape.begin() + static_cast<ptrdiff_t>(a));
  Array out = make(ir::ElementType::Int64, shape);
  // true when value p should replace the best so far, q
  auto better = [&](size_t p, size_t q) {
    if (x->is_float()) {
      double u = x->f[p], w = x->f[q];
      if (std::isnan(w)) return last && std::isnan(u);
      if (std::isnan(u)) return true;
      return is_max ? (u > w || (last && u == w)) : (u < w || (last && u == w));
    }
    int64_t u = x->i[p], w = x->i[q];
    return is_max ? (u > w || (last && u == w)) : (u < w || (last && u == w));
  };
  for (int64_t o = 0; o < outer; ++o)
    for (int64_t e = 0; e < inner; ++e) {
      int64_t best = 0;
      for (int64_t s = 1; s < dim; ++s)
        if (better(static_cast<size_t>((o * dim + s) * inner + e), static_cast<size_t>((o * dim + best) * inner + e)))
          best = s;
      out.i[static_cast<size_t>(o * inner + e)] = best;
    }
  return std::vector<Tensor>{store(out)};
}

// TopK along `axis` (largest, sorted): the k first values of each line in order, and their
// indices. Equal values keep their index order (ONNX's tie rule, and PyTorch's stable sort); NaN
// orders above every number, as PyTorch's sort and topk order it. `sorted=0` leaves the order to
// the implementation, so the sorted order is a valid answer there too.
Out k_topk(const Node& node, const std::vector<const Tensor*>& in, const Limits&) {
  if (in.size() < 2 || !in[0] || !in[1]) return std::nullopt;
  auto x = load(*in[0]);
  auto kv = int_values(in[1]);
  if (!x || !kv || kv->size() != 1 || x->shape.empty() || x->dtype == ir::ElementType::Bool) return std::nullopt;
  auto axis = norm_axis(node.attr_int("axis", -1), static_cast<int64_t>(x->shape.size()));
  if (!axis) return std::nullopt;
  size_t a = static_cast<size_t>(*axis);
  int64_t dim = x->shape[a], k = (*kv)[0], outer = 1, inner = 1;
  if (k < 0 || k > dim) return std::nullopt;
  for (size_t d = 0; d < a; ++d) outer *= x->shape[d];
  for (size_t d = a + 1; d < x->shape.size(); ++d) inner *= x->shape[d];
  bool largest = node.attr_int("largest", 1) != 0;
  std::vector<int64_t> shape = x->shape;
  shape[a] = k;
  Array values = make(x->dtype, shape), indices = make(ir::ElementType::Int64, shape);
  // true when element p (flat) goes before element q in the result
  auto before = [&](size_t p, size_t q) {
    if (x->is_float()) {
      double u = x->f[p], w = x->f[q];
      bool un = std::isnan(u), wn = std::isnan(w);
      if (un || wn) return un != wn && (largest ? un : wn);
      return largest ? u > w : u < w;
    }
    return largest ? x->i[p] > x->i[q] : x->i[p] < x->i[q];
  };
  std::vector<int64_t> order(static_cast<size_t>(dim));
  for (int64_t o = 0; o < outer; ++o)
    for (int64_t e = 0; e < inner; ++e) {
      auto flat = [&](int64_t s) { return static_cast<size_t>((o * dim + s) * inner + e); };
      for (int64_t s = 0; s < dim; ++s) order[static_cast<size_t>(s)] = s;
      std::stable_sort(order.begin(), order.end(), [&](int64_t p, int64_t q) { return before(flat(p), flat(q)); });
      for (int64_t s = 0; s < k; ++s) {
        size_t dst = static_cast<size_t>((o * k + s) * inner + e), src = flat(order[static_cast<size_t>(s)]);
        if (x->is_float())
          values.f[dst] = x->f[src];
        else
          values.i[dst] = x->i[src];
        indices.i[dst] = order[static_cast<size_t>(s)];
      }
    }
  return std::vector<Tensor>{store(values), store(indices)};
}

}  // namespace onnxify::passes::kernels

namespace onnxify::passes::kernels {

// ONNX Unique: the distinct values of the flattened input (no axis) or the distinct slices along
// `axis`, in ascending order when sorted (slices compared element by element; NaN after every
// number and all NaNs one value, as torch.unique gives them), else in the order of first
// occurrence; with the first index of each, the inverse indices and the counts.
std::optional<std::vector<Tensor>> unique_values(const Tensor& t, std::optional<int64_t> axis_attr, bool sorted) {
  auto x = load(t);
  if (!x || x->dtype == ir::ElementType::Bool) return std::nullopt;
  std::vector<int64_t> shape = axis_attr ? x->shape : std::vector<int64_t>{x->numel()};
  size_t a = 0;
  if (axis_attr) {
    auto axis = norm_axis(*axis_attr, static_cast<int64_t>(shape.size()));
    if (!axis) return std::nullopt;
    a = static_cast<size_t>(*axis);
  }
  int64_t dim = shape[a], outer = 1, inner = 1;
  for (size_t d = 0; d < a; ++d) outer *= shape[d];
  for (size_t d = a + 1; d < shape.size(); ++d) inner *= shape[d];
  auto at = [&](int64_t s, int64_t o, int64_t e) { return static_cast<size_t>((o * dim + s) * inner + e); };
  // -1, 0, 1: slice p against slice q
  auto compare = [&](int64_t p, int64_t q) {
    for (int64_t o = 0; o < outer; ++o)
      for (int64_t e = 0; e < inner; ++e) {
        size_t i = at(p, o, e), j = at(q, o, e);
        if (x->is_float()) {
          double u = x->f[i], w = x->f[j];
          bool un = std::isnan(u), wn = std::isnan(w);
          if (un || wn) {
            if (un != wn) return un ? 1 : -1;
            continue;
          }
          if (u != w) return u < w ? -1 : 1;
        } else if (x->i[i] != x->i[j]) {
          return x->i[i] < x->i[j] ? -1 : 1;
        }
      }
    return 0;
  };
  std::vector<int64_t> order(static_cast<size_t>(dim));
  for (int64_t s = 0; s < dim; ++s) order[static_cast<size_t>(s)] = s;
  if (sorted) std::stable_sort(order.begin(), order.end(), [&](int64_t p, int64_t q) { return compare(p, q) < 0; });
  // Groups of equal slices (adjacent once sorted); a group's first index is its smallest, by stability.
  std::vector<int64_t> first, counts, inverse(static_cast<size_t>(dim));
  for (int64_t s : order) {
    size_t g = first.size();
    if (sorted) {
      if (!first.empty() && compare(first.back(), s) == 0) g = first.size() - 1;
    } else {
      for (size_t k = 0; k < first.size() && g == first.size(); ++k)
        if (compare(first[k], s) == 0) g = k;
    }
    if (g == first.size()) {
      first.push_back(s);
      counts.push_back(0);
    }
    ++counts[g];
    inverse[static_cast<size_t>(s)] = static_cast<int64_t>(g);
  }
  int64_t u = static_cast<int64_t>(first.size());
  std::vector<int64_t> y_shape = shape;
  y_shape[a] = u;
  Array y = make(x->dtype, y_shape);
  for (int64_t k = 0; k < u; ++k)
    for (int64_t o = 0; o < outer; ++o)
      for (int64_t e = 0; e < inner; ++e) {
        size_t dst = static_cast<size_t>((o * u + k) * inner + e), src = at(first[static_cast<size_t>(k)], o, e);
        if (x->is_float())
          y.f[dst] = x->f[src];
        else
          y.i[dst] = x->i[src];
      }
  auto ints = [](const std::vector<int64_t>& v) {
    Array r = make(ir::ElementType::Int64, {static_cast<int64_t>(v.size())});
    r.i = v;
    return store(r);
  };
  return std::vector<Tensor>{store(y), ints(first), ints(inverse), ints(counts)};
}

Out k_unique(const Node& node, const std::vector<const Tensor*>& in, const Limits&) {
  if (in.empty() || !in[0]) return std::nullopt;
  std::optional<int64_t> axis;
  if (node.attr("axis")) axis = node.attr_int("axis", 0);
  return unique_values(*in[0], axis, node.attr_int("sorted", 1) != 0);
}

}  // namespace onnxify::passes::kernels
