// Tensor element types: ONE table for every ONNX TensorProto data type.
//
// Columns: enumerator; name in the IR text (torch's spelling, str(torch.float32) minus "torch.",
// also used by the CLI's `--input x=float32[N,3]`); ONNX TensorProto enum value; ONNX type-string
// name (as in the operator schemas' "tensor(float)"); bits per element (0 for string); category; the
// lowest ONNX IR version that knows the type (the writer refuses a type newer than the IR it emits).
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>

namespace onnxify::ir {

#define ONNXIFY_ELEMENT_TYPES(X)                                           \
  X(Float32, "float32", 1, "float", 32, Float, 3)                          \
  X(UInt8, "uint8", 2, "uint8", 8, UInt, 3)                                \
  X(Int8, "int8", 3, "int8", 8, Int, 3)                                    \
  X(UInt16, "uint16", 4, "uint16", 16, UInt, 3)                            \
  X(Int16, "int16", 5, "int16", 16, Int, 3)                                \
  X(Int32, "int32", 6, "int32", 32, Int, 3)                                \
  X(Int64, "int64", 7, "int64", 64, Int, 3)                                \
  X(String, "string", 8, "string", 0, String, 3)                           \
  X(Bool, "bool", 9, "bool", 8, Bool, 3)                                   \
  X(Float16, "float16", 10, "float16", 16, Float, 3)                       \
  X(Float64, "float64", 11, "double", 64, Float, 3)                        \
  X(UInt32, "uint32", 12, "uint32", 32, UInt, 3)                           \
  X(UInt64, "uint64", 13, "uint64", 64, UInt, 3)                           \
  X(Complex64, "complex64", 14, "complex64", 64, Complex, 3)               \
  X(Complex128, "complex128", 15, "complex128", 128, Complex, 3)           \
  X(BFloat16, "bfloat16", 16, "bfloat16", 16, Float, 4)                    \
  X(Float8E4M3FN, "float8_e4m3fn", 17, "float8e4m3fn", 8, Float8, 9)       \
  X(Float8E4M3FNUZ, "float8_e4m3fnuz", 18, "float8e4m3fnuz", 8, Float8, 9) \
  X(Float8E5M2, "float8_e5m2", 19, "float8e5m2", 8, Float8, 9)             \
  X(Float8E5M2FNUZ, "float8_e5m2fnuz", 20, "float8e5m2fnuz", 8, Float8, 9) \
  X(UInt4, "uint4", 21, "uint4", 4, UInt, 10)                              \
  X(Int4, "int4", 22, "int4", 4, Int, 10)                                  \
  X(Float4E2M1, "float4_e2m1", 23, "float4e2m1", 4, Float8, 11)

// Undefined (ONNX enum 0) is "no element type known", used by the unknown type.
enum class ElementType : uint8_t {
  Undefined = 0,
#define X(e, name, onnx, onnx_name, bits, cat, ir) e,
  ONNXIFY_ELEMENT_TYPES(X)
#undef X
};

// Float8 covers the 8- and 4-bit float formats: they have no decimal form in the IR text (hex only)
// and no folding kernels.
enum class ElementCategory : uint8_t { None, Float, Float8, Int, UInt, Bool, Complex, String };

struct ElementTypeInfo {
  ElementType type;
  std::string_view name;       // IR text name: "float32"
  int onnx;                    // TensorProto.DataType value
  std::string_view onnx_name;  // schema spelling: "float" (as in "tensor(float)")
  int bits;                    // 0 for string
  ElementCategory category;
  int min_ir_version;
};

const ElementTypeInfo& info(ElementType t);
std::string_view to_string(ElementType t);  // "float32"; "?" for Undefined
std::optional<ElementType> element_type_from_name(std::string_view name);
std::optional<ElementType> element_type_from_onnx(int onnx_enum);

inline bool is_float(ElementType t) { return info(t).category == ElementCategory::Float; }
inline bool is_integer(ElementType t) {
  auto c = info(t).category;
  return c == ElementCategory::Int || c == ElementCategory::UInt;
}
// Bytes needed for `count` elements (sub-byte types are packed, two per byte); 0 for strings.
size_t storage_bytes(ElementType t, int64_t count);

}  // namespace onnxify::ir
