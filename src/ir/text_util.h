// Small helpers shared by the IR printer, the parser and diagnostics (internal to src/ir).
#pragma once

#include <string>
#include <string_view>

namespace onnxify::ir {

// Shortest text that reads back to the same value, always recognisable as a float ("1.0", "1e-05",
// "nan", "-inf").
std::string format_float(float v);
std::string format_double(double v);
// A double-quoted string literal with C escapes for quotes, backslashes and control bytes.
std::string quote(std::string_view s);
// [A-Za-z0-9_.]+ : printable without quotes after '%' or '@'.
bool is_plain_name(std::string_view s);
// A value or graph name as written in the text: plain, or quoted.
std::string sigil_name(char sigil, std::string_view name);

}  // namespace onnxify::ir
