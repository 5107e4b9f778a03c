// Tensor element types: the one table (DESIGN.md: one table per kind of thing).
//
// Each row names a torch dtype as `str(torch.float32)` minus the "torch." prefix, its element size,
// its safetensors spelling, and the legacy `torch.<X>Storage` class that pickles of that dtype name
// ("" when torch has none: newer dtypes are pickled as an UntypedStorage plus a torch.dtype, see
// torch._utils._rebuild_tensor_v3).
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>

namespace onnxify::weights {

// X(Enum, torch name, element size, safetensors name, pickle storage class)
#define ONNXIFY_WEIGHTS_DTYPES(X)                             \
  X(Float64, "float64", 8, "F64", "DoubleStorage")            \
  X(Float32, "float32", 4, "F32", "FloatStorage")             \
  X(Float16, "float16", 2, "F16", "HalfStorage")              \
  X(BFloat16, "bfloat16", 2, "BF16", "BFloat16Storage")       \
  X(Int64, "int64", 8, "I64", "LongStorage")                  \
  X(Int32, "int32", 4, "I32", "IntStorage")                   \
  X(Int16, "int16", 2, "I16", "ShortStorage")                 \
  X(Int8, "int8", 1, "I8", "CharStorage")                     \
  X(UInt8, "uint8", 1, "U8", "ByteStorage")                   \
  X(Bool, "bool", 1, "BOOL", "BoolStorage")                   \
  X(Complex64, "complex64", 8, "C64", "ComplexFloatStorage")  \
  X(Complex128, "complex128", 16, "", "ComplexDoubleStorage") \
  X(Complex32, "complex32", 4, "", "")                        \
  X(UInt16, "uint16", 2, "U16", "")                           \
  X(UInt32, "uint32", 4, "U32", "")                           \
  X(UInt64, "uint64", 8, "U64", "")                           \
  X(Float8E4M3FN, "float8_e4m3fn", 1, "F8_E4M3", "")          \
  X(Float8E5M2, "float8_e5m2", 1, "F8_E5M2", "")

enum class DType : uint8_t {
#define X(e, name, size, st, storage) e,
  ONNXIFY_WEIGHTS_DTYPES(X)
#undef X
};

struct DTypeInfo {
  DType dtype;
  std::string_view name;           // "float32"
  size_t size;                     // bytes per element
  std::string_view safetensors;    // "F32", or "" when safetensors has no spelling
  std::string_view storage_class;  // "FloatStorage", or "" when torch pickles none
};

const DTypeInfo& info(DType t);
inline std::string_view name(DType t) { return info(t).name; }
inline size_t element_size(DType t) { return info(t).size; }

// Lookups by each column; nullopt when no row matches.
std::optional<DType> dtype_from_name(
    std::string_view torch_name);  // also torch's aliases ("float", "long", …)
std::optional<DType> dtype_from_safetensors(std::string_view st_name);
std::optional<DType> dtype_from_storage_class(std::string_view storage_class);

// Every row, in table order (tests walk the table).
const DTypeInfo* all_dtypes(size_t* count);

}  // namespace onnxify::weights
