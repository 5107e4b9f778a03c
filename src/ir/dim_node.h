// The interned node behind a DimExpr. Internal to src/ir (dim.cpp, dim_text.cpp); other code uses
// DimExpr's accessors.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "ir/dim.h"

namespace onnxify::ir {

struct DimNode {
  DimOp op;
  int64_t value;                     // Const: the value; Sum: the constant term
  std::string name;                  // Symbol: the name
  std::vector<const DimNode*> args;  // Sum terms, Product factors, operands of div/mod/min/max
  std::vector<int64_t> coeffs;       // Sum: the coefficient of each term
  size_t hash;
};

}  // namespace onnxify::ir
