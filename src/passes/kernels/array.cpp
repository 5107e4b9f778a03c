#include "passes/kernels/array.h"

#include <cmath>
#include <cstring>

#include "passes/kernels/kernels.h"

namespace onnxify::passes::kernels {

using ir::ElementType;

int64_t Array::numel() const { return product(shape); }

int64_t product(const std::vector<int64_t>& shape) {
  int64_t n = 1;
  for (int64_t d : shape) n *= d;
  return n;
}

bool numeric_ok(ElementType t) {
  switch (t) {
    case ElementType::Float32:
    case ElementType::Float64:
    case ElementType::Float16:
    case ElementType::BFloat16:
    case ElementType::Int8:
    case ElementType::Int16:
    case ElementType::Int32:
    case ElementType::Int64:
    case ElementType::UInt8:
    case ElementType::UInt16:
    case ElementType::UInt32:
    case ElementType::Bool:
      return true;
    default:
      return false;
  }
}

Array make(ElementType dtype, std::vector<int64_t> shape) {
  Array a;
  a.dtype = dtype;
  a.shape = std::move(shape);
  if (a.is_float())
    a.f.assign(static_cast<size_t>(a.numel()), 0.0);
  else
    a.i.assign(static_cast<size_t>(a.numel()), 0);
  return a;
}

std::optional<Array> load(const ir::Tensor& t) {
  if (!numeric_ok(t.dtype())) return std::nullopt;
  Array a;
  a.dtype = t.dtype();
  a.shape = t.shape();
  int64_t n = t.numel();
  if (a.is_float()) {
    a.f.resize(static_cast<size_t>(n));
    for (int64_t k = 0; k < n; ++k) a.f[static_cast<size_t>(k)] = t.float_at(k);
  } else {
    a.i.resize(static_cast<size_t>(n));
    for (int64_t k = 0; k < n; ++k) a.i[static_cast<size_t>(k)] = t.int_at(k);
  }
  return a;
}

namespace {
template <class T>
void put(std::vector<uint8_t>& out, T v) {
  const auto* b = reinterpret_cast<const uint8_t*>(&v);
  out.insert(out.end(), b, b + sizeof v);
}
}  // namespace

ir::Tensor store(const Array& a) {
  std::vector<uint8_t> out;
  size_t n = static_cast<size_t>(a.numel());
  out.reserve(ir::storage_bytes(a.dtype, static_cast<int64_t>(n)));
  for (size_t k = 0; k < n; ++k) {
    double d = a.is_float() ? a.f[k] : 0.0;
    // Integers wrap to the element width, as ONNX Runtime's integer arithmetic does.
    uint64_t u = a.is_float() ? 0 : static_cast<uint64_t>(a.i[k]);
    switch (a.dtype) {
      case ElementType::Float32:
        put(out, static_cast<float>(d));
        break;
      case ElementType::Float64:
        put(out, d);
        break;
      case ElementType::Float16:
        put(out, ir::float_to_half(static_cast<float>(d)));
        break;
      case ElementType::BFloat16:
        put(out, ir::float_to_bfloat16(static_cast<float>(d)));
        break;
      case ElementType::Int8:
      case ElementType::UInt8:
        put(out, static_cast<uint8_t>(u));
        break;
      case ElementType::Bool:
        put(out, static_cast<uint8_t>(u != 0));
        break;
      case ElementType::Int16:
      case ElementType::UInt16:
        put(out, static_cast<uint16_t>(u));
        break;
      case ElementType::Int32:
      case ElementType::UInt32:
        put(out, static_cast<uint32_t>(u));
        break;
      default:
        put(out, u);
        break;
    }
  }
  return ir::Tensor(a.dtype, a.shape, Bytes::from_vector(std::move(out)));
}

std::optional<std::vector<int64_t>> broadcast(const std::vector<std::vector<int64_t>>& shapes) {
  size_t rank = 0;
  for (const auto& s : shapes) rank = std::max(rank, s.size());
  std::vector<int64_t> out(rank, 1);
  for (const auto& s : shapes) {
    for (size_t k = 0; k < s.size(); ++k) {
      int64_t& o = out[rank - s.size() + k];
      int64_t d = s[k];
      if (d == o || d == 1) continue;
      if (o == 1) {
        o = d;
        continue;
      }
      return std::nullopt;
    }
  }
  return out;
}

std::vector<int64_t> broadcast_index(const std::vector<int64_t>& in_shape,
                                     const std::vector<int64_t>& out_shape) {
  size_t rank = out_shape.size(), off = rank - in_shape.size();
  std::vector<int64_t> stride(rank, 0);
  int64_t s = 1;
  for (size_t k = in_shape.size(); k-- > 0;) {
    stride[off + k] = in_shape[k] == 1 ? 0 : s;
    s *= in_shape[k];
  }
  int64_t n = product(out_shape);
  std::vector<int64_t> idx(static_cast<size_t>(n));
  std::vector<int64_t> counter(rank, 0);
  int64_t flat = 0;
  for (int64_t k = 0; k < n; ++k) {
    idx[static_cast<size_t>(k)] = flat;
    for (size_t d = rank; d-- > 0;) {
      flat += stride[d];
      if (++counter[d] < out_shape[d]) break;
      flat -= stride[d] * counter[d];
      counter[d] = 0;
    }
  }
  return idx;
}

std::optional<std::vector<int64_t>> int_values(const ir::Tensor* t) {
  if (!t || (t->dtype() != ElementType::Int64 && t->dtype() != ElementType::Int32)) return std::nullopt;
  std::vector<int64_t> v(static_cast<size_t>(t->numel()));
  for (int64_t k = 0; k < t->numel(); ++k) v[static_cast<size_t>(k)] = t->int_at(k);
  return v;
}

std::optional<int64_t> norm_axis(int64_t axis, int64_t rank) {
  if (axis < -rank || axis >= rank) return std::nullopt;
  return axis < 0 ? axis + rank : axis;
}

ir::Tensor reshaped(const ir::Tensor& t, std::vector<int64_t> shape) {
  if (t.dtype() == ElementType::String) return ir::Tensor::strings(std::move(shape), t.string_data());
  return ir::Tensor(t.dtype(), std::move(shape), t.bytes());
}

Kernel find_kernel(const ir::Node& node) {
  if (!node.domain().empty() && node.domain() != "ai.onnx") return nullptr;
  struct Row {
    std::string_view op;
    Kernel fn;
  };
  static constexpr Row kTable[] = {
#define ONNXIFY_KERNEL(op, fn) {#op, &fn},
#include "passes/kernels/kernels.def"
#undef ONNXIFY_KERNEL
  };
  for (const Row& r : kTable)
    if (r.op == node.op_type()) return r.fn;
  return nullptr;
}

}  // namespace onnxify::passes::kernels
