// Lookups in the generated Unicode tables (see unicode.h).
#include "eval/unicode.h"

namespace onnxify::eval::uni {

namespace {
#include "eval/unicode_db.inc"

// The generator's flag order must match unicode.h.
static_assert(kUAlpha == kAlpha && kUDecimal == kDecimal && kUDigit == kDigit && kUNumeric == kNumeric &&
              kUSpace == kSpace && kULower == kLower && kUUpper == kUpper && kUTitle == kTitle &&
              kUPrintable == kPrintable && kUIdStart == kIdStart && kUIdContinue == kIdContinue &&
              kUCased == kCased && kUCaseIgnorable == kCaseIgnorable && kULinebreak == kLinebreak);

const UniRecord& record(char32_t c) {
  if (c >= 0x110000) c = 0xFFFF;  // a noncharacter: no properties
  return kUniRecords[kUniIndex2[kUniIndex1[c >> 8] * 256 + (c & 0xff)]];
}

void append_mapping(char32_t c, std::u32string& out, int32_t UniRecord::*delta, const char32_t* UniSpecial::*full) {
  const UniRecord& r = record(c);
  if (r.special) {
    out += kUniSpecials[r.special].*full;
    return;
  }
  out += static_cast<char32_t>(static_cast<int32_t>(c) + r.*delta);
}
}  // namespace

uint16_t flags(char32_t c) { return record(c).flags; }
int decimal(char32_t c) { return record(c).decimal; }

void append_upper(char32_t c, std::u32string& out) { append_mapping(c, out, &UniRecord::upper, &UniSpecial::upper); }
void append_lower(char32_t c, std::u32string& out) { append_mapping(c, out, &UniRecord::lower, &UniSpecial::lower); }
void append_title(char32_t c, std::u32string& out) { append_mapping(c, out, &UniRecord::title, &UniSpecial::title); }
void append_fold(char32_t c, std::u32string& out) {
  const UniRecord& r = record(c);
  if (r.special) {
    out += kUniSpecials[r.special].fold;
    return;
  }
  out += static_cast<char32_t>(static_cast<int32_t>(c) + r.lower);  // fold == lower when not special
}

}  // namespace onnxify::eval::uni
