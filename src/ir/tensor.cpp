#include "ir/tensor.h"

#include <fmt/core.h>

#include <cmath>
#include <stdexcept>

namespace onnxify::ir {

namespace {

int64_t checked_numel(const std::vector<int64_t>& shape) {
  int64_t n = 1;
  for (int64_t d : shape) {
    if (d < 0) throw std::invalid_argument(fmt::format("negative dimension {} in a constant", d));
    if (__builtin_mul_overflow(n, d, &n)) throw std::invalid_argument("constant has too many elements");
  }
  return n;
}

}  // namespace

Tensor::Tensor(ElementType dtype, std::vector<int64_t> shape, Bytes data)
    : dtype_(dtype), shape_(std::move(shape)), numel_(checked_numel(shape_)), data_(std::move(data)) {
  if (dtype == ElementType::Undefined || dtype == ElementType::String)
    throw std::invalid_argument("Tensor(bytes) needs a numeric element type");
  size_t want = storage_bytes(dtype, numel_);
  if (data_.size() != want)
    throw std::invalid_argument(
        fmt::format("{} elements of {} need {} bytes, got {}", numel_, to_string(dtype), want, data_.size()));
}

Tensor Tensor::strings(std::vector<int64_t> shape, std::vector<std::string> values) {
  Tensor t;
  t.dtype_ = ElementType::String;
  t.shape_ = std::move(shape);
  t.numel_ = checked_numel(t.shape_);
  if (static_cast<int64_t>(values.size()) != t.numel_)
    throw std::invalid_argument(fmt::format("{} strings for {} elements", values.size(), t.numel_));
  t.strings_ = std::make_shared<const std::vector<std::string>>(std::move(values));
  return t;
}

const std::vector<std::string>& Tensor::string_data() const {
  static const std::vector<std::string> none;
  return strings_ ? *strings_ : none;
}

Type Tensor::type() const {
  std::vector<DimExpr> dims(shape_.begin(), shape_.end());
  return Type::tensor(dtype_, std::move(dims));
}

double Tensor::float_at(int64_t i) const {
  switch (dtype_) {
    case ElementType::Float32:
      return at<float>(i);
    case ElementType::Float64:
      return at<double>(i);
    case ElementType::Float16:
      return half_to_float(at<uint16_t>(i));
    case ElementType::BFloat16:
      return bfloat16_to_float(at<uint16_t>(i));
    default:
      return static_cast<double>(int_at(i));
  }
}

int64_t Tensor::int_at(int64_t i) const {
  switch (dtype_) {
    case ElementType::Int8:
      return at<int8_t>(i);
    case ElementType::Int16:
      return at<int16_t>(i);
    case ElementType::Int32:
      return at<int32_t>(i);
    case ElementType::Int64:
      return at<int64_t>(i);
    case ElementType::UInt8:
      return at<uint8_t>(i);
    case ElementType::Bool:
      return at<uint8_t>(i) != 0;
    case ElementType::UInt16:
      return at<uint16_t>(i);
    case ElementType::UInt32:
      return at<uint32_t>(i);
    case ElementType::UInt64:
      return static_cast<int64_t>(at<uint64_t>(i));
    case ElementType::Float32:
    case ElementType::Float64:
    case ElementType::Float16:
    case ElementType::BFloat16:
      return static_cast<int64_t>(float_at(i));
    default:
      return 0;
  }
}

bool Tensor::equals(const Tensor& o) const {
  if (dtype_ != o.dtype_ || shape_ != o.shape_) return false;
  if (dtype_ == ElementType::String) return string_data() == o.string_data();
  if (data_.size() != o.data_.size()) return false;
  return data_.identity() == o.data_.identity() || std::memcmp(data_.data(), o.data_.data(), data_.size()) == 0;
}

size_t Tensor::content_hash() const {
  size_t h = std::hash<int>()(static_cast<int>(dtype_));
  for (int64_t d : shape_) h = h * 1000003 ^ std::hash<int64_t>()(d);
  if (dtype_ == ElementType::String) {
    for (const auto& s : string_data()) h = h * 1000003 ^ std::hash<std::string>()(s);
  } else {
    size_t n = std::min<size_t>(data_.size(), 4096);
    h = h * 1000003 ^
        std::hash<std::string_view>()(std::string_view(reinterpret_cast<const char*>(data_.data()), n));
  }
  return h;
}

float half_to_float(uint16_t h) {
  uint32_t sign = (h & 0x8000u) << 16;
  uint32_t exp = (h >> 10) & 0x1f;
  uint32_t man = h & 0x3ffu;
  uint32_t bits;
  if (exp == 0x1f) {
    bits = sign | 0x7f800000u | (man << 13);
  } else if (exp == 0) {
    if (man == 0) {
      bits = sign;
    } else {  // subnormal: value = man * 2^-24
      float f = std::ldexp(static_cast<float>(man), -24);
      return sign ? -f : f;
    }
  } else {
    bits = sign | ((exp + 112) << 23) | (man << 13);
  }
  float f;
  std::memcpy(&f, &bits, 4);
  return f;
}

uint16_t float_to_half(float f) {
  uint32_t x;
  std::memcpy(&x, &f, 4);
  uint16_t sign = static_cast<uint16_t>((x >> 16) & 0x8000u);
  uint32_t absx = x & 0x7fffffffu;
  if (absx >= 0x7f800000u) {  // inf or nan (keep a quiet-nan payload bit)
    return static_cast<uint16_t>(sign | 0x7c00u |
                                 (absx > 0x7f800000u ? 0x200u | ((absx >> 13) & 0x3ffu) : 0));
  }
  if (absx >= 0x477ff000u) return static_cast<uint16_t>(sign | 0x7c00u);  // rounds to >= 65520: inf
  if (absx < 0x38800000u) {  // below the smallest normal half: subnormal or zero
    float a;
    std::memcpy(&a, &absx, 4);
    // Subnormal halves are multiples of 2^-24; rint rounds to nearest even.
    auto m = static_cast<uint32_t>(std::nearbyint(std::ldexp(a, 24)));
    return static_cast<uint16_t>(sign | m);
  }
  uint32_t exp = (absx >> 23) - 112;
  uint32_t man = absx & 0x7fffffu;
  uint32_t half = (exp << 10) | (man >> 13);
  uint32_t rest = man & 0x1fffu;
  if (rest > 0x1000u || (rest == 0x1000u && (half & 1))) ++half;  // carries into the exponent correctly
  return static_cast<uint16_t>(sign | half);
}

float bfloat16_to_float(uint16_t b) {
  uint32_t bits = static_cast<uint32_t>(b) << 16;
  float f;
  std::memcpy(&f, &bits, 4);
  return f;
}

uint16_t float_to_bfloat16(float f) {
  uint32_t x;
  std::memcpy(&x, &f, 4);
  if ((x & 0x7fffffffu) > 0x7f800000u) return static_cast<uint16_t>((x >> 16) | 0x40u);  // quiet nan
  uint32_t rounding = 0x7fffu + ((x >> 16) & 1u);
  return static_cast<uint16_t>((x + rounding) >> 16);
}

}  // namespace onnxify::ir
