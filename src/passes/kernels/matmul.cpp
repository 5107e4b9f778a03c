// Folding kernel for MatMul (numpy matmul: 1-d operands promoted and the added dim removed, batch
// dims broadcast). Products accumulate in double and are rounded once per element, so float32
// results may differ from a BLAS in the last bit.
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
