// The dtype table and PyTorch's promotion rules (c10/core/ScalarType.h, aten's ResultTypeState).
#include "torch/dtype.h"

namespace onnxify::torch {

const std::vector<DTypeInfo>& all_dtypes() {
  static const std::vector<DTypeInfo> table = {
#define X(e, name, a1, a2, el, cat, size) {DType::e, name, a1, a2, ir::ElementType::el, DCat::cat, size},
      ONNXIFY_TORCH_DTYPES(X)
#undef X
  };
  return table;
}

const DTypeInfo& info(DType t) { return all_dtypes()[static_cast<size_t>(t)]; }

std::optional<DType> dtype_from_name(std::string_view name) {
  for (const DTypeInfo& d : all_dtypes())
    if (d.name == name || (!d.alias1.empty() && d.alias1 == name) || (!d.alias2.empty() && d.alias2 == name))
      return d.dtype;
  return std::nullopt;
}

std::optional<DType> dtype_from_elem(ir::ElementType e) {
  if (e == ir::ElementType::Undefined) return std::nullopt;
  for (const DTypeInfo& d : all_dtypes())
    if (d.elem == e) return d.dtype;
  return std::nullopt;
}

namespace {

int float_rank(DType t) {
  switch (t) {
    case DType::Float16:
    case DType::BFloat16: return 1;
    case DType::Float32: return 2;
    default: return 3;
  }
}

// Integer types: (signed, bits).
std::pair<bool, int> int_kind(DType t) {
  switch (t) {
    case DType::UInt8: return {false, 8};
    case DType::Int8: return {true, 8};
    case DType::Int16: return {true, 16};
    case DType::Int32: return {true, 32};
    default: return {true, 64};
  }
}

DType signed_int(int bits) {
  return bits <= 8 ? DType::Int8 : bits <= 16 ? DType::Int16 : bits <= 32 ? DType::Int32 : DType::Int64;
}

DType complex_for(int float_bits_rank) {
  return float_bits_rank <= 2 ? DType::Complex64 : DType::Complex128;
}

int complex_rank(DType t) { return t == DType::Complex128 ? 3 : 2; }

}  // namespace

DType promote_types(DType a, DType b) {
  if (a == b) return a;
  DCat ca = info(a).cat, cb = info(b).cat;
  if (ca == DCat::Other || cb == DCat::Other) return a;  // quantized types never promote (callers refuse them)
  if (ca == DCat::Bool) return b;
  if (cb == DCat::Bool) return a;
  if (ca == DCat::Int && cb == DCat::Int) {
    auto [sa, ba] = int_kind(a);
    auto [sb, bb] = int_kind(b);
    if (sa == sb) return ba >= bb ? a : b;
    // uint8 with a signed type: the signed type if it is wider, else int16.
    int signed_bits = sa ? ba : bb;
    return signed_bits > 8 ? signed_int(signed_bits) : DType::Int16;
  }
  if (ca == DCat::Int) return b;  // int with float/complex
  if (cb == DCat::Int) return a;
  if (ca == DCat::Float && cb == DCat::Float) {
    // float16 with bfloat16 has no common 16-bit type.
    int ra = float_rank(a), rb = float_rank(b);
    if (ra == 1 && rb == 1) return DType::Float32;
    return ra >= rb ? a : b;
  }
  // complex with float or complex
  int ra = ca == DCat::Complex ? complex_rank(a) : float_rank(a);
  int rb = cb == DCat::Complex ? complex_rank(b) : float_rank(b);
  return complex_for(std::max(ra, rb));
}

void ResultType::add(Kind k, DType t) {
  std::optional<DType>& slot = k == Kind::DimTensor ? dim_ : k == Kind::ZeroDimTensor ? zero_ : wrapped_;
  slot = slot ? promote_types(*slot, t) : t;
}

namespace {

// aten's combine_categories: `higher` comes from a higher-priority class of operands.
std::optional<DType> combine(std::optional<DType> higher, std::optional<DType> lower) {
  if (!higher) return lower;
  if (!lower) return higher;
  if (is_complex(*higher)) return higher;
  if (!is_complex(*lower) && is_floating(*higher)) return higher;
  if (*higher == DType::Bool || is_floating(*lower) || is_complex(*lower)) return promote_types(*higher, *lower);
  return higher;
}

}  // namespace

DType ResultType::result() const {
  std::optional<DType> r = combine(dim_, combine(zero_, wrapped_));
  return r ? *r : DType::Float32;
}

}  // namespace onnxify::torch
