// Folding kernels for MatMul (numpy matmul: 1-d operands promoted and the added dim removed, batch
// dims broadcast), Gemm and Einsum. Products accumulate in double and are rounded once per element,
// so float32 results may differ from a BLAS in the last bit.
#include <map>
#include <string>

#include "passes/kernels/array.h"
#include "passes/kernels/kernels.h"

namespace onnxify::passes::kernels {

using ir::Node;
using ir::Tensor;

std::optional<std::vector<Tensor>> k_matmul(const Node&, const std::vector<const Tensor*>& in, const Limits& limits) {
  if (in.size() != 2 || !in[0] || !in[1]) return std::nullopt;
  auto a = load(*in[0]), b = load(*in[1]);
  if (!a || !b || a->dtype != b->dtype || a->shape.empty() || b->shape.empty() || a->dtype == ir::ElementType::Bool)
    return std::nullopt;
  bool a_vec = a->shape.size() == 1, b_vec = b->shape.size() == 1;
  std::vector<int64_t> as = a_vec ? std::vector<int64_t>{1, a->shape[0]} : a->shape;
  std::vector<int64_t> bs = b_vec ? std::vector<int64_t>{b->shape[0], 1} : b->shape;
  int64_t m = as[as.size() - 2], k = as.back(), k2 = bs[bs.size() - 2], n = bs.back();
  if (k != k2) return std::nullopt;
  std::vector<int64_t> abatch(as.begin(), as.end() - 2), bbatch(bs.begin(), bs.end() - 2);
  auto batch = broadcast({abatch, bbatch});
  if (!batch) return std::nullopt;
  std::vector<int64_t> shape = *batch;
  if (!a_vec) shape.push_back(m);
  if (!b_vec) shape.push_back(n);
  if (ir::storage_bytes(a->dtype, product(shape)) > limits.max_bytes) return std::nullopt;
  auto ia = broadcast_index(abatch, *batch), ib = broadcast_index(bbatch, *batch);
  Array out = make(a->dtype, shape);
  size_t o = 0;
  for (size_t p = 0; p < ia.size(); ++p) {
    int64_t abase = ia[p] * m * k, bbase = ib[p] * k * n;
    for (int64_t i = 0; i < m; ++i)
      for (int64_t j = 0; j < n; ++j, ++o) {
        if (out.is_float()) {
          double s = 0;
          for (int64_t t = 0; t < k; ++t)
            s += a->f[static_cast<size_t>(abase + i * k + t)] * b->f[static_cast<size_t>(bbase + t * n + j)];
          out.f[o] = s;
        } else {
          uint64_t s = 0;
          for (int64_t t = 0; t < k; ++t)
            s += static_cast<uint64_t>(a->i[static_cast<size_t>(abase + i * k + t)]) *
                 static_cast<uint64_t>(b->i[static_cast<size_t>(bbase + t * n + j)]);
          out.i[o] = static_cast<int64_t>(s);
        }
      }
  }
  return std::vector<Tensor>{store(out)};
}

}  // namespace onnxify::passes::kernels

namespace onnxify::passes::kernels {

// Gemm: alpha * A' B' + beta * C, A' and B' transposed per transA/transB, C broadcast to [M, N].
std::optional<std::vector<Tensor>> k_gemm(const Node& node, const std::vector<const Tensor*>& in, const Limits& limits) {
  if (in.size() < 2 || !in[0] || !in[1]) return std::nullopt;
  auto a = load(*in[0]), b = load(*in[1]);
  std::optional<Array> c;
  if (in.size() > 2 && in[2]) c = load(*in[2]);
  if (!a || !b || !a->is_float() || a->dtype != b->dtype || a->shape.size() != 2 || b->shape.size() != 2 ||
      (in.size() > 2 && in[2] && (!c || c->dtype != a->dtype)))
    return std::nullopt;
  bool ta = node.attr_int("transA", 0) != 0, tb = node.attr_int("transB", 0) != 0;
  double alpha = node.attr_float("alpha", 1.0f), beta = node.attr_float("beta", 1.0f);
  int64_t m = ta ? a->shape[1] : a->shape[0], k = ta ? a->shape[0] : a->shape[1];
  int64_t k2 = tb ? b->shape[1] : b->shape[0], n = tb ? b->shape[0] : b->shape[1];
  if (k != k2 || ir::storage_bytes(a->dtype, m * n) > limits.max_bytes) return std::nullopt;
  std::vector<int64_t> ic;
  if (c) {
    if (!broadcast({c->shape, {m, n}}) || *broadcast({c->shape, {m, n}}) != std::vector<int64_t>{m, n})
      return std::nullopt;
    ic = broadcast_index(c->shape, {m, n});
  }
  Array out = make(a->dtype, {m, n});
  for (int64_t i = 0; i < m; ++i)
    for (int64_t j = 0; j < n; ++j) {
      double acc = 0;
      for (int64_t p = 0; p < k; ++p)
        acc += a->f[static_cast<size_t>(ta ? p * m + i : i * k + p)] * b->f[static_cast<size_t>(tb ? j * k + p : p * n + j)];
      size_t o = static_cast<size_t>(i * n + j);
      out.f[o] = alpha * acc + (c ? beta * c->f[static_cast<size_t>(ic[o])] : 0.0);
    }
  return std::vector<Tensor>{store(out)};
}

// Einsum (numpy's notation as ONNX takes it: lowercase labels, `...` for broadcast dims, an implicit
// output of the labels used once, in order): every combination of the labels' values, the product of
// the operands' elements accumulated into the output element. Small operands only (limits).
std::optional<std::vector<Tensor>> k_einsum(const Node& node, const std::vector<const Tensor*>& in,
                                            const Limits& limits) {
  std::string eq;
  for (char ch : node.attr_string("equation", "")) if (ch != ' ') eq += ch;
  size_t arrow = eq.find("->");
  std::string lhs = eq.substr(0, arrow);
  std::vector<std::string> terms;
  for (size_t p = 0;;) {
    size_t q = lhs.find(',', p);
    terms.push_back(lhs.substr(p, q == std::string::npos ? std::string::npos : q - p));
    if (q == std::string::npos) break;
    p = q + 1;
  }
  if (terms.size() != in.size() || in.empty()) return std::nullopt;
  std::vector<Array> xs;
  for (const Tensor* t : in) {
    auto x = t ? load(*t) : std::nullopt;
    if (!x || x->dtype == ir::ElementType::Bool || (!xs.empty() && x->dtype != xs[0].dtype)) return std::nullopt;
    xs.push_back(std::move(*x));
  }
  // `...` becomes labels '0', '1', ... aligned from the right across the operands (broadcast).
  size_t ell = 0;
  for (size_t t = 0; t < terms.size(); ++t) {
    size_t dots = terms[t].find("...");
    size_t named = terms[t].size() - (dots == std::string::npos ? 0 : 3);
    if (xs[t].shape.size() < named) return std::nullopt;
    if (dots != std::string::npos) ell = std::max(ell, xs[t].shape.size() - named);
  }
  auto expand = [&](const std::string& term, size_t rank_here) {
    size_t dots = term.find("...");
    if (dots == std::string::npos) return term;
    std::string e;
    for (size_t k = ell - rank_here; k < ell; ++k) e += static_cast<char>('0' + k);
    return term.substr(0, dots) + e + term.substr(dots + 3);
  };
  std::map<char, int64_t> size;
  std::map<char, int> count;
  for (size_t t = 0; t < terms.size(); ++t) {
    size_t dots = terms[t].find("...");
    size_t named = terms[t].size() - (dots == std::string::npos ? 0 : 3);
    terms[t] = expand(terms[t], xs[t].shape.size() - named);
    if (terms[t].size() != xs[t].shape.size()) return std::nullopt;
    for (size_t d = 0; d < terms[t].size(); ++d) {
      char l = terms[t][d];
      int64_t n = xs[t].shape[d];
      auto [it, fresh] = size.emplace(l, n);
      if (!fresh && it->second != n) {
        if (it->second == 1) it->second = n;
        else if (n != 1) return std::nullopt;
      }
      ++count[l];
    }
  }
  std::string out_labels;
  if (arrow != std::string::npos) {
    out_labels = eq.substr(arrow + 2);
    size_t dots = out_labels.find("...");
    if (dots != std::string::npos) out_labels = out_labels.substr(0, dots) + expand("...", ell) + out_labels.substr(dots + 3);
  } else {
    for (size_t k = 0; k < ell; ++k) out_labels += static_cast<char>('0' + k);
    for (auto& [l, n] : count)
      if (n == 1 && !(l >= '0' && l <= '9')) out_labels += l;
  }
  std::vector<int64_t> out_shape;
  for (char l : out_labels) {
    if (!size.count(l)) return std::nullopt;
    out_shape.push_back(size[l]);
  }
  std::vector<char> labels(out_labels.begin(), out_labels.end());
  for (auto& [l, n] : size)
    if (out_labels.find(l) == std::string::npos) labels.push_back(l);
  int64_t total = 1;
  for (char l : labels) total *= size[l];
  if (total > (int64_t{1} << 24) || ir::storage_bytes(xs[0].dtype, product(out_shape)) > limits.max_bytes)
    return std::nullopt;
  Array out = make(xs[0].dtype, out_shape);
  std::map<char, int64_t> value;
  for (char l : labels) value[l] = 0;
  auto flat = [&](const std::string& term, const std::vector<int64_t>& shape) {
    int64_t f = 0;
    for (size_t d = 0; d < term.size(); ++d) f = f * shape[d] + (shape[d] == 1 ? 0 : value[term[d]]);
    return static_cast<size_t>(f);
  };
  for (int64_t it = 0; it < total; ++it) {
    size_t o = flat(out_labels, out_shape);
    if (out.is_float()) {
      double p = 1;
      for (size_t t = 0; t < xs.size(); ++t) p *= xs[t].f[flat(terms[t], xs[t].shape)];
      out.f[o] += p;
    } else {
      uint64_t p = 1;
      for (size_t t = 0; t < xs.size(); ++t) p *= static_cast<uint64_t>(xs[t].i[flat(terms[t], xs[t].shape)]);
      out.i[o] = static_cast<int64_t>(static_cast<uint64_t>(out.i[o]) + p);
    }
    for (size_t k = labels.size(); k-- > 0;) {  // next combination, last label fastest
      if (++value[labels[k]] < size[labels[k]]) break;
      value[labels[k]] = 0;
    }
  }
  return std::vector<Tensor>{store(out)};
}

}  // namespace onnxify::passes::kernels
