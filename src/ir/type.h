// Value types: tensors (element type + shape of DimExprs, or unranked), sequences and optionals of
// them (ONNX's sequence/optional types), or unknown.
//
// Text form: `float32[N, 3, floor((H + 1) / 2), ?]`, `float32[]` (a scalar), `float32[*]` (rank
// unknown), `seq<float32[N]>`, `opt<int64[2]>`, and `?` for an unknown type.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "ir/dim.h"
#include "ir/element_type.h"

namespace onnxify::ir {

class Type {
 public:
  enum class Kind : uint8_t { Unknown, Tensor, Sequence, Optional };

  Type() = default;  // unknown
  static Type tensor(ElementType elem, std::vector<DimExpr> dims);
  static Type unranked(ElementType elem);
  static Type sequence(Type element);
  static Type optional(Type element);

  Kind kind() const { return kind_; }
  bool is_unknown() const { return kind_ == Kind::Unknown; }
  bool is_tensor() const { return kind_ == Kind::Tensor; }
  // Tensor: the element type; Undefined otherwise.
  ElementType elem() const { return elem_; }
  // Tensor: whether the rank is known, and the dims.
  bool has_rank() const { return ranked_; }
  size_t rank() const { return dims_.size(); }
  const std::vector<DimExpr>& dims() const { return dims_; }
  DimExpr dim(size_t i) const { return dims_[i]; }
  // Sequence / optional: the element type.
  const Type& inner() const;

  // Ranked tensor whose dims are all constants.
  bool is_static() const;
  // Number of elements as an expression (unknown when unranked).
  DimExpr numel() const;

  friend bool operator==(const Type& a, const Type& b);
  friend bool operator!=(const Type& a, const Type& b) { return !(a == b); }

  std::string str() const;
  // Parses a type at text[*pos] (for the IR parser); advances *pos. On failure *pos is the error
  // position and *error the message without a position.
  static std::optional<Type> parse_prefix(std::string_view text, size_t* pos, std::string* error);
  static std::optional<Type> parse(std::string_view text, std::string* error = nullptr);

 private:
  Kind kind_ = Kind::Unknown;
  ElementType elem_ = ElementType::Undefined;
  bool ranked_ = false;
  std::vector<DimExpr> dims_;
  std::shared_ptr<const Type> inner_;
};

}  // namespace onnxify::ir
