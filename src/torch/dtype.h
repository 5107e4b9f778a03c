// torch dtypes: ONE table, PyTorch's type promotion, and the dtype/device/finfo/iinfo objects.
//
// Each row is a torch dtype as `str(torch.X)` spells it, its aliases (torch.float is torch.float32),
// the IR element type (Undefined for dtypes ONNX cannot hold: complex32, the quantized ones) and its
// promotion category. Python sees one `torch.dtype` object per row, created once per interpreter.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "ir/element_type.h"

namespace onnxify::torch {

// Promotion categories, in PyTorch's order (a higher category wins over a lower one).
enum class DCat : uint8_t { Bool, Int, Float, Complex, Other };

// X(enumerator, "name", "alias1", "alias2", ElementType, category, itemsize)
#define ONNXIFY_TORCH_DTYPES(X)                                    \
  X(UInt8, "uint8", "", "", UInt8, Int, 1)                         \
  X(Int8, "int8", "", "", Int8, Int, 1)                            \
  X(Int16, "int16", "short", "", Int16, Int, 2)                    \
  X(Int32, "int32", "int", "", Int32, Int, 4)                      \
  X(Int64, "int64", "long", "", Int64, Int, 8)                     \
  X(Float16, "float16", "half", "", Float16, Float, 2)             \
  X(Float32, "float32", "float", "", Float32, Float, 4)            \
  X(Float64, "float64", "double", "", Float64, Float, 8)           \
  X(Complex32, "complex32", "chalf", "", Undefined, Complex, 4)    \
  X(Complex64, "complex64", "cfloat", "", Complex64, Complex, 8)   \
  X(Complex128, "complex128", "cdouble", "", Complex128, Complex, 16) \
  X(Bool, "bool", "", "", Bool, Bool, 1)                           \
  X(QInt8, "qint8", "", "", Undefined, Other, 1)                   \
  X(QUInt8, "quint8", "", "", Undefined, Other, 1)                 \
  X(QInt32, "qint32", "", "", Undefined, Other, 4)                 \
  X(BFloat16, "bfloat16", "", "", BFloat16, Float, 2)               \
  /* 8-bit floats: named (finfo, quantization configs), never computed with, like the quantized */ \
  X(Float8E4M3FN, "float8_e4m3fn", "", "", Float8E4M3FN, Other, 1)     \
  X(Float8E5M2, "float8_e5m2", "", "", Float8E5M2, Other, 1)           \
  X(Float8E4M3FNUZ, "float8_e4m3fnuz", "", "", Float8E4M3FNUZ, Other, 1) \
  X(Float8E5M2FNUZ, "float8_e5m2fnuz", "", "", Float8E5M2FNUZ, Other, 1)

enum class DType : uint8_t {
#define X(e, name, a1, a2, elem, cat, size) e,
  ONNXIFY_TORCH_DTYPES(X)
#undef X
  kCount
};

struct DTypeInfo {
  DType dtype;
  std::string_view name;
  std::string_view alias1, alias2;
  ir::ElementType elem;
  DCat cat;
  int itemsize;
};

const DTypeInfo& info(DType t);
const std::vector<DTypeInfo>& all_dtypes();
std::optional<DType> dtype_from_name(std::string_view name);  // names and aliases
// The torch dtype of an IR element type (nullopt for ONNX types torch lacks: uint16/32/64, string, ...).
std::optional<DType> dtype_from_elem(ir::ElementType e);
inline ir::ElementType elem(DType t) { return info(t).elem; }

inline bool is_floating(DType t) { return info(t).cat == DCat::Float; }
inline bool is_complex(DType t) { return info(t).cat == DCat::Complex; }
inline bool is_integral(DType t, bool include_bool) {
  return info(t).cat == DCat::Int || (include_bool && t == DType::Bool);
}

// A Python int held as a double (constants keep their values as doubles) back as an int64: the
// double nearest INT64_MAX is 2^63, out of range of a plain cast, so it and anything beyond
// saturate (torch.iinfo(torch.int64).max as a fill value); integers past 2^53 are otherwise rounded.
inline int64_t int64_of(double v) {
  if (v >= 9223372036854775807.0) return INT64_MAX;
  if (v <= -9223372036854775808.0) return INT64_MIN;
  if (v != v) return 0;
  return static_cast<int64_t>(v);
}

// torch.promote_types(a, b).
DType promote_types(DType a, DType b);

// torch.result_type over operands of three priorities: tensors with dims, zero-dim tensors and
// Python scalars ("wrapped numbers"). Feed every operand, then read result().
class ResultType {
 public:
  enum class Kind : uint8_t { DimTensor, ZeroDimTensor, Scalar };
  void add(Kind k, DType t);
  // A Python scalar: bool, int (int64) or float (the default dtype), as PyTorch wraps them.
  void add_bool_scalar() { add(Kind::Scalar, DType::Bool); }
  void add_int_scalar() { add(Kind::Scalar, DType::Int64); }
  void add_float_scalar(DType default_float) { add(Kind::Scalar, default_float); }
  DType result() const;

 private:
  std::optional<DType> dim_, zero_, wrapped_;
};

}  // namespace onnxify::torch
