// Float to text exactly as CPython prints it: repr() is the shortest string that round-trips
// (std::to_chars gives the digits), laid out with Python's rule for when to use an exponent; the
// fixed/exponent/general formats of format specs are correctly rounded like CPython's dtoa.
#include <charconv>
#include <cmath>
#include <cstring>

#include "eval/internal.h"

namespace onnxify::eval {

namespace {

// Digits and decimal exponent of |d| in scientific form with `precision` digits after the
// point (-1: shortest round-trip). value = 0.<digits> * 10^decpt.
struct Digits {
  std::string digits;  // no leading zeros (except "0" for zero)
  int decpt = 0;       // position of the decimal point relative to the digits
};

Digits sci_digits(double d, int precision) {
  char buf[512];
  std::to_chars_result r;
  if (precision < 0)
    r = std::to_chars(buf, buf + sizeof(buf), std::fabs(d), std::chars_format::scientific);
  else
    r = std::to_chars(buf, buf + sizeof(buf), std::fabs(d), std::chars_format::scientific, precision);
  std::string_view s(buf, r.ptr - buf);
  size_t e = s.find('e');
  std::string_view mant = s.substr(0, e);
  int exp = std::atoi(std::string(s.substr(e + 1)).c_str());
  Digits out;
  for (char c : mant)
    if (c != '.') out.digits += c;
  out.decpt = exp + 1;
  return out;
}

std::string fixed_layout(const std::string& digits, int decpt) {
  std::string out;
  if (decpt <= 0) {
    out = "0.";
    out.append(static_cast<size_t>(-decpt), '0');
    out += digits;
  } else if (static_cast<size_t>(decpt) >= digits.size()) {
    out = digits;
    out.append(decpt - digits.size(), '0');
    out += ".0";
  } else {
    out = digits.substr(0, decpt);
    out += '.';
    out += digits.substr(decpt);
  }
  return out;
}

std::string exp_suffix(int exp, bool upper) {
  char buf[16];
  std::snprintf(buf, sizeof(buf), "%c%c%02d", upper ? 'E' : 'e', exp < 0 ? '-' : '+', exp < 0 ? -exp : exp);
  return buf;
}

}  // namespace

std::string float_repr(double d) {
  if (std::isnan(d)) return "nan";
  if (std::isinf(d)) return d > 0 ? "inf" : "-inf";
  std::string sign = std::signbit(d) ? "-" : "";
  if (d == 0) return sign + "0.0";
  Digits g = sci_digits(d, -1);
  // Strip trailing zeros of the shortest digits (to_chars gives none, but be safe).
  while (g.digits.size() > 1 && g.digits.back() == '0') g.digits.pop_back();
  if (g.decpt > -4 && g.decpt <= 16) return sign + fixed_layout(g.digits, g.decpt);
  std::string out = sign + g.digits.substr(0, 1);
  if (g.digits.size() > 1) out += "." + g.digits.substr(1);
  return out + exp_suffix(g.decpt - 1, false);
}

// The body of a float in one presentation type (no sign, no padding). `type` is one of
// e E f F g G % r (r: repr / the empty type), `alt` is the '#' flag.
std::string float_body(double d, char type, int precision, bool alt) {
  double a = std::fabs(d);
  bool upper = type == 'E' || type == 'F' || type == 'G';
  if (std::isnan(a)) return upper ? "NAN" : "nan";
  if (std::isinf(a)) return upper ? "INF" : "inf";
  char buf[1100];
  switch (type) {
    case 'f':
    case 'F':
    case '%': {
      auto r = std::to_chars(buf, buf + sizeof(buf), a, std::chars_format::fixed, precision);
      std::string s(buf, r.ptr);
      if (alt && precision == 0) s += '.';
      return s;
    }
    case 'e':
    case 'E': {
      Digits g = sci_digits(a, precision);
      std::string s = g.digits.substr(0, 1);
      if (precision > 0 || alt) s += '.';
      s += g.digits.substr(1);
      return s + exp_suffix(a == 0 ? 0 : g.decpt - 1, upper);
    }
    case 'g':
    case 'G':
    case 'r': {
      // 'r' with a precision is the empty presentation type: like 'g' but a fixed result keeps at
      // least one digit after the point, and (CPython's add-dot-0 rule) switches to exponent form
      // one digit earlier so that the added ".0" never exceeds the precision.
      int p = precision == 0 ? 1 : precision;
      Digits g = sci_digits(a, p - 1);
      int exp = a == 0 ? 0 : g.decpt - 1;
      std::string digits = g.digits;
      if (!alt)
        while (digits.size() > 1 && digits.back() == '0') digits.pop_back();
      if (a == 0) digits = alt ? std::string(p, '0') : "0";
      if (exp >= -4 && exp < (type == 'r' ? p - 1 : p)) {
        int decpt = exp + 1;
        std::string s;
        if (decpt <= 0) {
          s = "0." + std::string(-decpt, '0') + digits;
        } else if (static_cast<size_t>(decpt) >= digits.size()) {
          s = digits + std::string(decpt - digits.size(), '0');
          if (type == 'r')
            s += ".0";
          else if (alt)
            s += '.';
        } else {
          s = digits.substr(0, decpt) + "." + digits.substr(decpt);
        }
        return s;
      }
      std::string s = digits.substr(0, 1);
      if (digits.size() > 1)
        s += "." + digits.substr(1);
      else if (alt)
        s += '.';
      return s + exp_suffix(exp, upper);
    }
  }
  return float_repr(a);
}

bool parse_float(std::string_view s, double* out) {
  // Python accepts surrounding whitespace, a sign, underscores between digits, inf/nan spellings.
  size_t b = 0, e = s.size();
  while (b < e && std::isspace(static_cast<unsigned char>(s[b]))) ++b;
  while (e > b && std::isspace(static_cast<unsigned char>(s[e - 1]))) --e;
  s = s.substr(b, e - b);
  if (s.empty()) return false;
  std::string t;
  bool neg = false;
  size_t i = 0;
  if (s[0] == '+' || s[0] == '-') {
    neg = s[0] == '-';
    i = 1;
  }
  std::string rest(s.substr(i));
  std::string lower;
  for (char c : rest) lower += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (lower == "inf" || lower == "infinity") {
    *out = neg ? -INFINITY : INFINITY;
    return true;
  }
  if (lower == "nan") {
    *out = neg ? -NAN : NAN;
    return true;
  }
  // Underscores only between digits.
  for (size_t k = 0; k < rest.size(); ++k) {
    char c = rest[k];
    if (c == '_') {
      if (k == 0 || k + 1 >= rest.size() || !std::isdigit(static_cast<unsigned char>(rest[k - 1])) ||
          !std::isdigit(static_cast<unsigned char>(rest[k + 1])))
        return false;
      continue;
    }
    if (!(std::isdigit(static_cast<unsigned char>(c)) || c == '.' || c == 'e' || c == 'E' || c == '+' || c == '-'))
      return false;
    t += c;
  }
  if (t.empty()) return false;
  // from_chars does not accept a leading '+' in the exponent-less form issues; it handles "1e+5".
  double v = 0;
  auto r = std::from_chars(t.data(), t.data() + t.size(), v);
  if (r.ec == std::errc::result_out_of_range) {
    // Overflow gives inf, underflow 0, as strtod does.
    v = std::strtod(t.c_str(), nullptr);
  } else if (r.ec != std::errc() || r.ptr != t.data() + t.size()) {
    return false;
  }
  // Python rejects a bare "." or "e5".
  bool digit = false;
  for (char c : t) {
    if (c == 'e' || c == 'E') break;
    if (std::isdigit(static_cast<unsigned char>(c))) digit = true;
  }
  if (!digit) return false;
  *out = neg ? -v : v;
  return true;
}

}  // namespace onnxify::eval
