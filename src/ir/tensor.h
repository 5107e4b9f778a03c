// Tensor: the data of a constant (an initializer, a `value` attribute, a folded result).
//
// The bytes are an onnxify::Bytes: a zero-copy view into a mapped checkpoint (the writer can then
// stream them to the ONNX file without a copy, DESIGN.md decision 9) or an owned buffer for small
// folded constants. Layout is ONNX's raw_data: row-major, little-endian, sub-byte types packed two
// per byte. String tensors keep their strings separately.
#pragma once

#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "ir/element_type.h"
#include "ir/type.h"
#include "support/bytes.h"

namespace onnxify::ir {

class Tensor {
 public:
  Tensor() = default;
  // Throws std::invalid_argument when the shape is negative, overflows, or does not match the bytes.
  Tensor(ElementType dtype, std::vector<int64_t> shape, Bytes data);
  static Tensor strings(std::vector<int64_t> shape, std::vector<std::string> values);
  // From native values (T must match the element type's width: int64_t for Int64, float for
  // Float32, uint8_t for Bool, uint16_t bit patterns for Float16/BFloat16, ...).
  template <class T>
  static Tensor from_values(ElementType dtype, std::vector<int64_t> shape, const std::vector<T>& values) {
    return Tensor(dtype, std::move(shape), Bytes::copy_of(values.data(), values.size() * sizeof(T)));
  }
  static Tensor scalar_int64(int64_t v) { return from_values<int64_t>(ElementType::Int64, {}, {v}); }
  static Tensor vector_int64(const std::vector<int64_t>& v) {
    return from_values<int64_t>(ElementType::Int64, {static_cast<int64_t>(v.size())}, v);
  }

  ElementType dtype() const { return dtype_; }
  const std::vector<int64_t>& shape() const { return shape_; }
  size_t rank() const { return shape_.size(); }
  int64_t numel() const { return numel_; }
  size_t nbytes() const { return data_.size(); }
  const Bytes& bytes() const { return data_; }
  const uint8_t* data() const { return data_.data(); }
  const std::vector<std::string>& string_data() const;
  Type type() const;

  // Element i (row-major) converted to double / int64; only for Float (not Float8), Int, UInt and
  // Bool element types (uint64 values above INT64_MAX wrap).
  double float_at(int64_t i) const;
  int64_t int_at(int64_t i) const;
  template <class T>
  T at(int64_t i) const {
    T v;
    std::memcpy(&v, data_.data() + i * sizeof(T), sizeof(T));
    return v;
  }

  // Same dtype, shape and content.
  bool equals(const Tensor& other) const;
  // Hash of dtype, shape and up to the first 4 KiB of content (cheap for huge weights).
  size_t content_hash() const;

 private:
  ElementType dtype_ = ElementType::Float32;
  std::vector<int64_t> shape_;
  int64_t numel_ = 1;
  Bytes data_;
  std::shared_ptr<const std::vector<std::string>> strings_;
};

// IEEE half and bfloat16 conversions (round to nearest even).
float half_to_float(uint16_t h);
uint16_t float_to_half(float f);
float bfloat16_to_float(uint16_t b);
uint16_t float_to_bfloat16(float f);

}  // namespace onnxify::ir
