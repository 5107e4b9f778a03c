// Python's repr() of the constant kinds a literal can produce, exactly as CPython 3.11 prints them
// (str and bytes quoting and escapes, shortest round-trip floats, complex, big ints).
#pragma once

#include <string>
#include <string_view>

#include "syntax/ast.h"

namespace onnxify::syntax {

void repr_str(std::string_view utf8, std::string& out);
void repr_bytes(std::string_view bytes, std::string& out);
void repr_float(double v, std::string& out);
void repr_complex_imag(double imag, std::string& out);  // a complex with real part +0.0
void repr_constant(const ast::ConstantValue& v, std::string& out);

}  // namespace onnxify::syntax
