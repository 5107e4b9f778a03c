#include "syntax/unicode.h"

#include <algorithm>
#include <vector>

namespace onnxify::syntax::unicode {

namespace {

struct CodeRange {
  char32_t first, last;
};
struct CombiningRun {
  char32_t first, last;
  uint8_t ccc;
};
struct Decomposition {
  char32_t cp;
  uint32_t offset;
  uint32_t length;
};
struct Composition {
  char32_t first, second, composite;
};

#include "syntax/unicode_tables.inc"

template <size_t N>
bool in_ranges(const CodeRange (&table)[N], char32_t cp) {
  auto it = std::upper_bound(std::begin(table), std::end(table), cp,
                             [](char32_t c, const CodeRange& r) { return c < r.first; });
  return it != std::begin(table) && cp <= (it - 1)->last;
}

// Hangul syllables decompose and compose algorithmically (Unicode 3.12).
constexpr char32_t kSBase = 0xAC00, kLBase = 0x1100, kVBase = 0x1161, kTBase = 0x11A7;
constexpr int kLCount = 19, kVCount = 21, kTCount = 28, kNCount = kVCount * kTCount,
              kSCount = kLCount * kNCount;

uint8_t combining_class(char32_t cp) {
  if (cp < 0x300) return 0;
  auto it = std::upper_bound(std::begin(kCombiningClass), std::end(kCombiningClass), cp,
                             [](char32_t c, const CombiningRun& r) { return c < r.first; });
  if (it == std::begin(kCombiningClass)) return 0;
  --it;
  return cp <= it->last ? it->ccc : 0;
}

void decompose(char32_t cp, std::vector<char32_t>& out) {
  if (cp >= kSBase && cp < kSBase + kSCount) {
    int s = cp - kSBase;
    out.push_back(kLBase + s / kNCount);
    out.push_back(kVBase + (s % kNCount) / kTCount);
    if (s % kTCount) out.push_back(kTBase + s % kTCount);
    return;
  }
  auto it = std::lower_bound(std::begin(kDecompIndex), std::end(kDecompIndex), cp,
                             [](const Decomposition& d, char32_t c) { return d.cp < c; });
  if (it != std::end(kDecompIndex) && it->cp == cp) {
    out.insert(out.end(), kDecompData + it->offset, kDecompData + it->offset + it->length);
  } else {
    out.push_back(cp);
  }
}

char32_t compose(char32_t a, char32_t b) {
  if (a >= kLBase && a < kLBase + kLCount && b >= kVBase && b < kVBase + kVCount)
    return kSBase + ((a - kLBase) * kVCount + (b - kVBase)) * kTCount;
  if (a >= kSBase && a < kSBase + kSCount && (a - kSBase) % kTCount == 0 && b > kTBase &&
      b < kTBase + kTCount)
    return a + (b - kTBase);
  auto it = std::lower_bound(std::begin(kCompose), std::end(kCompose), std::pair{a, b},
                             [](const Composition& c, std::pair<char32_t, char32_t> k) {
                               return c.first != k.first ? c.first < k.first : c.second < k.second;
                             });
  if (it != std::end(kCompose) && it->first == a && it->second == b) return it->composite;
  return 0;
}

}  // namespace

int decode_utf8(std::string_view s, size_t i, char32_t* cp) {
  auto byte = [&](size_t k) -> unsigned { return k < s.size() ? static_cast<unsigned char>(s[k]) : 0x100; };
  unsigned b0 = byte(i);
  if (b0 < 0x80) {
    *cp = b0;
    return 1;
  }
  auto cont = [&](size_t k) {
    unsigned b = byte(k);
    return b >= 0x80 && b < 0xC0;
  };
  if (b0 >= 0xC2 && b0 < 0xE0) {
    if (!cont(i + 1)) return 0;
    *cp = ((b0 & 0x1F) << 6) | (byte(i + 1) & 0x3F);
    return 2;
  }
  if (b0 >= 0xE0 && b0 < 0xF0) {
    unsigned b1 = byte(i + 1);
    if (!cont(i + 1) || !cont(i + 2)) return 0;
    if (b0 == 0xE0 && b1 < 0xA0) return 0;   // overlong
    if (b0 == 0xED && b1 >= 0xA0) return 0;  // surrogate
    *cp = ((b0 & 0x0F) << 12) | ((b1 & 0x3F) << 6) | (byte(i + 2) & 0x3F);
    return 3;
  }
  if (b0 >= 0xF0 && b0 < 0xF5) {
    unsigned b1 = byte(i + 1);
    if (!cont(i + 1) || !cont(i + 2) || !cont(i + 3)) return 0;
    if (b0 == 0xF0 && b1 < 0x90) return 0;   // overlong
    if (b0 == 0xF4 && b1 >= 0x90) return 0;  // beyond U+10FFFF
    *cp = ((b0 & 0x07) << 18) | ((b1 & 0x3F) << 12) | ((byte(i + 2) & 0x3F) << 6) | (byte(i + 3) & 0x3F);
    return 4;
  }
  return 0;
}

const char* utf8_error_reason(std::string_view s, size_t i, int* length) {
  // Mirrors CPython's decoder: the longest valid prefix of a sequence decides between
  // "unexpected end of data" (the input ends inside it) and "invalid continuation byte".
  auto byte = [&](size_t k) -> int { return k < s.size() ? static_cast<unsigned char>(s[k]) : -1; };
  int b0 = byte(i);
  int need = b0 >= 0xC2 && b0 < 0xE0 ? 1 : b0 >= 0xE0 && b0 < 0xF0 ? 2 : b0 >= 0xF0 && b0 < 0xF5 ? 3 : -1;
  *length = 1;
  if (need < 0) return "invalid start byte";
  for (int k = 1; k <= need; ++k) {
    int b = byte(i + k);
    if (b < 0) return *length = k, "unexpected end of data";
    int lo = 0x80, hi = 0xBF;
    if (k == 1) {
      if (b0 == 0xE0) lo = 0xA0;
      if (b0 == 0xED) hi = 0x9F;
      if (b0 == 0xF0) lo = 0x90;
      if (b0 == 0xF4) hi = 0x8F;
    }
    if (b < lo || b > hi) return *length = k, "invalid continuation byte";
  }
  return "invalid start byte";
}

void append_utf8(std::string& out, char32_t cp) {
  if (cp < 0x80) {
    out += static_cast<char>(cp);
  } else if (cp < 0x800) {
    out += static_cast<char>(0xC0 | (cp >> 6));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else if (cp < 0x10000) {
    out += static_cast<char>(0xE0 | (cp >> 12));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | (cp >> 18));
    out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  }
}

bool is_xid_start(char32_t cp) { return in_ranges(kXidStart, cp); }
bool is_xid_continue(char32_t cp) { return in_ranges(kXidContinue, cp); }
bool is_printable(char32_t cp) { return in_ranges(kPrintable, cp); }

std::string nfkc(std::string_view utf8) {
  std::vector<char32_t> cps;
  for (size_t i = 0; i < utf8.size();) {
    char32_t cp;
    int n = decode_utf8(utf8, i, &cp);
    if (n == 0) {
      cp = static_cast<unsigned char>(utf8[i]);
      n = 1;
    }
    i += n;
    decompose(cp, cps);
  }
  // Canonical ordering: stable sort of each run of non-starters by combining class.
  for (size_t i = 0; i < cps.size();) {
    if (combining_class(cps[i]) == 0) {
      ++i;
      continue;
    }
    size_t j = i;
    while (j < cps.size() && combining_class(cps[j]) != 0) ++j;
    std::stable_sort(cps.begin() + i, cps.begin() + j,
                     [](char32_t a, char32_t b) { return combining_class(a) < combining_class(b); });
    i = j;
  }
  // Canonical composition.
  std::vector<char32_t> out;
  out.reserve(cps.size());
  int starter = -1;
  int last_cc = -1;
  for (char32_t cp : cps) {
    int cc = combining_class(cp);
    if (starter >= 0) {
      bool blocked = last_cc != -1 && (last_cc == 0 || last_cc >= cc);
      if (!blocked) {
        if (char32_t c = compose(out[starter], cp)) {
          out[starter] = c;
          continue;
        }
      }
    }
    if (cc == 0) {
      starter = static_cast<int>(out.size());
      last_cc = -1;
    } else {
      last_cc = cc;
    }
    out.push_back(cp);
  }
  std::string s;
  for (char32_t cp : out) append_utf8(s, cp);
  return s;
}

}  // namespace onnxify::syntax::unicode
