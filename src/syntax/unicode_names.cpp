// Character names for "\N{...}" escapes, with CPython's lookup rules: names and aliases match
// case-insensitively; "HANGUL SYLLABLE <jamo>" and "CJK UNIFIED IDEOGRAPH-<hex>" are computed, with
// the prefix, the jamo and the hex digits in upper case only.
#include <string>
#include <unordered_map>
#include <vector>

#include "syntax/unicode.h"

namespace onnxify::syntax::unicode {

namespace {

#include "syntax/unicode_names.inc"

// The decoded name table, built on first use (a few milliseconds, only for files using \N).
const std::unordered_map<std::string, char32_t>& names() {
  static const std::unordered_map<std::string, char32_t> table = [] {
    std::vector<std::string_view> words;
    std::string_view all(kNameWords);
    for (size_t i = 0; i < all.size();) {
      size_t j = all.find(' ', i);
      words.push_back(all.substr(i, j - i));
      i = j + 1;
    }
    std::vector<uint8_t> data;
    data.reserve(kNameDataBytes);
    uint32_t acc = 0;
    int bits = 0;
    for (const char* p = kNameData; *p; ++p) {
      char c = *p;
      int v = c >= 'A' && c <= 'Z'   ? c - 'A'
              : c >= 'a' && c <= 'z' ? c - 'a' + 26
              : c >= '0' && c <= '9' ? c - '0' + 52
              : c == '+'             ? 62
                                     : 63;
      acc = (acc << 6) | v;
      bits += 6;
      if (bits >= 8) {
        bits -= 8;
        data.push_back(static_cast<uint8_t>(acc >> bits));
        acc &= (1u << bits) - 1;
      }
    }
    std::unordered_map<std::string, char32_t> map;
    map.reserve(kNameCount);
    size_t i = 0;
    auto varint = [&] {
      uint32_t v = 0;
      for (int shift = 0;; shift += 7) {
        uint8_t b = data[i++];
        v |= static_cast<uint32_t>(b & 0x7F) << shift;
        if (!(b & 0x80)) return v;
      }
    };
    char32_t cp = 0;
    for (int n = 0; n < kNameCount; ++n) {
      cp += varint();
      int count = data[i++];
      std::string name;
      for (int w = 0; w < count; ++w) {
        if (w) name += ' ';
        name += words[varint()];
      }
      map.emplace(std::move(name), cp);
    }
    return map;
  }();
  return table;
}

// The jamo short names of the Hangul syllable algorithm (Unicode 3.12).
constexpr const char* kJamoL[] = {"G",  "GG", "N", "D",  "DD", "R", "M", "B", "BB", "S",
                                  "SS", "",   "J", "JJ", "C",  "K", "T", "P", "H"};
constexpr const char* kJamoV[] = {"A",  "AE", "YA", "YAE", "EO", "E",  "YEO", "YE", "O",  "WA", "WAE",
                                  "OE", "YO", "U",  "WEO", "WE", "WI", "YU",  "EU", "YI", "I"};
constexpr const char* kJamoT[] = {"",   "G",  "GG", "GS", "N",  "NJ", "NH", "D", "L",  "LG",
                                  "LM", "LB", "LS", "LT", "LP", "LH", "M",  "B", "BS", "S",
                                  "SS", "NG", "J",  "C",  "K",  "T",  "P",  "H"};

// The longest jamo name of `table` at the start of `s` (CPython's find_syllable).
template <size_t N>
int longest_jamo(std::string_view& s, const char* const (&table)[N]) {
  int best = -1;
  size_t best_len = 0;
  for (size_t i = 0; i < N; ++i) {
    std::string_view j(table[i]);
    if (s.substr(0, j.size()) == j && (best < 0 || j.size() > best_len)) {
      best = static_cast<int>(i);
      best_len = j.size();
    }
  }
  if (best >= 0) s.remove_prefix(best_len);
  return best;
}

}  // namespace

bool lookup_name(std::string_view name, char32_t* cp) {
  constexpr std::string_view kHangul = "HANGUL SYLLABLE ";
  constexpr std::string_view kCjk = "CJK UNIFIED IDEOGRAPH-";
  if (name.substr(0, kHangul.size()) == kHangul) {
    std::string_view rest = name.substr(kHangul.size());
    int l = longest_jamo(rest, kJamoL), v = longest_jamo(rest, kJamoV), t = longest_jamo(rest, kJamoT);
    if (l >= 0 && v >= 0 && t >= 0 && rest.empty()) {
      *cp = 0xAC00 + (l * 21 + v) * 28 + t;
      return true;
    }
    return false;
  }
  if (name.substr(0, kCjk.size()) == kCjk) {
    std::string_view hex = name.substr(kCjk.size());
    if (hex.size() != 4 && hex.size() != 5) return false;
    char32_t v = 0;
    for (char c : hex) {
      if (c >= '0' && c <= '9')
        v = v * 16 + (c - '0');
      else if (c >= 'A' && c <= 'F')
        v = v * 16 + (c - 'A' + 10);
      else
        return false;
    }
    for (const auto& r : kCjkUnified)
      if (v >= r[0] && v <= r[1]) {
        *cp = v;
        return true;
      }
    return false;
  }
  std::string upper(name);
  for (char& c : upper)
    if (c >= 'a' && c <= 'z') c = static_cast<char>(c - 'a' + 'A');
  auto it = names().find(upper);
  if (it == names().end()) return false;
  *cp = it->second;
  return true;
}

}  // namespace onnxify::syntax::unicode
