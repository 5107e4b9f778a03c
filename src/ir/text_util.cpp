#include "ir/text_util.h"

#include <fmt/core.h>

#include <cmath>

namespace onnxify::ir {

namespace {
std::string floatify(std::string s, bool negative_nan) {
  if (s.find_first_of(".en") == std::string::npos) s += ".0";  // "nan"/"inf" contain 'n'
  if (s == "nan" && negative_nan) return "-nan";
  return s;
}
}  // namespace

std::string format_float(float v) { return floatify(fmt::format("{}", v), std::isnan(v) && std::signbit(v)); }
std::string format_double(double v) {
  return floatify(fmt::format("{}", v), std::isnan(v) && std::signbit(v));
}

std::string quote(std::string_view s) {
  std::string out = "\"";
  for (char ch : s) {
    unsigned char c = static_cast<unsigned char>(ch);
    switch (c) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\t':
        out += "\\t";
        break;
      case '\r':
        out += "\\r";
        break;
      default:
        if (c < 0x20 || c == 0x7f)
          out += fmt::format("\\x{:02x}", c);
        else
          out += ch;
    }
  }
  out += '"';
  return out;
}

bool is_plain_name(std::string_view s) {
  if (s.empty()) return false;
  for (char c : s)
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.')) return false;
  return true;
}

std::string sigil_name(char sigil, std::string_view name) {
  return is_plain_name(name) ? fmt::format("{}{}", sigil, name) : fmt::format("{}{}", sigil, quote(name));
}

}  // namespace onnxify::ir
