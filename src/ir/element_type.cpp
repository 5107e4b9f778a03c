#include "ir/element_type.h"

#include <array>

namespace onnxify::ir {

namespace {

constexpr ElementTypeInfo kUndefined{ElementType::Undefined, "?", 0, "undefined", 0,
                                     ElementCategory::None,  0};

constexpr std::array kTable = {kUndefined,
#define X(e, name, onnx, onnx_name, bits, cat, ir) \
  ElementTypeInfo{ElementType::e, name, onnx, onnx_name, bits, ElementCategory::cat, ir},
                               ONNXIFY_ELEMENT_TYPES(X)
#undef X
};

}  // namespace

const ElementTypeInfo& info(ElementType t) {
  size_t i = static_cast<size_t>(t);
  return i < kTable.size() ? kTable[i] : kTable[0];
}

std::string_view to_string(ElementType t) { return info(t).name; }

std::optional<ElementType> element_type_from_name(std::string_view name) {
  for (size_t i = 1; i < kTable.size(); ++i)
    if (kTable[i].name == name) return kTable[i].type;
  return std::nullopt;
}

std::optional<ElementType> element_type_from_onnx(int onnx_enum) {
  for (size_t i = 1; i < kTable.size(); ++i)
    if (kTable[i].onnx == onnx_enum) return kTable[i].type;
  return std::nullopt;
}

size_t storage_bytes(ElementType t, int64_t count) {
  int bits = info(t).bits;
  if (count <= 0 || bits == 0) return 0;
  return (static_cast<size_t>(count) * static_cast<size_t>(bits) + 7) / 8;
}

}  // namespace onnxify::ir
