#include "syntax/repr.h"

#include <fmt/core.h>

#include <charconv>
#include <cmath>

#include "syntax/unicode.h"

namespace onnxify::syntax {

namespace {

// Decodes our stored UTF-8, where lone surrogates keep their 3-byte form.
int decode_stored(std::string_view s, size_t i, char32_t* cp) {
  unsigned char b0 = static_cast<unsigned char>(s[i]);
  if (b0 == 0xED && i + 2 < s.size()) {
    unsigned char b1 = static_cast<unsigned char>(s[i + 1]);
    if (b1 >= 0xA0 && b1 <= 0xBF) {
      *cp = 0xD000 | ((b1 & 0x3F) << 6) | (static_cast<unsigned char>(s[i + 2]) & 0x3F);
      return 3;
    }
  }
  int n = unicode::decode_utf8(s, i, cp);
  if (n == 0) {
    *cp = b0;
    n = 1;
  }
  return n;
}

char choose_quote(std::string_view s) {
  bool single = s.find('\'') != std::string_view::npos;
  bool dbl = s.find('"') != std::string_view::npos;
  return single && !dbl ? '"' : '\'';
}

// "r" format of PyOS_double_to_string: the shortest digits that round-trip, in positional notation
// for exponents -4 <= e < 16 and scientific otherwise.
void format_repr(double v, bool add_dot_0, std::string& out) {
  if (std::isinf(v)) {
    out += v > 0 ? "inf" : "-inf";
    return;
  }
  if (std::isnan(v)) {
    out += "nan";
    return;
  }
  char buf[64];
  auto r = std::to_chars(buf, buf + sizeof buf, v, std::chars_format::scientific);
  std::string_view sci(buf, r.ptr - buf);
  bool negative = sci[0] == '-';
  if (negative) sci.remove_prefix(1);
  size_t e_pos = sci.find('e');
  std::string digits;
  for (char c : sci.substr(0, e_pos))
    if (c != '.') digits += c;
  int exp10 = std::stoi(std::string(sci.substr(e_pos + 1)));
  int decpt = exp10 + 1;
  if (negative) out += '-';
  if (decpt <= -4 || decpt > 16) {
    out += digits[0];
    if (digits.size() > 1) {
      out += '.';
      out.append(digits, 1, std::string::npos);
    }
    out += fmt::format("e{}{:02}", exp10 < 0 ? '-' : '+', std::abs(exp10));
  } else if (decpt <= 0) {
    out += "0.";
    out.append(static_cast<size_t>(-decpt), '0');
    out += digits;
  } else if (static_cast<size_t>(decpt) >= digits.size()) {
    out += digits;
    out.append(decpt - digits.size(), '0');
    if (add_dot_0) out += ".0";
  } else {
    out.append(digits, 0, decpt);
    out += '.';
    out.append(digits, decpt, std::string::npos);
  }
}

}  // namespace

void repr_str(std::string_view s, std::string& out) {
  char quote = choose_quote(s);
  out += quote;
  for (size_t i = 0; i < s.size();) {
    char32_t c;
    i += decode_stored(s, i, &c);
    if (c == static_cast<char32_t>(quote) || c == '\\') {
      out += '\\';
      out += static_cast<char>(c);
    } else if (c == '\t') {
      out += "\\t";
    } else if (c == '\n') {
      out += "\\n";
    } else if (c == '\r') {
      out += "\\r";
    } else if (c < ' ' || c == 0x7F) {
      out += fmt::format("\\x{:02x}", static_cast<uint32_t>(c));
    } else if (c < 0x7F) {
      out += static_cast<char>(c);
    } else if (unicode::is_printable(c)) {
      unicode::append_utf8(out, c);
    } else if (c <= 0xFF) {
      out += fmt::format("\\x{:02x}", static_cast<uint32_t>(c));
    } else if (c <= 0xFFFF) {
      out += fmt::format("\\u{:04x}", static_cast<uint32_t>(c));
    } else {
      out += fmt::format("\\U{:08x}", static_cast<uint32_t>(c));
    }
  }
  out += quote;
}

void repr_bytes(std::string_view s, std::string& out) {
  char quote = choose_quote(s);
  out += 'b';
  out += quote;
  for (char ch : s) {
    unsigned char c = static_cast<unsigned char>(ch);
    if (ch == quote || ch == '\\') {
      out += '\\';
      out += ch;
    } else if (ch == '\t') {
      out += "\\t";
    } else if (ch == '\n') {
      out += "\\n";
    } else if (ch == '\r') {
      out += "\\r";
    } else if (c < ' ' || c >= 0x7F) {
      out += fmt::format("\\x{:02x}", c);
    } else {
      out += ch;
    }
  }
  out += quote;
}

void repr_float(double v, std::string& out) { format_repr(v, true, out); }

void repr_complex_imag(double imag, std::string& out) {
  format_repr(imag, false, out);
  out += 'j';
}

void repr_constant(const ast::ConstantValue& v, std::string& out) {
  using ast::ConstKind;
  switch (v.type) {
    case ConstKind::None:
      out += "None";
      break;
    case ConstKind::Bool:
      out += v.bool_value ? "True" : "False";
      break;
    case ConstKind::Ellipsis:
      out += "Ellipsis";
      break;
    case ConstKind::Int:
      if (v.int_fits)
        out += fmt::format("{}", v.int_value);
      else
        out += v.text;
      break;
    case ConstKind::Float:
      repr_float(v.float_value, out);
      break;
    case ConstKind::Complex:
      repr_complex_imag(v.float_value, out);
      break;
    case ConstKind::Str:
      repr_str(v.text, out);
      break;
    case ConstKind::Bytes:
      repr_bytes(v.text, out);
      break;
  }
}

}  // namespace onnxify::syntax
