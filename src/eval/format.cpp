// Text formatting with CPython's rules: the format-spec mini-language (format(), f-strings,
// str.format), printf-style `%` formatting, and str.format's field syntax.
#include <cmath>
#include <cstring>

#include "eval/internal.h"

namespace onnxify::eval {

std::string float_body(double d, char type, int precision, bool alt);

namespace {

// [[fill]align][sign]["z"]["#"]["0"][width][grouping]["." precision][type]
struct Spec {
  uint32_t fill = ' ';
  char align = 0;
  char sign = 0;
  bool z = false;
  bool alt = false;
  bool zero = false;
  int64_t width = -1;
  char grouping = 0;
  int64_t precision = -1;
  char type = 0;
};

bool is_align(char c) { return c == '<' || c == '>' || c == '=' || c == '^'; }

Spec parse_spec(Interp& I, std::string_view s, const char* tname, char default_align = '>') {
  Spec sp;
  size_t i = 0;
  bool fill_specified = false;
  // A fill character may be any code point.
  size_t first_len = 0;
  if (!s.empty()) {
    size_t j = 0;
    utf8_next(s, j);
    first_len = j;
  }
  if (s.size() > first_len && is_align(s[first_len])) {
    size_t j = 0;
    sp.fill = utf8_next(s, j);
    sp.align = s[first_len];
    fill_specified = true;
    i = first_len + 1;
  } else if (!s.empty() && is_align(s[0])) {
    sp.align = s[0];
    i = 1;
  }
  if (i < s.size() && (s[i] == '+' || s[i] == '-' || s[i] == ' ')) sp.sign = s[i++];
  if (i < s.size() && s[i] == 'z') {
    sp.z = true;
    ++i;
  }
  if (i < s.size() && s[i] == '#') {
    sp.alt = true;
    ++i;
  }
  if (i < s.size() && s[i] == '0') {
    sp.zero = true;
    ++i;
  }
  auto read_num = [&](int64_t& out) {
    bool any = false;
    int64_t v = 0;
    while (i < s.size() && std::isdigit(static_cast<unsigned char>(s[i]))) {
      v = v * 10 + (s[i] - '0');
      if (v > (int64_t{1} << 40)) raise(I, I.exc.ValueError, "Too many decimal digits in format string");
      ++i;
      any = true;
    }
    if (any) out = v;
    return any;
  };
  read_num(sp.width);
  if (i < s.size() && (s[i] == ',' || s[i] == '_')) sp.grouping = s[i++];
  if (i < s.size() && (s[i] == ',' || s[i] == '_')) raise(I, I.exc.ValueError, "Cannot specify both ',' and '_'.");
  if (i < s.size() && s[i] == '.') {
    ++i;
    if (!read_num(sp.precision)) raise(I, I.exc.ValueError, "Format specifier missing precision");
  }
  if (s.size() - i > 1)
    raisef(I, I.exc.ValueError, "Invalid format specifier '{}' for object of type '{}'", s, tname);
  if (i < s.size()) sp.type = s[i];
  // '0' means fill with zeros (unless a fill is given), and sign-aware padding for numbers
  // (unless an alignment is given).
  if (sp.zero && !fill_specified) {
    sp.fill = '0';
    if (!sp.align && default_align == '>') sp.align = '=';
  }
  if (sp.grouping) {
    char t = sp.type;
    bool ok;
    if (sp.grouping == ',')
      ok = t == 0 || t == 'd' || t == 'e' || t == 'E' || t == 'f' || t == 'F' || t == 'g' || t == 'G' || t == '%';
    else
      ok = t == 0 || t == 'd' || t == 'e' || t == 'E' || t == 'f' || t == 'F' || t == 'g' || t == 'G' ||
           t == '%' || t == 'b' || t == 'o' || t == 'x' || t == 'X';
    if (!ok) raisef(I, I.exc.ValueError, "Cannot specify '{}' with '{}'.", sp.grouping, t);
  }
  return sp;
}

std::string group_digits(const std::string& digits, char sep, int every) {
  std::string out;
  int n = static_cast<int>(digits.size());
  for (int k = 0; k < n; ++k) {
    if (k && (n - k) % every == 0) out += sep;
    out += digits[k];
  }
  return out;
}

// Pads `prefix + body` to the spec's width; '=' puts the padding between them.
std::string pad(const Spec& sp, const std::string& prefix, const std::string& body, char default_align) {
  int64_t len = utf8_length(prefix) + utf8_length(body);
  char align = sp.align ? sp.align : default_align;
  if (sp.width <= len) return prefix + body;
  int64_t n = sp.width - len;
  std::string fill;
  utf8_append(fill, sp.fill);
  auto rep = [&](int64_t k) {
    std::string r;
    for (int64_t q = 0; q < k; ++q) r += fill;
    return r;
  };
  switch (align) {
    case '<': return prefix + body + rep(n);
    case '^': return rep(n / 2) + prefix + body + rep(n - n / 2);
    case '=': return prefix + rep(n) + body;
    default: return rep(n) + prefix + body;
  }
}

// Integer digits with grouping; with '0' padding the zeros are grouped too (CPython does this).
std::string grouped_with_zero_pad(const Spec& sp, const std::string& prefix, std::string digits, int every) {
  if (!sp.grouping) return digits;
  std::string g = group_digits(digits, sp.grouping, every);
  if (sp.align == '=' && sp.fill == '0' && sp.width > 0) {
    while (static_cast<int64_t>(prefix.size() + g.size()) < sp.width) {
      digits.insert(digits.begin(), '0');
      g = group_digits(digits, sp.grouping, every);
    }
  }
  return g;
}

std::string sign_prefix(const Spec& sp, bool negative) {
  if (negative) return "-";
  if (sp.sign == '+') return "+";
  if (sp.sign == ' ') return " ";
  return "";
}

}  // namespace

std::string int_to_string(int64_t v, int base, bool alt, bool upper) {
  bool neg = v < 0;
  uint64_t u = neg ? 0 - static_cast<uint64_t>(v) : static_cast<uint64_t>(v);
  char buf[80];
  int n = 0;
  const char* dig = upper ? "0123456789ABCDEF" : "0123456789abcdef";
  do {
    buf[n++] = dig[u % base];
    u /= base;
  } while (u);
  std::string s;
  if (neg) s += '-';
  if (alt) {
    if (base == 2) s += "0b";
    if (base == 8) s += "0o";
    if (base == 16) s += upper ? "0X" : "0x";
  }
  while (n) s += buf[--n];
  return s;
}

std::string format_int(Interp& I, int64_t v, std::string_view spec) {
  if (spec.empty()) return int_to_string(v, 10);
  Spec sp = parse_spec(I, spec, "int");
  char t = sp.type;
  if (t == 'e' || t == 'E' || t == 'f' || t == 'F' || t == 'g' || t == 'G' || t == '%')
    return format_float(I, static_cast<double>(v), spec);
  if (sp.precision >= 0) raise(I, I.exc.ValueError, "Precision not allowed in integer format specifier");
  if (sp.z) raise(I, I.exc.ValueError, "Negative zero coercion (z) not allowed in integer format specifier");
  int base = 10;
  switch (t) {
    case 0:
    case 'd':
    case 'n': break;
    case 'b': base = 2; break;
    case 'o': base = 8; break;
    case 'x':
    case 'X': base = 16; break;
    case 'c': {
      if (sp.sign) raise(I, I.exc.ValueError, "Sign not allowed with integer format specifier 'c'");
      if (sp.alt) raise(I, I.exc.ValueError, "Alternate form (#) not allowed with integer format specifier 'c'");
      if (v < 0 || v > 0x10FFFF) raise(I, I.exc.OverflowError, "%c arg not in range(0x110000)");
      std::string body;
      utf8_append(body, static_cast<uint32_t>(v));
      return pad(sp, "", body, '<');
    }
    default:
      raisef(I, I.exc.ValueError, "Unknown format code '{}' for object of type '{}'", t, "int");
  }
  std::string digits = int_to_string(v, base, false, t == 'X');
  if (v < 0) digits = digits.substr(1);
  std::string prefix = sign_prefix(sp, v < 0);
  if (sp.alt) {
    if (base == 2) prefix += "0b";
    if (base == 8) prefix += "0o";
    if (base == 16) prefix += t == 'X' ? "0X" : "0x";
  }
  digits = grouped_with_zero_pad(sp, prefix, digits, base == 10 ? 3 : 4);
  return pad(sp, prefix, digits, '>');
}

std::string format_float(Interp& I, double d, std::string_view spec) {
  if (spec.empty()) return float_repr(d);
  Spec sp = parse_spec(I, spec, "float");
  char t = sp.type;
  switch (t) {
    case 0:
    case 'e':
    case 'E':
    case 'f':
    case 'F':
    case 'g':
    case 'G':
    case 'n':
    case '%': break;
    default: raisef(I, I.exc.ValueError, "Unknown format code '{}' for object of type '{}'", t, "float");
  }
  if (t == 'n') t = 'g';
  bool neg = std::signbit(d) && !std::isnan(d);
  double a = std::fabs(d);
  if (t == '%') a *= 100;
  std::string body;
  if (t == 0) {
    if (sp.precision < 0) {
      body = float_repr(a);
    } else {
      body = float_body(a, 'r', static_cast<int>(sp.precision), sp.alt);
    }
  } else {
    int prec = sp.precision < 0 ? 6 : static_cast<int>(sp.precision);
    body = float_body(a, t == '%' ? 'f' : t, prec, sp.alt);
    if (t == '%') body += '%';
  }
  if (sp.z && neg) {
    // Negative zero coercion: -0.0 (after rounding) prints without the sign.
    bool all_zero = true;
    for (char c : body)
      if (c >= '1' && c <= '9') all_zero = false;
    if (all_zero) neg = false;
  }
  if (sp.grouping) {
    size_t end = 0;
    while (end < body.size() && std::isdigit(static_cast<unsigned char>(body[end]))) ++end;
    std::string intpart = body.substr(0, end);
    std::string rest = body.substr(end);
    std::string prefix = sign_prefix(sp, neg);
    Spec sp2 = sp;
    sp2.width = sp.width - static_cast<int64_t>(rest.size());
    body = grouped_with_zero_pad(sp2, prefix, intpart, 3) + rest;
  }
  return pad(sp, sign_prefix(sp, neg), body, '>');
}

std::string format_str(Interp& I, std::string_view s, std::string_view spec) {
  if (spec.empty()) return std::string(s);
  Spec sp = parse_spec(I, spec, "str", '<');
  if (sp.type && sp.type != 's')
    raisef(I, I.exc.ValueError, "Unknown format code '{}' for object of type '{}'", sp.type, "str");
  if (sp.sign) raise(I, I.exc.ValueError, "Sign not allowed in string format specifier");
  if (sp.alt) raise(I, I.exc.ValueError, "Alternate form (#) not allowed in string format specifier");
  if (sp.align == '=') raise(I, I.exc.ValueError, "'=' alignment not allowed in string format specifier");
  std::string body(s);
  if (sp.precision >= 0) {
    size_t i = 0;
    int64_t n = 0;
    while (i < body.size() && n < sp.precision) {
      utf8_next(body, i);
      ++n;
    }
    body.resize(i);
  }
  return pad(sp, "", body, '<');
}

std::string format_complex(Interp& I, double re, double im, std::string_view spec) {
  Spec sp = parse_spec(I, spec, "complex");
  char t = sp.type;
  if (t == '%' || t == 'n' || (t && !std::strchr("eEfFgG", t)))
    raisef(I, I.exc.ValueError, "Unknown format code '{}' for object of type '{}'", t, "complex");
  if (sp.align == '=') raise(I, I.exc.ValueError, "'=' alignment flag is not allowed in complex format specifier");
  auto part = [&](double v, bool force_sign) {
    std::string b;
    if (t == 0 && sp.precision < 0) {
      b = float_repr(std::fabs(v));
      if (b.size() > 2 && b.compare(b.size() - 2, 2, ".0") == 0) b.resize(b.size() - 2);
    } else if (t == 0) {
      b = float_body(std::fabs(v), 'g', static_cast<int>(sp.precision), sp.alt);
    } else {
      b = float_body(std::fabs(v), t, sp.precision < 0 ? 6 : static_cast<int>(sp.precision), sp.alt);
    }
    bool neg = std::signbit(v) && !std::isnan(v);
    std::string sg = neg ? "-" : (force_sign ? "+" : (sp.sign == '+' ? "+" : sp.sign == ' ' ? " " : ""));
    return sg + b;
  };
  std::string body;
  bool skip_re = t == 0 && re == 0 && !std::signbit(re);
  if (skip_re) {
    body = part(im, false) + "j";
  } else {
    body = part(re, false) + part(im, true) + "j";
    if (t == 0) body = "(" + body + ")";
  }
  return pad(sp, "", body, '>');
}

std::string format_value(Interp& I, const Value& v, std::string_view spec) {
  if (v.is_int()) return format_int(I, v.i(), spec);
  if (v.is_float()) return format_float(I, v.f(), spec);
  if (is_str(v) && v.obj()->type == I.t.str) return format_str(I, as_str(v)->s, spec);
  Type* t = I.type_of(v);
  Value sv = I.str(spec);
  if (!t->slots.format) return str_string(I, v);
  Value r = t->slots.format(I, v, sv);
  if (!is_str(r)) raisef(I, I.exc.TypeError, "__format__ must return a str, not {}", type_name(I, r));
  return as_str(r)->s;
}

// ---- printf-style formatting --------------------------------------------------------------------

std::string ascii_of(Interp& I, const Value& v);

Value percent_format(Interp& I, std::string_view f, const Value& args, bool is_bytes) {
  std::vector<Value> items;
  bool is_tuple_args = is_tuple(args);
  if (is_tuple_args) items = as_tuple(args)->items;
  Type* at = I.type_of(args);
  bool mapping = !is_tuple_args && !is_str(args) && at->slots.getitem && at->layout != Layout::List &&
                 at->layout != Layout::Bytes && at->layout != Layout::Range;
  size_t argi = 0;
  bool used_single = false;
  auto next_arg = [&]() -> Value {
    if (is_tuple_args) {
      if (argi >= items.size()) raise(I, I.exc.TypeError, "not enough arguments for format string");
      return items[argi++];
    }
    if (used_single) raise(I, I.exc.TypeError, "not enough arguments for format string");
    used_single = true;
    return args;
  };
  std::string out;
  size_t i = 0;
  bool used_mapping_key = false;
  while (i < f.size()) {
    char c = f[i];
    if (c != '%') {
      out += c;
      ++i;
      continue;
    }
    size_t start = i;
    ++i;
    if (i >= f.size()) raise(I, I.exc.ValueError, "incomplete format");
    Value arg;
    bool have_arg = false;
    if (f[i] == '(') {
      if (!mapping) raise(I, I.exc.TypeError, "format requires a mapping");
      int depth = 1;
      size_t ks = ++i;
      while (i < f.size() && depth) {
        if (f[i] == '(') ++depth;
        if (f[i] == ')') --depth;
        ++i;
      }
      if (depth) raise(I, I.exc.ValueError, "incomplete format key");
      std::string key(f.substr(ks, i - 1 - ks));
      arg = getitem(I, args, I.str(key));
      have_arg = true;
      used_mapping_key = true;
    }
    bool left = false, plus = false, space = false, alt = false, zero = false;
    for (; i < f.size(); ++i) {
      char fl = f[i];
      if (fl == '-') left = true;
      else if (fl == '+') plus = true;
      else if (fl == ' ') space = true;
      else if (fl == '#') alt = true;
      else if (fl == '0') zero = true;
      else break;
    }
    int64_t width = -1, prec = -1;
    if (i < f.size() && f[i] == '*') {
      Value w = next_arg();
      int64_t wv;
      if (!int_value(w, &wv)) raise(I, I.exc.TypeError, "* wants int");
      width = wv;
      if (width < 0) {
        left = true;
        width = -width;
      }
      ++i;
    } else {
      while (i < f.size() && std::isdigit(static_cast<unsigned char>(f[i]))) {
        width = (width < 0 ? 0 : width) * 10 + (f[i] - '0');
        ++i;
      }
    }
    if (i < f.size() && f[i] == '.') {
      ++i;
      prec = 0;
      if (i < f.size() && f[i] == '*') {
        Value p = next_arg();
        int64_t pv;
        if (!int_value(p, &pv)) raise(I, I.exc.TypeError, "* wants int");
        prec = pv < 0 ? 0 : pv;
        ++i;
      } else {
        while (i < f.size() && std::isdigit(static_cast<unsigned char>(f[i]))) {
          prec = prec * 10 + (f[i] - '0');
          ++i;
        }
      }
    }
    while (i < f.size() && (f[i] == 'h' || f[i] == 'l' || f[i] == 'L')) ++i;
    if (i >= f.size()) raise(I, I.exc.ValueError, "incomplete format");
    char conv = f[i++];
    if (conv == '%') {
      out += '%';
      continue;
    }
    if (!have_arg) arg = next_arg();
    std::string body, prefix;
    bool numeric = false;
    switch (conv) {
      case 's':
      case 'r':
      case 'a': {
        if (is_bytes && conv == 's' && has_layout(arg, Layout::Bytes)) {
          body = as<Bytes>(arg)->s;
        } else {
          body = conv == 's' ? str_string(I, arg) : conv == 'r' ? repr_string(I, arg) : ascii_of(I, arg);
        }
        if (prec >= 0) {
          size_t k = 0;
          int64_t n = 0;
          while (k < body.size() && n < prec) {
            utf8_next(body, k);
            ++n;
          }
          body.resize(k);
        }
        break;
      }
      case 'd':
      case 'i':
      case 'u':
      case 'o':
      case 'x':
      case 'X': {
        numeric = true;
        int64_t v;
        double dv;
        if ((conv == 'd' || conv == 'i' || conv == 'u') && !int_value(arg, &v) && I.symbolic.to_int) {
          // A size only known at run time (Interp::SymbolicHooks) prints as its name, as format() does:
          // such text only ends up in messages (a shape check's error built before it is raised).
          Value sym = I.symbolic.to_int(I, arg);
          if (sym && !int_value(sym, &v)) {
            body = str_string(I, sym);
            break;
          }
        }
        if (int_value(arg, &v)) {
        } else if (float_value(arg, &dv) && (conv == 'd' || conv == 'i' || conv == 'u')) {
          if (std::isnan(dv)) raise(I, I.exc.ValueError, "cannot convert float NaN to integer");
          if (std::isinf(dv)) raise(I, I.exc.OverflowError, "cannot convert float infinity to integer");
          v = static_cast<int64_t>(std::trunc(dv));
        } else if (I.type_of(arg)->slots.index) {
          v = index(I, arg);
        } else if ((conv == 'd' || conv == 'i' || conv == 'u') && I.type_of(arg)->slots.int_) {
          Value iv = I.type_of(arg)->slots.int_(I, arg);
          if (!int_value(iv, &v)) raise(I, I.exc.TypeError, "__int__ returned non-int");
        } else if (conv == 'd' || conv == 'i' || conv == 'u') {
          raisef(I, I.exc.TypeError, "%{} format: a real number is required, not {}", conv, type_name(I, arg));
        } else {
          raisef(I, I.exc.TypeError, "%{} format: an integer is required, not {}", conv, type_name(I, arg));
        }
        int base = conv == 'o' ? 8 : (conv == 'x' || conv == 'X') ? 16 : 10;
        std::string s = int_to_string(v, base, false, conv == 'X');
        bool neg = v < 0;
        if (neg) s = s.substr(1);
        if (prec >= 0 && static_cast<int64_t>(s.size()) < prec) s = std::string(prec - s.size(), '0') + s;
        prefix = neg ? "-" : plus ? "+" : space ? " " : "";
        if (alt && base == 8) prefix += "0o";
        if (alt && base == 16) prefix += conv == 'X' ? "0X" : "0x";
        body = s;
        break;
      }
      case 'e':
      case 'E':
      case 'f':
      case 'F':
      case 'g':
      case 'G': {
        numeric = true;
        double d;
        if (!float_value(arg, &d)) {
          int64_t iv;
          if (int_value(arg, &iv))
            d = static_cast<double>(iv);
          else if (I.type_of(arg)->slots.float_ || I.type_of(arg)->slots.index)
            d = to_double(I, arg);
          else
            raisef(I, I.exc.TypeError, "must be real number, not {}", type_name(I, arg));
        }
        bool neg = std::signbit(d) && !std::isnan(d);
        body = float_body(std::fabs(d), conv, prec < 0 ? 6 : static_cast<int>(prec), alt);
        prefix = neg ? "-" : plus ? "+" : space ? " " : "";
        break;
      }
      case 'c': {
        int64_t v;
        if (is_str(arg)) {
          if (as_str(arg)->cplen != 1) raise(I, I.exc.TypeError, "%c requires int or char");
          body = as_str(arg)->s;
        } else if (int_value(arg, &v)) {
          if (v < 0 || v > 0x10FFFF) raise(I, I.exc.OverflowError, "%c arg not in range(0x110000)");
          utf8_append(body, static_cast<uint32_t>(v));
        } else {
          raise(I, I.exc.TypeError, "%c requires int or char");
        }
        break;
      }
      default:
        raisef(I, I.exc.ValueError, "unsupported format character '{}' (0x{:x}) at index {}", conv,
               static_cast<unsigned char>(conv), i - 1);
    }
    (void)start;
    int64_t len = utf8_length(prefix) + utf8_length(body);
    if (width > len) {
      int64_t n = width - len;
      if (left)
        out += prefix + body + std::string(n, ' ');
      else if (zero && numeric)
        out += prefix + std::string(n, '0') + body;
      else
        out += std::string(n, ' ') + prefix + body;
    } else {
      out += prefix + body;
    }
  }
  if (is_tuple_args && argi < items.size())
    raise(I, I.exc.TypeError, "not all arguments converted during string formatting");
  if (!is_tuple_args && !used_single && !mapping && !used_mapping_key)
    raise(I, I.exc.TypeError, "not all arguments converted during string formatting");
  (void)used_mapping_key;
  return I.str(std::move(out));
}

// ---- str.format ------------------------------------------------------------------------------------

namespace {

struct FormatState {
  Interp& I;
  const Args& a;
  int auto_index = 0;
  bool manual = false;
  bool automatic = false;
};

Value lookup_field(FormatState& st, std::string_view field) {
  Interp& I = st.I;
  size_t i = 0;
  while (i < field.size() && field[i] != '.' && field[i] != '[') ++i;
  std::string_view head = field.substr(0, i);
  Value v;
  if (head.empty()) {
    if (st.manual)
      raise(I, I.exc.ValueError, "cannot switch from manual field specification to automatic field numbering");
    st.automatic = true;
    int k = st.auto_index++;
    if (k >= static_cast<int>(st.a.npos))
      raisef(I, I.exc.IndexError, "Replacement index {} out of range for positional args tuple", k);
    v = st.a.pos[k];
  } else if (std::isdigit(static_cast<unsigned char>(head[0]))) {
    if (st.automatic)
      raise(I, I.exc.ValueError, "cannot switch from automatic field numbering to manual field specification");
    st.manual = true;
    int64_t k = 0;
    for (char c : head) {
      if (!std::isdigit(static_cast<unsigned char>(c))) {
        k = -1;
        break;
      }
      k = k * 10 + (c - '0');
    }
    if (k < 0 || k >= static_cast<int64_t>(st.a.npos))
      raisef(I, I.exc.IndexError, "Replacement index {} out of range for positional args tuple", head);
    v = st.a.pos[k];
  } else {
    for (uint32_t k = 0; k < st.a.nkw; ++k)
      if (st.a.kwnames[k]->s == head) v = st.a.kwvals[k];
    if (!v) raise_key_error(I, I.str(head));
  }
  while (i < field.size()) {
    if (field[i] == '.') {
      size_t j = ++i;
      while (i < field.size() && field[i] != '.' && field[i] != '[') ++i;
      if (i == j) raise(I, I.exc.ValueError, "Empty attribute in format string");
      v = getattr(I, v, I.intern(field.substr(j, i - j)));
    } else if (field[i] == '[') {
      size_t j = ++i;
      while (i < field.size() && field[i] != ']') ++i;
      if (i >= field.size()) raise(I, I.exc.ValueError, "Missing ']' in format string");
      std::string_view key = field.substr(j, i - j);
      ++i;
      if (key.empty()) raise(I, I.exc.ValueError, "Empty attribute in format string");
      bool digits = true;
      for (char c : key)
        if (!std::isdigit(static_cast<unsigned char>(c))) digits = false;
      if (digits) {
        int64_t k = 0;
        for (char c : key) k = k * 10 + (c - '0');
        v = getitem(I, v, Value::integer(k));
      } else {
        v = getitem(I, v, I.str(key));
      }
      if (i < field.size() && field[i] != '.' && field[i] != '[')
        raise(I, I.exc.ValueError, "Only '.' or '[' may follow ']' in format field specifier");
    } else {
      raise(I, I.exc.ValueError, "Only '.' or '[' may follow ']' in format field specifier");
    }
  }
  return v;
}

std::string format_impl(FormatState& st, std::string_view f, int depth) {
  Interp& I = st.I;
  if (depth > 2) raise(I, I.exc.ValueError, "Max string recursion exceeded");
  std::string out;
  size_t i = 0;
  while (i < f.size()) {
    char c = f[i];
    if (c == '}') {
      if (i + 1 < f.size() && f[i + 1] == '}') {
        out += '}';
        i += 2;
        continue;
      }
      raise(I, I.exc.ValueError, "Single '}' encountered in format string");
    }
    if (c != '{') {
      out += c;
      ++i;
      continue;
    }
    if (i + 1 < f.size() && f[i + 1] == '{') {
      out += '{';
      i += 2;
      continue;
    }
    // Find the matching '}' (format specs may nest one level of {}).
    size_t j = i + 1;
    int nest = 1;
    size_t field_end = std::string_view::npos, conv_pos = std::string_view::npos, spec_pos = std::string_view::npos;
    bool in_brackets = false;
    while (j < f.size()) {
      char d = f[j];
      if (spec_pos == std::string_view::npos && d == '[') in_brackets = true;
      if (in_brackets) {
        if (d == ']') in_brackets = false;
        ++j;
        continue;
      }
      if (d == '{') ++nest;
      if (d == '}') {
        if (--nest == 0) break;
      }
      if (nest == 1 && spec_pos == std::string_view::npos) {
        if (d == '!' && conv_pos == std::string_view::npos) conv_pos = j;
        if (d == ':') spec_pos = j;
      }
      ++j;
    }
    if (j >= f.size()) {
      if (in_brackets) raise(I, I.exc.ValueError, "expected '}' before end of string");
      raise(I, I.exc.ValueError, "Single '{' encountered in format string");
    }
    field_end = std::min({conv_pos, spec_pos, j});
    std::string_view field = f.substr(i + 1, field_end - i - 1);
    char conversion = 0;
    if (conv_pos != std::string_view::npos && conv_pos < std::min(spec_pos, j)) {
      size_t cend = std::min(spec_pos, j);
      if (cend - conv_pos != 2)
        raise(I, I.exc.ValueError, "expected ':' after conversion specifier");
      conversion = f[conv_pos + 1];
    }
    Value v = lookup_field(st, field);
    std::string spec;
    if (spec_pos != std::string_view::npos && spec_pos < j)
      spec = format_impl(st, f.substr(spec_pos + 1, j - spec_pos - 1), depth + 1);
    if (conversion == 'r') v = repr(I, v);
    else if (conversion == 's') v = to_str(I, v);
    else if (conversion == 'a') v = I.str(ascii_of(I, v));
    else if (conversion) raisef(I, I.exc.ValueError, "Unknown conversion specifier {}", conversion);
    out += format_value(I, v, spec);
    i = j + 1;
  }
  return out;
}

}  // namespace

std::string str_format(Interp& I, std::string_view fmt, const Args& a) {
  FormatState st{I, a};
  return format_impl(st, fmt, 0);
}

}  // namespace onnxify::eval
