#include "syntax/literals.h"

#include <fmt/core.h>

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <vector>

#include "syntax/token.h"
#include "syntax/unicode.h"

namespace onnxify::syntax {

namespace {

int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

bool fail(LiteralError* err, uint32_t offset, std::string message) {
  err->offset = offset;
  err->message = std::move(message);
  return false;
}

std::string utf8_message(std::string_view run, size_t i) {
  int len;
  const char* reason = unicode::utf8_error_reason(run, i, &len);
  return fmt::format("(unicode error) 'utf-8' codec can't decode byte 0x{:02x} in position {}: {}",
                     static_cast<unsigned char>(run[i]), i, reason);
}

// A raw literal (or one without backslashes): the text itself, line ends translated, checked as
// UTF-8 (str) or ASCII (bytes).
bool copy_plain(std::string_view text, uint32_t begin, uint32_t end, bool bytes, std::string& out,
                LiteralError* err) {
  for (uint32_t i = begin; i < end;) {
    char c = text[i];
    unsigned char u = static_cast<unsigned char>(c);
    if (c == '\r') {
      out += '\n';
      i += (i + 1 < end && text[i + 1] == '\n') ? 2 : 1;
    } else if (u < 0x80) {
      out += c;
      ++i;
    } else if (bytes) {
      return fail(err, i, "bytes can only contain ASCII literal characters");
    } else {
      char32_t cp;
      int n = unicode::decode_utf8(text.substr(0, end), i, &cp);
      if (n == 0) return fail(err, i, utf8_message(text.substr(begin, end - begin), i - begin));
      out.append(text.substr(i, n));
      i += n;
    }
  }
  return true;
}

// Escapes of a bytes literal (CPython's _PyBytes_DecodeEscape).
bool decode_bytes_escapes(std::string_view text, uint32_t begin, uint32_t end, std::string& out,
                          LiteralError* err) {
  for (uint32_t i = begin; i < end;) {
    char c = text[i];
    if (static_cast<unsigned char>(c) >= 0x80)
      return fail(err, i, "bytes can only contain ASCII literal characters");
    if (c == '\r') {
      out += '\n';
      i += (i + 1 < end && text[i + 1] == '\n') ? 2 : 1;
      continue;
    }
    if (c != '\\' || i + 1 >= end) {
      out += c;
      ++i;
      continue;
    }
    const uint32_t backslash = i;
    char e = text[i + 1];
    i += 2;
    switch (e) {
      case '\n':
        break;
      case '\r':
        if (i < end && text[i] == '\n') ++i;
        break;
      case '\\':
      case '\'':
      case '"':
        out += e;
        break;
      case 'b':
        out += '\b';
        break;
      case 'f':
        out += '\f';
        break;
      case 't':
        out += '\t';
        break;
      case 'n':
        out += '\n';
        break;
      case 'r':
        out += '\r';
        break;
      case 'v':
        out += '\v';
        break;
      case 'a':
        out += '\a';
        break;
      case '0':
      case '1':
      case '2':
      case '3':
      case '4':
      case '5':
      case '6':
      case '7': {
        int v = e - '0';
        for (int k = 0; k < 2 && i < end && text[i] >= '0' && text[i] <= '7'; ++k)
          v = v * 8 + (text[i++] - '0');
        out += static_cast<char>(v & 0xFF);
        break;
      }
      case 'x': {
        int h1 = i < end ? hex_value(text[i]) : -1;
        int h2 = i + 1 < end ? hex_value(text[i + 1]) : -1;
        if (h1 < 0 || h2 < 0)
          return fail(err, backslash,
                      fmt::format("(value error) invalid \\x escape at position {}", backslash - begin));
        out += static_cast<char>(h1 * 16 + h2);
        i += 2;
        break;
      }
      default:
        // An unknown escape keeps its backslash (CPython warns).
        out += '\\';
        out += e;
        if (static_cast<unsigned char>(e) >= 0x80)
          return fail(err, i - 1, "bytes can only contain ASCII literal characters");
        break;
    }
  }
  return true;
}

// Escapes of a str literal, as CPython's decode_unicode_with_escapes: non-ASCII characters are
// first rewritten as \U escapes, so an error's "position" counts 10 for each of them (and 6 for a
// backslash before one, or at the very end, which stays a backslash).
bool decode_str_escapes(std::string_view text, uint32_t begin, uint32_t end, std::string& out,
                        LiteralError* err) {
  size_t tpos = 0;  // position in CPython's rewritten buffer
  for (uint32_t i = begin; i < end;) {
    char c = text[i];
    unsigned char u = static_cast<unsigned char>(c);
    if (c == '\r') {
      out += '\n';
      i += (i + 1 < end && text[i + 1] == '\n') ? 2 : 1;
      ++tpos;
      continue;
    }
    if (u >= 0x80) {
      // A run of non-ASCII bytes is decoded as UTF-8 on its own.
      uint32_t run_end = i;
      while (run_end < end && static_cast<unsigned char>(text[run_end]) >= 0x80) ++run_end;
      std::string_view run = text.substr(i, run_end - i);
      for (size_t k = 0; k < run.size();) {
        char32_t cp;
        int n = unicode::decode_utf8(run, k, &cp);
        if (n == 0) return fail(err, i + static_cast<uint32_t>(k), utf8_message(run, k));
        k += n;
        tpos += 10;
      }
      out.append(run);
      i = run_end;
      continue;
    }
    if (c != '\\') {
      out += c;
      ++i;
      ++tpos;
      continue;
    }
    if (i + 1 >= end || static_cast<unsigned char>(text[i + 1]) >= 0x80) {
      out += '\\';  // kept as "\u005c"
      ++i;
      tpos += 6;
      continue;
    }
    const uint32_t backslash = i;
    const size_t start_tpos = tpos;
    char e = text[i + 1];
    i += 2;
    tpos += 2;
    auto escape_error = [&](uint32_t stop, const char* why) {
      size_t stop_tpos = start_tpos + (stop - backslash);
      return fail(
          err, backslash,
          fmt::format("(unicode error) 'unicodeescape' codec can't decode bytes in position {}-{}: {}",
                      start_tpos, stop_tpos - 1, why));
    };
    switch (e) {
      case '\n':
        break;
      case '\r':
        if (i < end && text[i] == '\n') {
          ++i;
          ++tpos;
        }
        break;
      case '\\':
      case '\'':
      case '"':
        out += e;
        break;
      case 'b':
        out += '\b';
        break;
      case 'f':
        out += '\f';
        break;
      case 't':
        out += '\t';
        break;
      case 'n':
        out += '\n';
        break;
      case 'r':
        out += '\r';
        break;
      case 'v':
        out += '\v';
        break;
      case 'a':
        out += '\a';
        break;
      case '0':
      case '1':
      case '2':
      case '3':
      case '4':
      case '5':
      case '6':
      case '7': {
        char32_t v = e - '0';
        for (int k = 0; k < 2 && i < end && text[i] >= '0' && text[i] <= '7'; ++k, ++tpos)
          v = v * 8 + (text[i++] - '0');
        unicode::append_utf8(out, v);
        break;
      }
      case 'x':
      case 'u':
      case 'U': {
        int count = e == 'x' ? 2 : e == 'u' ? 4 : 8;
        const char* why = e == 'x'   ? "truncated \\xXX escape"
                          : e == 'u' ? "truncated \\uXXXX escape"
                                     : "truncated \\UXXXXXXXX escape";
        uint32_t v = 0;
        for (; count; --count, ++i, ++tpos) {
          int h = i < end ? hex_value(text[i]) : -1;
          if (h < 0) return escape_error(i, why);
          v = v * 16 + h;
        }
        if (v > 0x10FFFF) return escape_error(i, "illegal Unicode character");
        unicode::append_utf8(out, v);
        break;
      }
      case 'N': {
        const char* malformed = "malformed \\N character escape";
        if (i >= end || text[i] != '{') return escape_error(i, malformed);
        uint32_t name_begin = ++i;
        while (i < end && text[i] != '}') ++i;
        if (i >= end) return escape_error(i, malformed);
        uint32_t name_end = i++;
        if (name_end == name_begin) return escape_error(i - 1, malformed);
        char32_t cp;
        if (!unicode::lookup_name(text.substr(name_begin, name_end - name_begin), &cp))
          return escape_error(i, "unknown Unicode character name");
        unicode::append_utf8(out, cp);
        tpos += i - name_begin + 1;
        break;
      }
      default:
        // An unknown escape keeps its backslash (CPython warns).
        out += '\\';
        out += e;
        break;
    }
  }
  return true;
}

}  // namespace

bool literal_is_verbatim(std::string_view body, uint8_t flags) {
  bool raw = flags & kStrRaw;
  bool bytes = flags & kStrBytes;
  for (size_t i = 0; i < body.size();) {
    unsigned char c = static_cast<unsigned char>(body[i]);
    if (c == '\r' || (c == '\\' && !raw)) return false;
    if (c < 0x80) {
      ++i;
      continue;
    }
    if (bytes) return false;
    char32_t cp;
    int n = unicode::decode_utf8(body, i, &cp);
    if (n == 0) return false;
    i += n;
  }
  return true;
}

bool decode_literal(std::string_view text, uint32_t begin, uint32_t end, uint8_t flags, std::string& out,
                    LiteralError* err) {
  bool bytes = flags & kStrBytes;
  if (flags & kStrRaw) return copy_plain(text, begin, end, bytes, out, err);
  if (bytes) return decode_bytes_escapes(text, begin, end, out, err);
  return decode_str_escapes(text, begin, end, out, err);
}

namespace {

// Decimal digits of a non-negative integer given as little-endian 32-bit limbs.
std::string to_decimal(std::vector<uint32_t> limbs) {
  std::vector<uint32_t> chunks;  // base 10^9, least significant first
  while (!limbs.empty()) {
    uint64_t rem = 0;
    for (size_t i = limbs.size(); i-- > 0;) {
      uint64_t cur = (rem << 32) | limbs[i];
      limbs[i] = static_cast<uint32_t>(cur / 1000000000u);
      rem = cur % 1000000000u;
    }
    chunks.push_back(static_cast<uint32_t>(rem));
    while (!limbs.empty() && limbs.back() == 0) limbs.pop_back();
  }
  if (chunks.empty()) return "0";
  std::string s = fmt::format("{}", chunks.back());
  for (size_t i = chunks.size() - 1; i-- > 0;) s += fmt::format("{:09}", chunks[i]);
  return s;
}

// CPython refuses to convert integers of more than this many decimal digits (sys.int_info).
constexpr size_t kMaxStrDigits = 4300;
// Binary, octal and hexadecimal literals are converted to decimal for the tree; this bounds the
// (quadratic) conversion. CPython would parse larger ones but could not print them either.
constexpr size_t kMaxIntBits = 100000;

}  // namespace

bool parse_number(std::string_view token, Arena& arena, ast::ConstantValue* out, LiteralError* err) {
  std::string digits;
  digits.reserve(token.size());
  for (char c : token)
    if (c != '_') digits += c;
  char last = digits.back();
  bool imaginary = last == 'j' || last == 'J';
  if (imaginary) digits.pop_back();
  bool prefixed = digits.size() > 2 && digits[0] == '0' && std::strchr("xXoObB", digits[1]);
  bool is_float = !prefixed && digits.find_first_of(".eE") != std::string::npos;
  if (imaginary || is_float) {
    // strtod rounds correctly and overflows to inf like CPython's float parser.
    double v = std::strtod(digits.c_str(), nullptr);
    *out = imaginary ? ast::ConstantValue::imaginary(v) : ast::ConstantValue::floating(v);
    return true;
  }
  int base = 10;
  size_t at = 0;
  if (prefixed) {
    char b = static_cast<char>(digits[1] | 0x20);
    base = b == 'x' ? 16 : b == 'o' ? 8 : 2;
    at = 2;
  }
  // The value as long as it fits in 64 bits.
  uint64_t v = 0;
  bool fits = true;
  for (size_t i = at; i < digits.size(); ++i) {
    uint64_t d = static_cast<uint64_t>(hex_value(digits[i]));
    if (v > (UINT64_MAX - d) / base) {
      fits = false;
      break;
    }
    v = v * base + d;
  }
  if (fits && v <= static_cast<uint64_t>(INT64_MAX)) {
    *out = ast::ConstantValue::integer(static_cast<int64_t>(v));
    return true;
  }
  if (base == 10) {
    size_t first = digits.find_first_not_of('0');
    std::string_view d = std::string_view(digits).substr(first);
    if (d.size() > kMaxStrDigits)
      return fail(err, 0,
                  fmt::format("Exceeds the limit ({} digits) for integer string conversion: value has {} "
                              "digits; use sys.set_int_max_str_digits() to increase the limit - Consider "
                              "hexadecimal for huge integer literals to avoid decimal conversion limits.",
                              kMaxStrDigits, d.size()));
    *out = ast::ConstantValue::big_integer(arena.copy(d));
    return true;
  }
  int bits_per_digit = base == 16 ? 4 : base == 8 ? 3 : 1;
  if ((digits.size() - at) * bits_per_digit > kMaxIntBits)
    return fail(err, 0,
                fmt::format("integer literal too large: onnxify accepts at most {} bits", kMaxIntBits));
  std::vector<uint32_t> limbs;
  size_t bit = 0;
  for (size_t i = digits.size(); i-- > at;) {
    uint32_t d = static_cast<uint32_t>(hex_value(digits[i]));
    for (int k = 0; k < bits_per_digit; ++k, ++bit) {
      if (bit / 32 >= limbs.size()) limbs.push_back(0);
      if (d & (1u << k)) limbs[bit / 32] |= 1u << (bit % 32);
    }
  }
  while (!limbs.empty() && limbs.back() == 0) limbs.pop_back();
  *out = ast::ConstantValue::big_integer(arena.copy(to_decimal(std::move(limbs))));
  return true;
}

}  // namespace onnxify::syntax
