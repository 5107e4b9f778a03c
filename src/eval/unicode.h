// Unicode character properties and case mappings, as CPython 3.11's str methods see them (the tables
// are generated from CPython's Unicode 14.0 database by tools/gen_unicode.py).
#pragma once

#include <cstdint>
#include <string>

namespace onnxify::eval::uni {

enum : uint16_t {
  kAlpha = 1u << 0,
  kDecimal = 1u << 1,
  kDigit = 1u << 2,
  kNumeric = 1u << 3,
  kSpace = 1u << 4,
  kLower = 1u << 5,
  kUpper = 1u << 6,
  kTitle = 1u << 7,
  kPrintable = 1u << 8,
  kIdStart = 1u << 9,
  kIdContinue = 1u << 10,
  kCased = 1u << 11,
  kCaseIgnorable = 1u << 12,
  kLinebreak = 1u << 13,
};

uint16_t flags(char32_t c);
inline bool has(char32_t c, uint16_t f) { return (flags(c) & f) != 0; }
// The decimal digit value (0-9) of c, or -1.
int decimal(char32_t c);

// Full case mappings (one code point may map to several: 'ß'.upper() == 'SS'), appended to out.
void append_upper(char32_t c, std::u32string& out);
void append_lower(char32_t c, std::u32string& out);
void append_title(char32_t c, std::u32string& out);
void append_fold(char32_t c, std::u32string& out);

}  // namespace onnxify::eval::uni
