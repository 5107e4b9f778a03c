// Folding kernels for shape and data-movement ops. Reshape-like ops are zero-copy (the result views
// the input's bytes); the others gather elements by index, whatever the element type (string
// tensors included; packed 4-bit types are left alone).
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>

#include "passes/kernels/array.h"
#include "passes/kernels/kernels.h"
#include "support/parallel.h"

namespace onnxify::passes::kernels {

using ir::AttrKind;
using ir::ElementType;
using ir::Node;
using ir::Tensor;
using Out = std::optional<std::vector<Tensor>>;

namespace {

Out one(Tensor t) { return std::vector<Tensor>{std::move(t)}; }

const Tensor* arg(const std::vector<const Tensor*>& in, size_t i) { return i < in.size() ? in[i] : nullptr; }

// Transposed weights above this size are produced bytes: cse compares tensors this big by identity
// anyway, so making them lazily merges nothing less.
constexpr size_t kProducedMin = size_t{1} << 20;

bool copyable(const Tensor& t) {
  return t.dtype() == ElementType::String || ir::info(t.dtype()).bits % 8 == 0;
}

// out[k] = src[index[k]] for any element type.
std::optional<Tensor> gather_elements(const Tensor& src, const std::vector<int64_t>& index,
                                      std::vector<int64_t> shape, const Limits& limits) {
  if (!copyable(src)) return std::nullopt;
  if (src.dtype() == ElementType::String) {
    std::vector<std::string> out;
    for (int64_t k : index) out.push_back(src.string_data()[static_cast<size_t>(k)]);
    return Tensor::strings(std::move(shape), std::move(out));
  }
  size_t es = static_cast<size_t>(ir::info(src.dtype()).bits / 8);
  if (index.size() * es > limits.max_bytes) return std::nullopt;
  std::vector<uint8_t> out(index.size() * es);
  for (size_t k = 0; k < index.size(); ++k)
    std::memcpy(&out[k * es], src.data() + index[k] * static_cast<int64_t>(es), es);
  return Tensor(src.dtype(), std::move(shape), Bytes::from_vector(std::move(out)));
}

std::vector<int64_t> strides_of(const std::vector<int64_t>& shape) {
  std::vector<int64_t> s(shape.size(), 1);
  for (size_t k = shape.size(); k-- > 1;) s[k - 1] = s[k] * shape[k];
  return s;
}

// Output slices [first, end) of x (shape x_shape, element size es) transposed by perm: out[j] =
// x[perm^-1 j], where a slice is one index of the output's first axis (`slice` elements) and dst
// receives slice `first` onward. The walk goes in the output's order in blocks of T x T elements:
// T output rows along x's contiguous last axis times T consecutive positions of those rows. A
// block reads T runs of T neighbouring elements of x and writes T runs of T neighbouring output
// elements (a cache line each for T = 16 floats), through a buffer that turns it. Walking x in its
// own order wrote one element per distant output row (a 3x3 kernel's HWIO -> OIHW); walking the
// output in its order read one element per distant row of x; T rows a few KiB apart written one
// element at a time thrash the cache's sets. The slices are split across the cores.
void transpose_slices(const uint8_t* src, const std::vector<int64_t>& x_shape, const std::vector<int64_t>& perm,
                      size_t es, int64_t slice, int64_t first, int64_t end, uint8_t* dst) {
  constexpr int64_t T = 16;
  const size_t r = x_shape.size();
  std::vector<int64_t> out_shape(r);
  for (size_t k = 0; k < r; ++k) out_shape[k] = x_shape[static_cast<size_t>(perm[k])];
  const std::vector<int64_t> out_stride = strides_of(out_shape), x_stride = strides_of(x_shape);
  // x's stride along each output axis.
  std::vector<int64_t> in_stride(r);
  for (size_t k = 0; k < r; ++k) in_stride[k] = x_stride[static_cast<size_t>(perm[k])];
  // The output axis that is x's last (contiguous) axis.
  const auto ka = static_cast<size_t>(std::find(perm.begin(), perm.end(), static_cast<int64_t>(r - 1)) - perm.begin());
  // When it is the output's last axis too, runs are contiguous on both sides: copied whole.
  const bool runs = ka == r - 1;
  const auto bytes = [es](int64_t n) { return static_cast<size_t>(n) * es; };
  parallel_ranges(end - first, std::max<int64_t>(1, (int64_t{1} << 16) / std::max<int64_t>(slice, 1)),
                  [&](int64_t lo, int64_t hi) {
    // The box of the output this range writes: axis 0 in [first + lo, first + hi), the others whole.
    std::vector<int64_t> from(r, 0), to(out_shape);
    from[0] = first + lo;
    to[0] = first + hi;
    const int64_t tile = runs ? to[ka] - from[ka] : T;
    std::vector<int64_t> idx(r);
    int64_t in_off[T], out_off[T];  // a block's positions: where their runs start in x and out
    std::vector<uint8_t> block(runs ? 0 : bytes(T * T));  // the block being turned
    uint8_t* buf = block.data();
    for (int64_t a0 = from[ka]; a0 < to[ka]; a0 += tile) {
      const int64_t t = std::min(tile, to[ka] - a0);
      idx = from;
      idx[ka] = a0;
      for (bool more = true; more;) {
        // Up to T positions in the output's order (the tiled axis at a0).
        int64_t n = 0;
        while (more && n < (runs ? 1 : T)) {
          in_off[n] = 0;
          out_off[n] = -first * slice;
          for (size_t k = 0; k < r; ++k) {
            in_off[n] += idx[k] * in_stride[k];
            out_off[n] += idx[k] * out_stride[k];
          }
          ++n;
          size_t k = r;
          while (k-- > 0) {
            if (k == ka) continue;
            if (++idx[k] < to[k]) break;
            idx[k] = from[k];
          }
          more = k != static_cast<size_t>(-1);
        }
        if (runs) {
          std::memcpy(dst + bytes(out_off[0]), src + bytes(in_off[0]), bytes(t));
          continue;
        }
        for (int64_t i = 0; i < n; ++i) std::memcpy(buf + bytes(i * T), src + bytes(in_off[i]), bytes(t));
        for (int64_t j = 0; j < t; ++j) {
          uint8_t* row = dst + bytes(j * out_stride[ka]);
          if (es == 4) {
            for (int64_t i = 0; i < n; ++i) std::memcpy(row + bytes(out_off[i]), buf + bytes(i * T + j), 4);
          } else {
            for (int64_t i = 0; i < n; ++i) std::memcpy(row + bytes(out_off[i]), buf + bytes(i * T + j), es);
          }
        }
      }
    }
  });
}

// Axes from the `axes` attribute (older opsets) or the given input (newer ones).
std::optional<std::vector<int64_t>> axes_of(const Node& node, const std::vector<const Tensor*>& in,
                                            size_t input) {
  if (const auto* a = node.attr("axes"); a && a->kind() == AttrKind::Ints) return a->ints();
  if (const Tensor* t = arg(in, input)) return int_values(t);
  if (input < node.num_inputs() && node.input(input)) return std::nullopt;  // given but not constant
  return std::vector<int64_t>{};
}

bool too_big(const Tensor& like, int64_t numel, const Limits& l) {
  return like.dtype() != ElementType::String && ir::storage_bytes(like.dtype(), numel) > l.max_bytes;
}

}  // namespace

Out k_shape(const Node& node, const std::vector<const Tensor*>& in, const Limits&) {
  const Tensor* x = arg(in, 0);
  if (!x) return std::nullopt;
  int64_t r = static_cast<int64_t>(x->rank());
  int64_t start = node.attr_int("start", 0), end = node.attr_int("end", r);
  if (start < 0) start += r;
  if (end < 0) end += r;
  start = std::clamp<int64_t>(start, 0, r);
  end = std::clamp<int64_t>(end, 0, r);
  std::vector<int64_t> dims;
  for (int64_t k = start; k < end; ++k) dims.push_back(x->shape()[static_cast<size_t>(k)]);
  return one(Tensor::vector_int64(dims));
}

Out k_size(const Node&, const std::vector<const Tensor*>& in, const Limits&) {
  if (!arg(in, 0)) return std::nullopt;
  return one(Tensor::scalar_int64(in[0]->numel()));
}

Out k_reshape(const Node& node, const std::vector<const Tensor*>& in, const Limits&) {
  const Tensor* x = arg(in, 0);
  auto spec = int_values(arg(in, 1));
  if (!x || !spec) return std::nullopt;
  bool allowzero = node.attr_int("allowzero", 0) != 0;
  std::vector<int64_t> out;
  int64_t infer = -1, known = 1;
  for (size_t k = 0; k < spec->size(); ++k) {
    int64_t d = (*spec)[k];
    if (d == 0 && !allowzero) {
      if (k >= x->rank()) return std::nullopt;
      d = x->shape()[k];
    }
    if (d == -1) {
      if (infer >= 0) return std::nullopt;
      infer = static_cast<int64_t>(k);
    } else if (d < 0) {
      return std::nullopt;
    } else {
      known *= d;
    }
    out.push_back(d);
  }
  if (infer >= 0) {
    if (known == 0 || x->numel() % known != 0) return std::nullopt;
    out[static_cast<size_t>(infer)] = x->numel() / known;
  }
  if (product(out) != x->numel()) return std::nullopt;
  return one(reshaped(*x, out));
}

Out k_flatten(const Node& node, const std::vector<const Tensor*>& in, const Limits&) {
  const Tensor* x = arg(in, 0);
  if (!x) return std::nullopt;
  int64_t r = static_cast<int64_t>(x->rank());
  int64_t axis = node.attr_int("axis", 1);
  if (axis < 0) axis += r;
  if (axis < 0 || axis > r) return std::nullopt;
  int64_t outer = 1;
  for (int64_t k = 0; k < axis; ++k) outer *= x->shape()[static_cast<size_t>(k)];
  return one(reshaped(*x, {outer, outer == 0 ? 0 : x->numel() / outer}));
}

Out k_squeeze(const Node& node, const std::vector<const Tensor*>& in, const Limits&) {
  const Tensor* x = arg(in, 0);
  auto axes = axes_of(node, in, 1);
  if (!x || !axes) return std::nullopt;
  int64_t r = static_cast<int64_t>(x->rank());
  std::vector<bool> drop(x->rank(), false);
  if (axes->empty()) {
    for (size_t k = 0; k < x->rank(); ++k) drop[k] = x->shape()[k] == 1;
  }
  for (int64_t a : *axes) {
    auto n = norm_axis(a, r);
    if (!n || x->shape()[static_cast<size_t>(*n)] != 1) return std::nullopt;
    drop[static_cast<size_t>(*n)] = true;
  }
  std::vector<int64_t> out;
  for (size_t k = 0; k < x->rank(); ++k)
    if (!drop[k]) out.push_back(x->shape()[k]);
  return one(reshaped(*x, out));
}

Out k_unsqueeze(const Node& node, const std::vector<const Tensor*>& in, const Limits&) {
  const Tensor* x = arg(in, 0);
  auto axes = axes_of(node, in, 1);
  if (!x || !axes || axes->empty()) return std::nullopt;
  int64_t r = static_cast<int64_t>(x->rank() + axes->size());
  std::vector<bool> inserted(static_cast<size_t>(r), false);
  for (int64_t a : *axes) {
    auto n = norm_axis(a, r);
    if (!n || inserted[static_cast<size_t>(*n)]) return std::nullopt;
    inserted[static_cast<size_t>(*n)] = true;
  }
  std::vector<int64_t> out;
  size_t src = 0;
  for (int64_t k = 0; k < r; ++k) out.push_back(inserted[static_cast<size_t>(k)] ? 1 : x->shape()[src++]);
  return one(reshaped(*x, out));
}

Out k_concat(const Node& node, const std::vector<const Tensor*>& in, const Limits& limits) {
  if (in.empty()) return std::nullopt;
  for (const Tensor* t : in)
    if (!t || t->dtype() != in[0]->dtype() || t->rank() != in[0]->rank() || !copyable(*t))
      return std::nullopt;
  auto axis = norm_axis(node.attr_int("axis", 0), static_cast<int64_t>(in[0]->rank()));
  if (!axis) return std::nullopt;
  size_t ax = static_cast<size_t>(*axis);
  std::vector<int64_t> shape = in[0]->shape();
  shape[ax] = 0;
  for (const Tensor* t : in) {
    for (size_t k = 0; k < shape.size(); ++k)
      if (k != ax && t->shape()[k] != shape[k]) return std::nullopt;
    shape[ax] += t->shape()[ax];
  }
  if (too_big(*in[0], product(shape), limits)) return std::nullopt;
  // Element index of every output element, as (input, flat index) pairs.
  int64_t outer = 1;
  for (size_t k = 0; k < ax; ++k) outer *= shape[k];
  std::vector<std::pair<size_t, int64_t>> src;
  for (int64_t o = 0; o < outer; ++o) {
    for (size_t i = 0; i < in.size(); ++i) {
      int64_t inner = 1;
      for (size_t k = ax; k < shape.size(); ++k) inner *= in[i]->shape()[k];
      for (int64_t e = 0; e < inner; ++e) src.emplace_back(i, o * inner + e);
    }
  }
  if (in[0]->dtype() == ElementType::String) {
    std::vector<std::string> out;
    for (auto [i, k] : src) out.push_back(in[i]->string_data()[static_cast<size_t>(k)]);
    return one(Tensor::strings(shape, std::move(out)));
  }
  size_t es = static_cast<size_t>(ir::info(in[0]->dtype()).bits / 8);
  std::vector<uint8_t> out(src.size() * es);
  for (size_t k = 0; k < src.size(); ++k)
    std::memcpy(&out[k * es], in[src[k].first]->data() + src[k].second * static_cast<int64_t>(es), es);
  return one(Tensor(in[0]->dtype(), shape, Bytes::from_vector(std::move(out))));
}

Out k_gather(const Node& node, const std::vector<const Tensor*>& in, const Limits& limits) {
  const Tensor* x = arg(in, 0);
  auto idx = int_values(arg(in, 1));
  if (!x || !idx) return std::nullopt;
  int64_t r = static_cast<int64_t>(x->rank());
  auto axis = norm_axis(node.attr_int("axis", 0), r);
  if (!axis) return std::nullopt;
  size_t ax = static_cast<size_t>(*axis);
  int64_t dim = x->shape()[ax];
  std::vector<int64_t> shape(x->shape().begin(), x->shape().begin() + static_cast<ptrdiff_t>(ax));
  for (int64_t d : in[1]->shape()) shape.push_back(d);
  shape.insert(shape.end(), x->shape().begin() + static_cast<ptrdiff_t>(ax) + 1, x->shape().end());
  if (too_big(*x, product(shape), limits)) return std::nullopt;
  int64_t outer = 1, inner = 1;
  for (size_t k = 0; k < ax; ++k) outer *= x->shape()[k];
  for (size_t k = ax + 1; k < x->rank(); ++k) inner *= x->shape()[k];
  std::vector<int64_t> index;
  for (int64_t o = 0; o < outer; ++o) {
    for (int64_t i : *idx) {
      if (i < -dim || i >= dim) return std::nullopt;
      if (i < 0) i += dim;
      for (int64_t e = 0; e < inner; ++e) index.push_back((o * dim + i) * inner + e);
    }
  }
  auto t = gather_elements(*x, index, shape, limits);
  if (!t) return std::nullopt;
  return one(std::move(*t));
}

Out k_slice(const Node& node, const std::vector<const Tensor*>& in, const Limits& limits) {
  const Tensor* x = arg(in, 0);
  if (!x) return std::nullopt;
  std::optional<std::vector<int64_t>> starts, ends, axes, steps;
  if (node.attr("starts")) {  // opset < 10
    starts = node.attr_ints("starts");
    ends = node.attr_ints("ends");
    axes = node.attr_ints("axes");
  } else {
    starts = int_values(arg(in, 1));
    ends = int_values(arg(in, 2));
    axes = arg(in, 3) ? int_values(in[3]) : std::vector<int64_t>{};
    steps = arg(in, 4) ? int_values(in[4]) : std::vector<int64_t>{};
    if ((node.num_inputs() > 3 && node.input(3) && !arg(in, 3)) ||
        (node.num_inputs() > 4 && node.input(4) && !arg(in, 4)))
      return std::nullopt;
  }
  if (!starts || !ends || !axes || starts->size() != ends->size()) return std::nullopt;
  int64_t r = static_cast<int64_t>(x->rank());
  if (axes->empty())
    for (int64_t k = 0; k < static_cast<int64_t>(starts->size()); ++k) axes->push_back(k);
  if (!steps || steps->empty()) steps = std::vector<int64_t>(starts->size(), 1);
  if (axes->size() != starts->size() || steps->size() != starts->size()) return std::nullopt;
  std::vector<int64_t> first(x->rank(), 0), step(x->rank(), 1), shape = x->shape();
  for (size_t k = 0; k < starts->size(); ++k) {
    auto a = norm_axis((*axes)[k], r);
    if (!a) return std::nullopt;
    size_t d = static_cast<size_t>(*a);
    int64_t dim = x->shape()[d], s = (*steps)[k], b = (*starts)[k], e = (*ends)[k];
    if (s == 0) return std::nullopt;
    if (dim == 0) {
      shape[d] = 0;
      continue;
    }
    if (b < 0) b += dim;
    if (e < 0) e += dim;
    if (s > 0) {
      b = std::clamp<int64_t>(b, 0, dim);
      e = std::clamp<int64_t>(e, 0, dim);
      shape[d] = e > b ? (e - b + s - 1) / s : 0;
    } else {
      b = std::clamp<int64_t>(b, 0, dim - 1);
      e = std::clamp<int64_t>(e, -1, dim - 1);
      shape[d] = b > e ? (b - e - s - 1) / -s : 0;
    }
    first[d] = b;
    step[d] = s;
  }
  int64_t n = product(shape);
  if (too_big(*x, n, limits)) return std::nullopt;
  auto stride = strides_of(x->shape());
  std::vector<int64_t> index(static_cast<size_t>(n)), counter(x->rank(), 0);
  for (int64_t k = 0; k < n; ++k) {
    int64_t flat = 0;
    for (size_t d = 0; d < x->rank(); ++d) flat += (first[d] + counter[d] * step[d]) * stride[d];
    index[static_cast<size_t>(k)] = flat;
    for (size_t d = x->rank(); d-- > 0;) {
      if (++counter[d] < shape[d]) break;
      counter[d] = 0;
    }
  }
  auto t = gather_elements(*x, index, shape, limits);
  if (!t) return std::nullopt;
  return one(std::move(*t));
}

Out k_transpose(const Node& node, const std::vector<const Tensor*>& in, const Limits& limits) {
  const Tensor* x = arg(in, 0);
  if (!x) return std::nullopt;
  size_t r = x->rank();
  std::vector<int64_t> perm = node.attr_ints("perm");
  if (perm.empty())
    for (size_t k = r; k-- > 0;) perm.push_back(static_cast<int64_t>(k));
  if (perm.size() != r) return std::nullopt;
  std::vector<int64_t> shape(r);
  std::vector<bool> seen(r, false);
  for (size_t k = 0; k < r; ++k) {
    if (perm[k] < 0 || perm[k] >= static_cast<int64_t>(r) || seen[static_cast<size_t>(perm[k])])
      return std::nullopt;
    seen[static_cast<size_t>(perm[k])] = true;
    shape[k] = x->shape()[static_cast<size_t>(perm[k])];
  }
  auto stride = strides_of(x->shape());
  int64_t n = x->numel();
  if (too_big(*x, n, limits)) return std::nullopt;
  if (x->dtype() != ElementType::String && copyable(*x) && r > 0 && n > 0) {
    // Whole weights come through here (fold's limits_for: Keras' channels-last kernels, every one).
    const size_t es = static_cast<size_t>(ir::info(x->dtype()).bits / 8);
    const int64_t slice = n / shape[0];  // elements of one index of the output's first axis
    const size_t nbytes = static_cast<size_t>(n) * es;
    auto slices = [x_shape = x->shape(), perm, slice, es](const uint8_t* src, uint8_t* dst, int64_t first, int64_t end) {
      transpose_slices(src, x_shape, perm, es, slice, first, end, dst);
    };
    if (nbytes > kProducedMin) {
      // A weight: produced bytes (support/bytes.h), computed by the writer into the file or by
      // the first pass that reads them (a BatchNorm folded into this kernel reads ranges of it).
      Bytes source = x->bytes();
      const size_t unit = static_cast<size_t>(slice) * es;
      auto produce = [=](size_t offset, size_t size, uint8_t* out) {
        auto first = static_cast<int64_t>(offset / unit);
        slices(source.data(), out, first, first + static_cast<int64_t>(size / unit));
      };
      return one(Tensor(x->dtype(), std::move(shape), Bytes::produced(nbytes, unit, std::move(produce))));
    }
    std::vector<uint8_t> out(nbytes);
    slices(x->data(), out.data(), 0, shape[0]);
    return one(Tensor(x->dtype(), std::move(shape), Bytes::from_vector(std::move(out))));
  }
  std::vector<int64_t> index(static_cast<size_t>(n)), counter(r, 0);
  for (int64_t k = 0; k < n; ++k) {
    int64_t flat = 0;
    for (size_t d = 0; d < r; ++d) flat += counter[d] * stride[static_cast<size_t>(perm[d])];
    index[static_cast<size_t>(k)] = flat;
    for (size_t d = r; d-- > 0;) {
      if (++counter[d] < shape[d]) break;
      counter[d] = 0;
    }
  }
  auto t = gather_elements(*x, index, shape, limits);
  if (!t) return std::nullopt;
  return one(std::move(*t));
}

Out k_expand(const Node&, const std::vector<const Tensor*>& in, const Limits& limits) {
  const Tensor* x = arg(in, 0);
  auto target = int_values(arg(in, 1));
  if (!x || !target) return std::nullopt;
  auto shape = broadcast({x->shape(), *target});
  if (!shape || too_big(*x, product(*shape), limits)) return std::nullopt;
  auto t = gather_elements(*x, broadcast_index(x->shape(), *shape), *shape, limits);
  if (!t) return std::nullopt;
  return one(std::move(*t));
}

Out k_tile(const Node&, const std::vector<const Tensor*>& in, const Limits& limits) {
  const Tensor* x = arg(in, 0);
  auto reps = int_values(arg(in, 1));
  if (!x || !reps || reps->size() != x->rank()) return std::nullopt;
  std::vector<int64_t> shape(x->rank());
  for (size_t k = 0; k < x->rank(); ++k) {
    if ((*reps)[k] < 0) return std::nullopt;
    shape[k] = x->shape()[k] * (*reps)[k];
  }
  int64_t n = product(shape);
  if (too_big(*x, n, limits)) return std::nullopt;
  auto stride = strides_of(x->shape());
  std::vector<int64_t> index(static_cast<size_t>(n)), counter(x->rank(), 0);
  for (int64_t k = 0; k < n; ++k) {
    int64_t flat = 0;
    for (size_t d = 0; d < x->rank(); ++d) flat += (counter[d] % x->shape()[d]) * stride[d];
    index[static_cast<size_t>(k)] = flat;
    for (size_t d = x->rank(); d-- > 0;) {
      if (++counter[d] < shape[d]) break;
      counter[d] = 0;
    }
  }
  auto t = gather_elements(*x, index, shape, limits);
  if (!t) return std::nullopt;
  return one(std::move(*t));
}

Out k_range(const Node&, const std::vector<const Tensor*>& in, const Limits& limits) {
  if (in.size() != 3 || !in[0] || !in[1] || !in[2]) return std::nullopt;
  auto s = load(*in[0]), l = load(*in[1]), d = load(*in[2]);
  if (!s || !l || !d || s->numel() != 1 || l->numel() != 1 || d->numel() != 1) return std::nullopt;
  ElementType t = s->dtype;
  int64_t n;
  if (s->is_float()) {
    double start = s->f[0], limit = l->f[0], delta = d->f[0];
    if (delta == 0 || !std::isfinite(start) || !std::isfinite(limit) || !std::isfinite(delta))
      return std::nullopt;
    n = std::max<int64_t>(static_cast<int64_t>(std::ceil((limit - start) / delta)), 0);
  } else {
    int64_t start = s->i[0], limit = l->i[0], delta = d->i[0];
    if (delta == 0) return std::nullopt;
    // ceil((limit - start) / delta) without overflow for the sizes fold accepts
    double span = static_cast<double>(limit) - static_cast<double>(start);
    n = std::max<int64_t>(static_cast<int64_t>(std::ceil(span / static_cast<double>(delta))), 0);
  }
  if (ir::storage_bytes(t, n) > limits.max_bytes) return std::nullopt;
  Array out = make(t, {n});
  for (int64_t k = 0; k < n; ++k) {
    if (out.is_float())
      out.f[static_cast<size_t>(k)] = s->f[0] + static_cast<double>(k) * d->f[0];
    else
      out.i[static_cast<size_t>(k)] = s->i[0] + k * d->i[0];
  }
  return one(store(out));
}

Out k_constant_of_shape(const Node& node, const std::vector<const Tensor*>& in, const Limits& limits) {
  auto shape = int_values(arg(in, 0));
  if (!shape) return std::nullopt;
  for (int64_t d : *shape)
    if (d < 0) return std::nullopt;
  Tensor value = Tensor::from_values<float>(ElementType::Float32, {1}, {0.0f});
  if (const auto* a = node.attr("value"); a && a->kind() == AttrKind::Tensor) value = a->t();
  if (value.numel() != 1 || !copyable(value)) return std::nullopt;
  int64_t n = product(*shape);
  if (too_big(value, n, limits)) return std::nullopt;
  auto t = gather_elements(value, std::vector<int64_t>(static_cast<size_t>(n), 0), *shape, limits);
  if (!t) return std::nullopt;
  return one(std::move(*t));
}

// Split: sizes from the second input, else num_outputs (opset 18) or the number of outputs, equal
// pieces with a smaller last one.
Out k_split(const Node& node, const std::vector<const Tensor*>& in, const Limits&) {
  const Tensor* x = arg(in, 0);
  if (!x || !copyable(*x)) return std::nullopt;
  int64_t r = static_cast<int64_t>(x->rank());
  auto axis = norm_axis(node.attr_int("axis", 0), r);
  if (!axis) return std::nullopt;
  size_t ax = static_cast<size_t>(*axis);
  int64_t dim = x->shape()[ax];
  std::vector<int64_t> sizes;
  if (const Tensor* s = arg(in, 1)) {
    auto v = int_values(s);
    if (!v) return std::nullopt;
    sizes = *v;
  } else if (const auto* a = node.attr("split"); a && a->kind() == AttrKind::Ints) {
    sizes = a->ints();
  } else {
    if (node.num_inputs() > 1 && node.input(1)) return std::nullopt;  // given but not constant
    int64_t n = static_cast<int64_t>(node.num_outputs());
    if (n <= 0) return std::nullopt;
    int64_t each = (dim + n - 1) / n;
    for (int64_t at = 0; at < dim; at += each) sizes.push_back(std::min(each, dim - at));
  }
  if (sizes.size() != node.num_outputs()) return std::nullopt;
  int64_t total = 0;
  for (int64_t s : sizes) {
    if (s < 0) return std::nullopt;
    total += s;
  }
  if (total != dim) return std::nullopt;
  int64_t outer = 1, inner = 1;
  for (size_t k = 0; k < ax; ++k) outer *= x->shape()[k];
  for (size_t k = ax + 1; k < x->rank(); ++k) inner *= x->shape()[k];
  std::vector<Tensor> out;
  int64_t at = 0;
  for (int64_t s : sizes) {
    std::vector<int64_t> shape = x->shape();
    shape[ax] = s;
    std::vector<int64_t> index;
    index.reserve(static_cast<size_t>(outer * s * inner));
    for (int64_t o = 0; o < outer; ++o)
      for (int64_t i = at; i < at + s; ++i)
        for (int64_t e = 0; e < inner; ++e) index.push_back((o * dim + i) * inner + e);
    Limits unlimited;
    unlimited.max_bytes = SIZE_MAX;  // the pieces together are the input's size
    auto t = gather_elements(*x, index, shape, unlimited);
    if (!t) return std::nullopt;
    out.push_back(std::move(*t));
    at += s;
  }
  return out;
}

// Trilu: keep the upper (upper=1) or lower triangle of the last two dims, shifted by k.
Out k_trilu(const Node& node, const std::vector<const Tensor*>& in, const Limits&) {
  const Tensor* x = arg(in, 0);
  if (!x || x->rank() < 2) return std::nullopt;
  int64_t k = 0;
  if (const Tensor* kt = arg(in, 1)) {
    auto v = int_values(kt);
    if (!v || v->size() != 1) return std::nullopt;
    k = (*v)[0];
  } else if (node.num_inputs() > 1 && node.input(1)) {
    return std::nullopt;
  }
  auto a = load(*x);
  if (!a) return std::nullopt;
  bool upper = node.attr_int("upper", 1) != 0;
  int64_t rows = x->shape()[x->rank() - 2], cols = x->shape()[x->rank() - 1];
  int64_t n = x->numel();
  for (int64_t e = 0; e < n; ++e) {
    int64_t j = e % cols, i = (e / cols) % rows;
    bool keep = upper ? j - i >= k : j - i <= k;
    if (keep) continue;
    if (a->is_float())
      a->f[static_cast<size_t>(e)] = 0.0;
    else
      a->i[static_cast<size_t>(e)] = 0;
  }
  return one(store(*a));
}

namespace {

// Copies `updates` into a copy of `data` at flat positions `pos` (later writes win, as in PyTorch's
// index_put_ on CPU; ONNX leaves duplicates undefined).
std::optional<Tensor> scatter_flat(const Tensor& data, const std::vector<int64_t>& pos, const Tensor& updates) {
  if (!copyable(data) || data.dtype() == ElementType::String || updates.dtype() != data.dtype()) return std::nullopt;
  size_t es = static_cast<size_t>(ir::info(data.dtype()).bits / 8);
  std::vector<uint8_t> out(data.data(), data.data() + data.nbytes());
  for (size_t k = 0; k < pos.size(); ++k)
    std::memcpy(&out[static_cast<size_t>(pos[k]) * es], updates.data() + k * es, es);
  return Tensor(data.dtype(), data.shape(), Bytes::from_vector(std::move(out)));
}

}  // namespace

// ScatterND (reduction none): updates[i..., :] replaces data[indices[i...], :].
Out k_scatter_nd(const Node& node, const std::vector<const Tensor*>& in, const Limits&) {
  const Tensor *data = arg(in, 0), *upd = arg(in, 2);
  auto idx = int_values(arg(in, 1));
  if (!data || !upd || !idx || node.attr_string("reduction", "none") != "none") return std::nullopt;
  const auto& is = in[1]->shape();
  if (is.empty()) return std::nullopt;
  int64_t q = is.back(), r = static_cast<int64_t>(data->rank());
  if (q > r) return std::nullopt;
  int64_t inner = 1;
  for (int64_t k = q; k < r; ++k) inner *= data->shape()[static_cast<size_t>(k)];
  int64_t tuples = q == 0 ? 0 : static_cast<int64_t>(idx->size()) / q;
  if (upd->numel() != tuples * inner) return std::nullopt;
  auto strides = strides_of(data->shape());
  std::vector<int64_t> pos;
  pos.reserve(static_cast<size_t>(upd->numel()));
  for (int64_t t = 0; t < tuples; ++t) {
    int64_t base = 0;
    for (int64_t k = 0; k < q; ++k) {
      int64_t i = (*idx)[static_cast<size_t>(t * q + k)], d = data->shape()[static_cast<size_t>(k)];
      if (i < -d || i >= d) return std::nullopt;
      if (i < 0) i += d;
      base += i * strides[static_cast<size_t>(k)];
    }
    for (int64_t e = 0; e < inner; ++e) pos.push_back(base + e);
  }
  auto t = scatter_flat(*data, pos, *upd);
  if (!t) return std::nullopt;
  return one(std::move(*t));
}

// ScatterElements / GatherElements: the flat offset into data (shape ds) of each position p of
// indices (shape is), its `axis` coordinate replaced by idx[p] (negative counts from the end);
// nullopt when one falls outside data.
static std::optional<std::vector<int64_t>> element_offsets(const std::vector<int64_t>& ds, const std::vector<int64_t>& is,
                                                           const std::vector<int64_t>& idx, int64_t axis) {
  auto strides = strides_of(ds);
  auto istrides = strides_of(is);
  std::vector<int64_t> out(idx.size());
  for (size_t p = 0; p < idx.size(); ++p) {
    int64_t rest = static_cast<int64_t>(p), flat = 0;
    for (size_t k = 0; k < is.size(); ++k) {
      int64_t c = rest / istrides[k];
      rest %= istrides[k];
      int64_t d = ds[k];
      if (static_cast<int64_t>(k) == axis) {
        c = idx[p];
        if (c < -d || c >= d) return std::nullopt;
        if (c < 0) c += d;
      } else if (c >= d) {
        return std::nullopt;
      }
      flat += c * strides[k];
    }
    out[p] = flat;
  }
  return out;
}

// ScatterElements: out[... indices[p] ...] = updates[p] along `axis` (reduction none), or combined
// with it by add / mul / max / min in index order (torch.bincount of constants).
Out k_scatter_elements(const Node& node, const std::vector<const Tensor*>& in, const Limits&) {
  const Tensor *data = arg(in, 0), *upd = arg(in, 2);
  auto idx = int_values(arg(in, 1));
  const std::string reduction = node.attr_string("reduction", "none");
  if (!data || !upd || !idx) return std::nullopt;
  const auto& is = in[1]->shape();
  int64_t r = static_cast<int64_t>(data->rank());
  if (static_cast<int64_t>(is.size()) != r || upd->shape() != is) return std::nullopt;
  auto axis = norm_axis(node.attr_int("axis", 0), r);
  if (!axis) return std::nullopt;
  auto pos = element_offsets(data->shape(), is, *idx, *axis);
  if (!pos) return std::nullopt;
  if (reduction != "none") {  // add / mul / max / min: each update combined in order (torch.bincount)
    auto a = load(*data);
    auto u = load(*upd);
    if (!a || !u || a->dtype != u->dtype) return std::nullopt;
    auto combine = [&](auto& dst, const auto& src) {
      for (size_t k = 0; k < pos->size(); ++k) {
        auto& d = dst[static_cast<size_t>((*pos)[k])];
        auto v = src[k];
        if (reduction == "add") d = d + v;
        else if (reduction == "mul") d = d * v;
        else if (reduction == "max") d = d < v ? v : d;
        else d = v < d ? v : d;
      }
    };
    if (reduction != "add" && reduction != "mul" && reduction != "max" && reduction != "min") return std::nullopt;
    if (a->is_float()) combine(a->f, u->f);
    else combine(a->i, u->i);
    return one(store(*a));
  }
  auto t = scatter_flat(*data, *pos, *upd);
  if (!t) return std::nullopt;
  return one(std::move(*t));
}

// GatherND (batch_dims 0): out[i...] = data[indices[i..., :], ...].
Out k_gather_nd(const Node& node, const std::vector<const Tensor*>& in, const Limits& limits) {
  const Tensor* data = arg(in, 0);
  auto idx = int_values(arg(in, 1));
  if (!data || !idx || node.attr_int("batch_dims", 0) != 0) return std::nullopt;
  const auto& is = in[1]->shape();
  if (is.empty()) return std::nullopt;
  int64_t q = is.back(), r = static_cast<int64_t>(data->rank());
  if (q < 1 || q > r) return std::nullopt;
  std::vector<int64_t> shape(is.begin(), is.end() - 1);
  int64_t inner = 1;
  for (int64_t k = q; k < r; ++k) {
    shape.push_back(data->shape()[static_cast<size_t>(k)]);
    inner *= data->shape()[static_cast<size_t>(k)];
  }
  if (too_big(*data, product(shape), limits)) return std::nullopt;
  auto strides = strides_of(data->shape());
  int64_t tuples = static_cast<int64_t>(idx->size()) / q;
  std::vector<int64_t> index;
  index.reserve(static_cast<size_t>(tuples * inner));
  for (int64_t t = 0; t < tuples; ++t) {
    int64_t base = 0;
    for (int64_t k = 0; k < q; ++k) {
      int64_t i = (*idx)[static_cast<size_t>(t * q + k)], d = data->shape()[static_cast<size_t>(k)];
      if (i < -d || i >= d) return std::nullopt;
      if (i < 0) i += d;
      base += i * strides[static_cast<size_t>(k)];
    }
    for (int64_t e = 0; e < inner; ++e) index.push_back(base + e);
  }
  auto out = gather_elements(*data, index, shape, limits);
  if (!out) return std::nullopt;
  return one(std::move(*out));
}

// GatherElements: out[p] = data[p with its `axis` coordinate replaced by indices[p]].
Out k_gather_elements(const Node& node, const std::vector<const Tensor*>& in, const Limits& limits) {
  const Tensor* data = arg(in, 0);
  auto idx = int_values(arg(in, 1));
  if (!data || !idx) return std::nullopt;
  const auto& is = in[1]->shape();
  int64_t r = static_cast<int64_t>(data->rank());
  if (static_cast<int64_t>(is.size()) != r) return std::nullopt;
  auto axis = norm_axis(node.attr_int("axis", 0), r);
  if (!axis) return std::nullopt;
  auto index = element_offsets(data->shape(), is, *idx, *axis);
  if (!index) return std::nullopt;
  auto out = gather_elements(*data, *index, is, limits);
  if (!out) return std::nullopt;
  return one(std::move(*out));
}

}  // namespace onnxify::passes::kernels
