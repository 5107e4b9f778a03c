#include "weights/dtype.h"

#include <iterator>

namespace onnxify::weights {

namespace {

constexpr DTypeInfo kTable[] = {
#define X(e, name, size, st, storage) {DType::e, name, size, st, storage},
    ONNXIFY_WEIGHTS_DTYPES(X)
#undef X
};

// torch's other spellings of the same dtypes (`torch.float is torch.float32`). A pickle names
// dtypes by their canonical name, but hand-written ones may use these.
struct Alias {
  std::string_view alias;
  DType dtype;
};
constexpr Alias kAliases[] = {
    {"double", DType::Float64},   {"float", DType::Float32},      {"half", DType::Float16},
    {"long", DType::Int64},       {"int", DType::Int32},          {"short", DType::Int16},
    {"cfloat", DType::Complex64}, {"cdouble", DType::Complex128}, {"chalf", DType::Complex32},
};

}  // namespace

const DTypeInfo& info(DType t) { return kTable[static_cast<size_t>(t)]; }

const DTypeInfo* all_dtypes(size_t* count) {
  *count = std::size(kTable);
  return kTable;
}

std::optional<DType> dtype_from_name(std::string_view n) {
  for (const DTypeInfo& d : kTable)
    if (d.name == n) return d.dtype;
  for (const Alias& a : kAliases)
    if (a.alias == n) return a.dtype;
  return std::nullopt;
}

std::optional<DType> dtype_from_safetensors(std::string_view n) {
  if (n.empty()) return std::nullopt;
  for (const DTypeInfo& d : kTable)
    if (d.safetensors == n) return d.dtype;
  return std::nullopt;
}

std::optional<DType> dtype_from_storage_class(std::string_view n) {
  if (n.empty()) return std::nullopt;
  for (const DTypeInfo& d : kTable)
    if (d.storage_class == n) return d.dtype;
  return std::nullopt;
}

}  // namespace onnxify::weights
