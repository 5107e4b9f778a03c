// str: UTF-8 storage with code-point semantics (indexing, slicing, len), CPython's repr, and the
// str methods real code uses.
#include <algorithm>
#include <array>
#include <cstdlib>
#include <cstring>

#include <xxhash.h>

#include "eval/internal.h"
#include "eval/poison.h"
#include "eval/unicode.h"

namespace onnxify::eval {

// ---- UTF-8 ---------------------------------------------------------------------------------------------

uint32_t utf8_next(std::string_view s, size_t& i) {
  unsigned char c = static_cast<unsigned char>(s[i]);
  if (c < 0x80) {
    ++i;
    return c;
  }
  int n = c >= 0xF0 ? 3 : c >= 0xE0 ? 2 : c >= 0xC0 ? 1 : 0;
  if (n == 0 || i + n >= s.size()) {
    ++i;
    return 0xFFFD;
  }
  uint32_t cp = c & (0x3F >> n);
  for (int k = 1; k <= n; ++k) {
    unsigned char d = static_cast<unsigned char>(s[i + k]);
    if ((d & 0xC0) != 0x80) {
      ++i;
      return 0xFFFD;
    }
    cp = (cp << 6) | (d & 0x3F);
  }
  i += n + 1;
  return cp;
}

void utf8_append(std::string& out, uint32_t cp) {
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

size_t ascii_run_end(std::string_view s, size_t i) {
  for (uint64_t w; i + 8 <= s.size(); i += 8) {
    std::memcpy(&w, s.data() + i, 8);
    if (w & 0x8080808080808080ull) break;
  }
  while (i < s.size() && static_cast<unsigned char>(s[i]) < 0x80) ++i;
  return i;
}

int64_t utf8_length(std::string_view s, bool* ascii) {
  // ASCII runs (most text: identifiers, docstrings) are counted 8 bytes at a time.
  size_t i = ascii_run_end(s, 0);
  int64_t n = static_cast<int64_t>(i);
  bool a = true;
  for (unsigned char c : s.substr(i)) {
    if ((c & 0xC0) != 0x80) ++n;
    if (c >= 0x80) a = false;
  }
  if (ascii) *ascii = a;
  return n;
}

size_t utf8_offset(const Str* s, int64_t cp_index) {
  if (s->ascii) return static_cast<size_t>(cp_index);
  const std::string& b = s->s;
  if (cp_index <= 0) return 0;
  if (cp_index >= s->cplen) return b.size();
  // Start from the nearest of the start, the last lookup and the end.
  int64_t n = 0;
  size_t i = 0;
  if (s->byte_hint > b.size()) s->cp_hint = 0, s->byte_hint = 0;  // (a string changed after a lookup)
  int64_t from_hint = cp_index - s->cp_hint;
  if (std::llabs(from_hint) < cp_index) n = s->cp_hint, i = s->byte_hint;
  if (s->cplen - cp_index < std::llabs(cp_index - n)) n = s->cplen, i = b.size();
  while (n < cp_index && i < b.size()) {
    utf8_next(b, i);
    ++n;
  }
  while (n > cp_index && i > 0) {  // back over one code point: its continuation bytes, then its lead byte
    do --i;
    while (i > 0 && (static_cast<unsigned char>(b[i]) & 0xC0) == 0x80);
    --n;
  }
  s->cp_hint = n;
  s->byte_hint = i;
  return i;
}

static std::u32string to_u32(std::string_view s) {
  std::u32string out;
  out.reserve(s.size());
  size_t i = 0;
  while (i < s.size()) out += static_cast<char32_t>(utf8_next(s, i));
  return out;
}

static std::string from_u32(std::u32string_view s) {
  std::string out;
  out.reserve(s.size());
  for (char32_t c : s) utf8_append(out, c);
  return out;
}

// ---- creation and hashing -------------------------------------------------------------------------------

// Hashes are CPython's with hash randomization off (PYTHONHASHSEED=0): SipHash-1-3 with a zero key
// over the bytes (for str: its compact representation, one, two or four bytes per code point as
// PEP 393 stores it). So sets and dicts keyed by strings iterate in CPython's order, and hash("x")
// prints the same number.
static inline uint64_t rotl(uint64_t x, int b) { return (x << b) | (x >> (64 - b)); }

static inline void sip_round(uint64_t& v0, uint64_t& v1, uint64_t& v2, uint64_t& v3) {
  v0 += v1;
  v2 += v3;
  v1 = rotl(v1, 13) ^ v0;
  v3 = rotl(v3, 16) ^ v2;
  v0 = rotl(v0, 32);
  v2 += v1;
  v0 += v3;
  v1 = rotl(v1, 17) ^ v2;
  v3 = rotl(v3, 21) ^ v0;
  v2 = rotl(v2, 32);
}

static uint64_t siphash13(const unsigned char* in, size_t n) {
  uint64_t v0 = 0x736f6d6570736575ull, v1 = 0x646f72616e646f6dull;
  uint64_t v2 = 0x6c7967656e657261ull, v3 = 0x7465646279746573ull;
  uint64_t b = static_cast<uint64_t>(n) << 56;
  for (; n >= 8; in += 8, n -= 8) {
    uint64_t m = 0;
    for (int k = 7; k >= 0; --k) m = (m << 8) | in[k];  // little-endian load
    v3 ^= m;
    sip_round(v0, v1, v2, v3);
    v0 ^= m;
  }
  uint64_t t = 0;
  for (size_t k = n; k-- > 0;) t = (t << 8) | in[k];
  b |= t;
  v3 ^= b;
  sip_round(v0, v1, v2, v3);
  v0 ^= b;
  v2 ^= 0xff;
  sip_round(v0, v1, v2, v3);
  sip_round(v0, v1, v2, v3);
  sip_round(v0, v1, v2, v3);
  return (v0 ^ v1) ^ (v2 ^ v3);
}

static int64_t finish_hash(uint64_t h) {
  int64_t r = static_cast<int64_t>(h);
  return r == -1 ? -2 : r;
}

int64_t bytes_hash(std::string_view s) {
  if (s.empty()) return 0;
  return finish_hash(siphash13(reinterpret_cast<const unsigned char*>(s.data()), s.size()));
}

int64_t str_hash(Str* s) {
  if (s->hash != -1) return s->hash;
  if (s->ascii) {
    s->hash = bytes_hash(s->s);
    return s->hash;
  }
  std::u32string u = to_u32(s->s);
  char32_t maxc = 0;
  for (char32_t c : u) maxc = std::max(maxc, c);
  size_t width = maxc < 0x100 ? 1 : maxc < 0x10000 ? 2 : 4;
  std::string buf(u.size() * width, '\0');
  for (size_t i = 0; i < u.size(); ++i)
    for (size_t k = 0; k < width; ++k) buf[i * width + k] = static_cast<char>((u[i] >> (8 * k)) & 0xff);
  s->hash = bytes_hash(buf);
  return s->hash;
}

static Ref<Str> make_str(Interp& I, std::string&& s, Type* type = nullptr) {
  auto r = I.make<Str>(type ? type : I.t.str, s.size() > 15 ? s.capacity() : 0);
  r->cplen = utf8_length(s, &r->ascii);
  r->s = std::move(s);
  return r;
}

Value new_str(Interp& I, std::string&& s) {
  if (s.size() <= 1) {
    if (s.empty()) return Value::borrow(I.names.empty);
    unsigned char c = static_cast<unsigned char>(s[0]);
    if (c < 128) return Value::borrow(I.ascii_chars[c]);
  }
  return make_str(I, std::move(s)).take_value();
}
Value new_str(Interp& I, std::string_view s) { return new_str(I, std::string(s)); }

// A str whose length in code points (and whether it is ASCII) the caller knows from the strs it
// was made of, so its text is not scanned again: pieces of a str (a split, a line, a strip, a
// slice), concatenations, repetitions. The scan was a measured cost of transformers' import, which
// splits hundreds of source files into lines and slices and concatenates docstrings.
static Value known_str(Interp& I, std::string&& text, int64_t cplen, bool ascii) {
  if (text.size() <= 1) return new_str(I, std::move(text));
  auto r = I.make<Str>(I.t.str, text.size() > 15 ? text.capacity() : 0);
  r->cplen = cplen;
  r->ascii = ascii;
  r->s = std::move(text);
  return r.take_value();
}

// A piece of `whole`'s text: when `whole` is ASCII so is the piece.
static Value piece_of(Interp& I, const Str* whole, std::string_view piece) {
  if (!whole->ascii) return new_str(I, piece);
  return known_str(I, std::string(piece), static_cast<int64_t>(piece.size()), true);
}

Value Interp::str(std::string_view s) { return new_str(*this, s); }
Value Interp::str(std::string&& s) { return new_str(*this, std::move(s)); }

Str* Interp::intern(std::string_view s) {
  const uint64_t h = XXH3_64bits(s.data(), s.size());
  if (interned_.empty()) interned_.resize(size_t{1} << 12);
  size_t mask = interned_.size() - 1;
  size_t i = static_cast<size_t>(h) & mask;
  for (; interned_[i].str; i = (i + 1) & mask)
    if (interned_[i].hash == h && interned_[i].str->s == s) return interned_[i].str;
  Ref<Str> r = make_str(*this, std::string(s));
  Str* p = r.release();  // the table keeps this reference for the interpreter's life
  p->interned = true;
  str_hash(p);
  interned_[i] = {h, p};
  if (++interned_count_ * 2 > interned_.size()) {
    std::vector<InternSlot> bigger(interned_.size() * 2);
    mask = bigger.size() - 1;
    for (const InternSlot& slot : interned_) {
      if (!slot.str) continue;
      size_t j = static_cast<size_t>(slot.hash) & mask;
      while (bigger[j].str) j = (j + 1) & mask;
      bigger[j] = slot;
    }
    interned_.swap(bigger);
  }
  return p;
}

// ---- repr ----------------------------------------------------------------------------------------------

static bool is_printable_cp(uint32_t c) {
  if (c < 0x7F) return c >= 0x20;
  return uni::has(c, uni::kPrintable);
}

std::string str_repr(std::string_view s) {
  bool has_single = s.find('\'') != std::string_view::npos;
  bool has_double = s.find('"') != std::string_view::npos;
  char q = (has_single && !has_double) ? '"' : '\'';
  std::string out;
  out.reserve(s.size() + 2);
  out += q;
  size_t i = 0;
  while (i < s.size()) {
    uint32_t c = utf8_next(s, i);
    if (c == static_cast<uint32_t>(q) || c == '\\') {
      out += '\\';
      out += static_cast<char>(c);
    } else if (c == '\t') {
      out += "\\t";
    } else if (c == '\n') {
      out += "\\n";
    } else if (c == '\r') {
      out += "\\r";
    } else if (!is_printable_cp(c)) {
      if (c < 0x100)
        out += fmt::format("\\x{:02x}", c);
      else if (c < 0x10000)
        out += fmt::format("\\u{:04x}", c);
      else
        out += fmt::format("\\U{:08x}", c);
    } else {
      utf8_append(out, c);
    }
  }
  out += q;
  return out;
}

std::string ascii_of(Interp& I, const Value& v) {
  std::string r = repr_string(I, v);
  std::string out;
  size_t i = 0;
  while (i < r.size()) {
    uint32_t c = utf8_next(r, i);
    if (c < 0x80)
      out += static_cast<char>(c);
    else if (c < 0x100)
      out += fmt::format("\\x{:02x}", c);
    else if (c < 0x10000)
      out += fmt::format("\\u{:04x}", c);
    else
      out += fmt::format("\\U{:08x}", c);
  }
  return out;
}

// ---- character classes (CPython's Unicode database, ASCII fast paths) --------------------------------------

static bool cp_space(uint32_t c) {
  if (c < 0x80) return c == ' ' || (c >= 0x09 && c <= 0x0D) || (c >= 0x1C && c <= 0x1F);
  return uni::has(c, uni::kSpace);
}
static bool cp_flag(uint32_t c, uint16_t f) { return uni::has(c, f); }
static bool cp_alpha(uint32_t c) {
  if (c < 0x80) return (c | 0x20) >= 'a' && (c | 0x20) <= 'z';
  return uni::has(c, uni::kAlpha);
}
static bool cp_decimal(uint32_t c) { return c < 0x80 ? c >= '0' && c <= '9' : cp_flag(c, uni::kDecimal); }
static bool cp_digit(uint32_t c) { return c < 0x80 ? c >= '0' && c <= '9' : cp_flag(c, uni::kDigit); }
static bool cp_numeric(uint32_t c) { return c < 0x80 ? c >= '0' && c <= '9' : cp_flag(c, uni::kNumeric); }
static bool cp_upper(uint32_t c) { return cp_flag(c, uni::kUpper); }
static bool cp_lower(uint32_t c) { return cp_flag(c, uni::kLower); }
static bool cp_title(uint32_t c) { return cp_flag(c, uni::kTitle); }
static bool cp_cased(uint32_t c) { return cp_flag(c, uni::kCased); }

// ---- method helpers ------------------------------------------------------------------------------------

static Str* self_str(const Value& v) { return as_str(v); }

static Str* arg_str(Interp& I, const Value& v, const char* fname, int argn = 1) {
  if (!is_str(v)) {
    if (argn == 0)
      raisef(I, I.exc.TypeError, "{}", fname);
    raisef(I, I.exc.TypeError, "{}() argument {} must be str, not {}", fname, argn, type_name(I, v));
  }
  return as_str(v);
}

static Value str_of_type(Interp& I, Type* cls, std::string&& s) {
  if (cls == I.t.str) return new_str(I, std::move(s));
  return make_str(I, std::move(s), cls).take_value();
}

// Start/end arguments (code-point indices, None allowed) clipped to [0, n].
static void span_args(Interp& I, const Args& a, size_t first, int64_t n, int64_t* start, int64_t* end) {
  *start = 0;
  *end = n;
  auto conv = [&](const Value& v, int64_t* out) {
    if (v.is_none()) return;
    int64_t x = index(I, v);
    if (x < 0) x = std::max<int64_t>(0, x + n);
    *out = std::min(x, n);
  };
  if (a.npos > first) conv(a[first], start);
  if (a.npos > first + 1) conv(a[first + 1], end);
}


// Byte offset of code point `cp` of s (cp may equal the length).
static size_t byte_at(const Str* s, int64_t cp) { return utf8_offset(s, cp); }
// Code-point index of byte offset b of s.
static int64_t cp_at(const Str* s, size_t b) {
  if (s->ascii) return static_cast<int64_t>(b);
  return utf8_length(std::string_view(s->s).substr(0, b));
}

// ---- slots ---------------------------------------------------------------------------------------------

static Value str_repr_slot(Interp& I, const Value& self) { return I.str(str_repr(self_str(self)->s)); }
static Value str_str_slot(Interp& I, const Value& self) {
  if (self.obj()->type == I.t.str) return self;
  return I.str(self_str(self)->s);
}
static int64_t str_hash_slot(Interp& I, const Value& self) { return str_hash(self_str(self)); }
static int64_t str_len(Interp& I, const Value& self) { return self_str(self)->cplen; }

static Value str_cmp(Interp& I, CmpOp op, const Value& self, const Value& other) {
  if (!is_str(other)) return I.notimplemented;
  Str* a = self_str(self);
  Str* b = as_str(other);
  if (op == CmpOp::Eq) return Value::boolean(str_eq(a, b));
  if (op == CmpOp::Ne) return Value::boolean(!str_eq(a, b));
  // UTF-8 byte order equals code point order.
  int c = a->s.compare(b->s);
  switch (op) {
    case CmpOp::Lt: return Value::boolean(c < 0);
    case CmpOp::Le: return Value::boolean(c <= 0);
    case CmpOp::Gt: return Value::boolean(c > 0);
    case CmpOp::Ge: return Value::boolean(c >= 0);
    default: return I.notimplemented;
  }
}
static Value str_eq_slot(Interp& I, const Value& s, const Value& o) { return str_cmp(I, CmpOp::Eq, s, o); }
static Value str_ne_slot(Interp& I, const Value& s, const Value& o) { return str_cmp(I, CmpOp::Ne, s, o); }
static Value str_lt_slot(Interp& I, const Value& s, const Value& o) { return str_cmp(I, CmpOp::Lt, s, o); }
static Value str_le_slot(Interp& I, const Value& s, const Value& o) { return str_cmp(I, CmpOp::Le, s, o); }
static Value str_gt_slot(Interp& I, const Value& s, const Value& o) { return str_cmp(I, CmpOp::Gt, s, o); }
static Value str_ge_slot(Interp& I, const Value& s, const Value& o) { return str_cmp(I, CmpOp::Ge, s, o); }

static Value str_add(Interp& I, const Value& self, const Value& other) {
  if (!is_str(self) || !is_str(other)) return I.notimplemented;
  const std::string& a = as_str(self)->s;
  const std::string& b = as_str(other)->s;
  I.heap.ensure_room(static_cast<double>(a.size()) + static_cast<double>(b.size()));
  std::string r;
  r.reserve(a.size() + b.size());
  r += a;
  r += b;
  return known_str(I, std::move(r), as_str(self)->cplen + as_str(other)->cplen,
                   as_str(self)->ascii && as_str(other)->ascii);
}

static Value str_mul(Interp& I, const Value& self, const Value& other) {
  if (!I.type_of(other)->slots.index) return I.notimplemented;
  int64_t n = index(I, other);
  const std::string& a = self_str(self)->s;
  if (n <= 0 || a.empty()) return Value::borrow(I.names.empty);
  I.heap.ensure_room(static_cast<double>(a.size()) * static_cast<double>(n));
  std::string r;
  r.reserve(a.size() * n);
  for (int64_t k = 0; k < n; ++k) r += a;
  return known_str(I, std::move(r), self_str(self)->cplen * n, self_str(self)->ascii);
}

static Value str_mod(Interp& I, const Value& self, const Value& other) {
  if (!is_str(self)) return I.notimplemented;
  if (const Value* p = find_poison(other)) return derive_poison(I, *p, "'...' % (...)");
  return percent_format(I, self_str(self)->s, other, false);
}
static Value str_rmod(Interp& I, const Value& self, const Value& other) { return I.notimplemented; }

static bool str_contains(Interp& I, const Value& self, const Value& item) {
  if (!is_str(item))
    raisef(I, I.exc.TypeError, "'in <string>' requires string as left operand, not {}", type_name(I, item));
  return self_str(self)->s.find(as_str(item)->s) != std::string::npos;
}

static Value str_getitem(Interp& I, const Value& self, const Value& key) {
  Str* s = self_str(self);
  if (has_layout(key, Layout::Slice)) {
    int64_t start, stop, step;
    int64_t n = slice_indices(I, as<Slice>(key), s->cplen, &start, &stop, &step);
    if (s->ascii) {
      if (step == 1) return piece_of(I, s, std::string_view(s->s).substr(start, n));
      std::string r;
      r.reserve(n);
      for (int64_t k = 0, i = start; k < n; ++k, i += step) r += s->s[i];
      return known_str(I, std::move(r), n, true);
    }
    if (step == 1) {
      size_t b = byte_at(s, start);
      return I.str(std::string_view(s->s).substr(b, byte_at(s, start + n) - b));
    }
    std::u32string u = to_u32(s->s), r;
    r.reserve(n);
    for (int64_t k = 0, i = start; k < n; ++k, i += step) r += u[i];
    return I.str(from_u32(r));
  }
  if (!I.type_of(key)->slots.index)
    raisef(I, I.exc.TypeError, "string indices must be integers, not '{}'", type_name(I, key));
  int64_t i = index(I, key);
  if (!norm_index(i, s->cplen)) raise(I, I.exc.IndexError, "string index out of range");
  if (s->ascii) return Value::borrow(I.ascii_chars[static_cast<unsigned char>(s->s[i])]);
  size_t b = utf8_offset(s, i);
  size_t e = b;
  utf8_next(s->s, e);
  return I.str(std::string_view(s->s).substr(b, e - b));
}

extern Value new_str_iterator(Interp& I, const Value& s);
static Value str_iter(Interp& I, const Value& self) { return new_str_iterator(I, self); }

static Value str_format_slot(Interp& I, const Value& self, const Value& spec) {
  if (!is_str(spec)) raisef(I, I.exc.TypeError, "format() argument 2 must be str, not {}", type_name(I, spec));
  return I.str(format_str(I, self_str(self)->s, as_str(spec)->s));
}

extern std::string bytes_decode(Interp& I, std::string_view data, std::string_view encoding, std::string_view errors);

static Value str_new(Interp& I, Type* cls, const Args& a) {
  static const Signature sig("str", "object=, encoding=, errors=");
  Value v[3];
  sig.bind(I, a, v);
  std::string r;
  if (!v[0]) {
    r = "";
  } else if (v[1] || v[2]) {
    if (!has_layout(v[0], Layout::Bytes))
      raisef(I, I.exc.TypeError, "decoding to str: need a bytes-like object, {} found", type_name(I, v[0]));
    r = bytes_decode(I, as<Bytes>(v[0])->s, v[1] ? str_string(I, v[1]) : "utf-8", v[2] ? str_string(I, v[2]) : "strict");
  } else {
    if (is_poison(v[0])) return derive_poison(I, v[0], "str(" + poison_operand(I, v[0]) + ")");
    Value sv = to_str(I, v[0]);
    if (cls == I.t.str) return sv;
    r = as_str(sv)->s;
  }
  return str_of_type(I, cls, std::move(r));
}

static Value str_alloc(Interp& I, Type* cls) { return I.make<Str>(cls).take_value(); }

// ---- methods -------------------------------------------------------------------------------------------

#define STR_METHOD(name) static Value str_##name(Interp& I, const Value& self, const Args& a)

STR_METHOD(join) {
  check_nargs(I, a, "str.join", 1, 1);
  const std::string& sep = self_str(self)->s;
  std::string out;
  size_t k = 0;
  Value unknown;
  for_each(I, a[0], [&](const Value& x) {
    if (is_poison(x) || unknown) {
      if (!unknown && is_poison(x)) unknown = x;
      return;
    }
    if (!is_str(x))
      raisef(I, I.exc.TypeError, "sequence item {}: expected str instance, {} found", k, type_name(I, x));
    // The result is built outside the heap: charge each growth before it happens.
    I.heap.ensure_room(static_cast<double>(out.size()) + static_cast<double>(sep.size() + as_str(x)->s.size()));
    if (k) out += sep;
    out += as_str(x)->s;
    ++k;
  });
  if (unknown) return derive_poison(I, unknown, "'...'.join(...)");
  return I.str(std::move(out));
}

// Whether the code point at byte i of the (valid UTF-8) text is whitespace, and where the next one
// starts (*next) or where this one starts when stepping back from byte i (*prev): the whitespace
// splits below work on the bytes, without a copy of the text as code points.
static bool space_at(std::string_view b, size_t i, size_t* next) {
  unsigned char c = static_cast<unsigned char>(b[i]);
  if (c < 0x80) {
    *next = i + 1;
    return cp_space(c);
  }
  return cp_space(utf8_next(b, *next = i));
}
static bool space_before(std::string_view b, size_t i, size_t* prev) {
  size_t k = i - 1;
  while (k > 0 && (static_cast<unsigned char>(b[k]) & 0xC0) == 0x80) --k;
  *prev = k;
  size_t next;
  return space_at(b, k, &next);
}

// str.split() with no separator, as CPython's: runs of whitespace separate; after maxsplit splits
// the rest is one item with its leading whitespace skipped and its trailing whitespace kept.
static std::vector<Value> split_whitespace(Interp& I, const Str* s, int64_t maxsplit) {
  std::string_view b = s->s;
  std::vector<Value> out;
  size_t i = 0, n = b.size(), k;
  auto skip_space = [&] {
    while (i < n && space_at(b, i, &k)) i = k;
  };
  for (int64_t left = maxsplit < 0 ? INT64_MAX : maxsplit; left > 0; --left) {
    skip_space();
    if (i >= n) break;
    size_t j = i;
    while (i < n && !space_at(b, i, &k)) i = k;
    out.push_back(piece_of(I, s, b.substr(j, i - j)));
  }
  if (i < n) {
    skip_space();
    if (i < n) out.push_back(piece_of(I, s, b.substr(i)));
  }
  return out;
}

// str.rsplit() with no separator: split_whitespace from the end.
static std::vector<Value> rsplit_whitespace(Interp& I, const Str* s, int64_t maxsplit) {
  std::string_view b = s->s;
  std::vector<Value> out;
  size_t i = b.size(), k;  // the text left to split is b[0, i)
  auto skip_space = [&] {
    while (i > 0 && space_before(b, i, &k)) i = k;
  };
  for (int64_t left = maxsplit < 0 ? INT64_MAX : maxsplit; left > 0; --left) {
    skip_space();
    if (i == 0) break;
    size_t e = i;
    while (i > 0 && !space_before(b, i, &k)) i = k;
    out.push_back(piece_of(I, s, b.substr(i, e - i)));
  }
  if (i > 0) {
    skip_space();
    if (i > 0) out.push_back(piece_of(I, s, b.substr(0, i)));
  }
  std::reverse(out.begin(), out.end());
  return out;
}

STR_METHOD(split) {
  static const Signature sig("split", "sep=, maxsplit=");
  Value v[2];
  sig.bind(I, a, v);
  int64_t maxsplit = v[1] ? index(I, v[1]) : -1;
  Str* s = self_str(self);
  if (!v[0] || v[0].is_none()) return new_list(I, split_whitespace(I, s, maxsplit));
  const std::string& sep = arg_str(I, v[0], "split")->s;
  if (sep.empty()) raise(I, I.exc.ValueError, "empty separator");
  std::vector<Value> out;
  size_t i = 0;
  while (maxsplit < 0 || static_cast<int64_t>(out.size()) < maxsplit) {
    size_t j = s->s.find(sep, i);
    if (j == std::string::npos) break;
    out.push_back(piece_of(I, s, std::string_view(s->s).substr(i, j - i)));
    i = j + sep.size();
  }
  out.push_back(piece_of(I, s, std::string_view(s->s).substr(i)));
  return new_list(I, std::move(out));
}

STR_METHOD(rsplit) {
  static const Signature sig("rsplit", "sep=, maxsplit=");
  Value v[2];
  sig.bind(I, a, v);
  int64_t maxsplit = v[1] ? index(I, v[1]) : -1;
  Str* s = self_str(self);
  if (!v[0] || v[0].is_none()) return new_list(I, rsplit_whitespace(I, s, maxsplit));
  const std::string& sep = arg_str(I, v[0], "rsplit")->s;
  if (sep.empty()) raise(I, I.exc.ValueError, "empty separator");
  std::vector<Value> out;
  size_t end = s->s.size();
  while (maxsplit < 0 || static_cast<int64_t>(out.size()) < maxsplit) {
    if (end < sep.size()) break;
    size_t j = s->s.rfind(sep, end - sep.size());
    if (j == std::string::npos) break;
    out.push_back(piece_of(I, s, std::string_view(s->s).substr(j + sep.size(), end - j - sep.size())));
    end = j;
  }
  out.push_back(piece_of(I, s, std::string_view(s->s).substr(0, end)));
  std::reverse(out.begin(), out.end());
  return new_list(I, std::move(out));
}

// Line boundaries: \n \r \r\n \v \f \x1c \x1d \x1e and U+0085, U+2028, U+2029, found in the UTF-8
// bytes (0xC2 0x85 and 0xE2 0x80 0xA8/0xA9 can only be those characters in valid text).
static constexpr auto kMayBreak = [] {  // the bytes a line boundary can start with
  std::array<bool, 256> t{};
  for (unsigned char c : {'\n', '\v', '\f', '\r', '\x1c', '\x1d', '\x1e', '\xC2', '\xE2'}) t[c] = true;
  return t;
}();

STR_METHOD(splitlines) {
  static const Signature sig("splitlines", "keepends=");
  Value v[1];
  sig.bind(I, a, v);
  bool keep = v[0] && is_true(I, v[0]);
  std::string_view b = self_str(self)->s;
  auto uc = [&](size_t k) { return k < b.size() ? static_cast<unsigned char>(b[k]) : 0u; };
  std::vector<Value> out;
  size_t i = 0, n = b.size();
  bool whole_ascii = self_str(self)->ascii;
  while (i < n) {
    size_t j = i, len = 0;  // j: the boundary's first byte, len: its length in bytes
    unsigned high = 0;      // the line's bytes OR-ed: bit 7 clear when it is ASCII
    for (; j < n; ++j) {
      unsigned char c = static_cast<unsigned char>(b[j]);
      high |= c;
      if (!kMayBreak[c]) continue;
      if (c == '\r') {
        len = uc(j + 1) == '\n' ? 2 : 1;
      } else if (c == '\n' || c == '\v' || c == '\f' || c == 0x1c || c == 0x1d || c == 0x1e) {
        len = 1;
      } else if (c == 0xC2 && uc(j + 1) == 0x85) {
        len = 2;
      } else if (c == 0xE2 && uc(j + 1) == 0x80 && (uc(j + 2) == 0xA8 || uc(j + 2) == 0xA9)) {
        len = 3;
      }
      if (len) break;
    }
    std::string_view line = b.substr(i, (keep ? j + len : j) - i);
    // An ASCII line of a non-ASCII text needs no scan either. `high` covers the line and its
    // boundary's first byte, so a line ended by U+0085/U+2028/U+2029 is scanned (rare).
    bool ascii = whole_ascii || !(high & 0x80);
    out.push_back(ascii ? known_str(I, std::string(line), static_cast<int64_t>(line.size()), true) : new_str(I, line));
    i = j + len;
  }
  return new_list(I, std::move(out));
}

static Value strip_impl(Interp& I, const Value& self, const Args& a, bool left, bool right, const char* name) {
  check_nargs(I, a, name, 0, 1);
  Str* s = self_str(self);
  std::u32string chars;
  bool ws = a.npos == 0 || a[0].is_none();
  if (!ws) {
    if (!is_str(a[0])) raisef(I, I.exc.TypeError, "{} arg must be None or str", name);
    chars = to_u32(as_str(a[0])->s);
  }
  auto strip_char = [&](char32_t c) {
    if (ws) return cp_space(c);
    return chars.find(c) != std::u32string::npos;
  };
  if (s->ascii && (ws || as_str(a[0])->ascii)) {
    size_t b = 0, e = s->s.size();
    if (left)
      while (b < e && strip_char(static_cast<unsigned char>(s->s[b]))) ++b;
    if (right)
      while (e > b && strip_char(static_cast<unsigned char>(s->s[e - 1]))) --e;
    if (b == 0 && e == s->s.size() && self.obj()->type == I.t.str) return self;
    return piece_of(I, s, std::string_view(s->s).substr(b, e - b));
  }
  std::u32string u = to_u32(s->s);
  size_t b = 0, e = u.size();
  if (left)
    while (b < e && strip_char(u[b])) ++b;
  if (right)
    while (e > b && strip_char(u[e - 1])) --e;
  return I.str(from_u32(u.substr(b, e - b)));
}
STR_METHOD(strip) { return strip_impl(I, self, a, true, true, "strip"); }
STR_METHOD(lstrip) { return strip_impl(I, self, a, true, false, "lstrip"); }
STR_METHOD(rstrip) { return strip_impl(I, self, a, false, true, "rstrip"); }

static Value find_impl(Interp& I, const Value& self, const Args& a, bool reverse, bool raise_missing, const char* name) {
  if (a.nkw) raisef(I, I.exc.TypeError, "{}() takes no keyword arguments", name);
  if (a.npos < 1 || a.npos > 3) raisef(I, I.exc.TypeError, "{} expected at least 1 argument, got {}", name, a.npos);
  Str* s = self_str(self);
  if (!is_str(a[0])) raisef(I, I.exc.TypeError, "must be str, not {}", type_name(I, a[0]));
  const std::string& sub = as_str(a[0])->s;
  int64_t start, end;
  span_args(I, a, 1, s->cplen, &start, &end);
  int64_t result = -1;
  if (start <= end) {
    size_t b = byte_at(s, start), e = byte_at(s, end);
    std::string_view hay = std::string_view(s->s).substr(b, e - b);
    size_t pos = reverse ? hay.rfind(sub) : hay.find(sub);
    if (pos != std::string_view::npos) result = cp_at(s, b + pos);
  }
  if (result < 0 && raise_missing) raise(I, I.exc.ValueError, "substring not found");
  return Value::integer(result);
}
STR_METHOD(find) { return find_impl(I, self, a, false, false, "find"); }
STR_METHOD(rfind) { return find_impl(I, self, a, true, false, "rfind"); }
STR_METHOD(index) { return find_impl(I, self, a, false, true, "index"); }
STR_METHOD(rindex) { return find_impl(I, self, a, true, true, "rindex"); }

STR_METHOD(count) {
  if (a.npos < 1 || a.npos > 3) raisef(I, I.exc.TypeError, "count expected at least 1 argument, got {}", a.npos);
  Str* s = self_str(self);
  if (!is_str(a[0])) raisef(I, I.exc.TypeError, "must be str, not {}", type_name(I, a[0]));
  const std::string& sub = as_str(a[0])->s;
  int64_t start, end;
  span_args(I, a, 1, s->cplen, &start, &end);
  if (start > end) return Value::integer(0);
  size_t b = byte_at(s, start), e = byte_at(s, end);
  std::string_view hay = std::string_view(s->s).substr(b, e - b);
  if (sub.empty()) return Value::integer(utf8_length(hay) + 1);
  int64_t n = 0;
  size_t pos = 0;
  while ((pos = hay.find(sub, pos)) != std::string_view::npos) {
    ++n;
    pos += sub.size();
  }
  return Value::integer(n);
}

static Value starts_ends(Interp& I, const Value& self, const Args& a, bool ends, const char* name) {
  if (a.npos < 1 || a.npos > 3) raisef(I, I.exc.TypeError, "{} expected at least 1 argument, got {}", name, a.npos);
  Str* s = self_str(self);
  int64_t start, end;
  span_args(I, a, 1, s->cplen, &start, &end);
  auto test = [&](const Value& p) {
    if (!is_str(p))
      raisef(I, I.exc.TypeError, "tuple for {} must only contain str, not {}", name, type_name(I, p));
    const std::string& pre = as_str(p)->s;
    if (start > end) return false;
    size_t b = byte_at(s, start), e = byte_at(s, end);
    std::string_view hay = std::string_view(s->s).substr(b, e - b);
    if (pre.size() > hay.size()) return false;
    return ends ? hay.substr(hay.size() - pre.size()) == pre : hay.substr(0, pre.size()) == pre;
  };
  if (is_tuple(a[0])) {
    for (const Value& p : as_tuple(a[0])->items)
      if (test(p)) return Value::boolean(true);
    return Value::boolean(false);
  }
  if (!is_str(a[0]))
    raisef(I, I.exc.TypeError, "{} first arg must be str or a tuple of str, not {}", name, type_name(I, a[0]));
  return Value::boolean(test(a[0]));
}
STR_METHOD(startswith) { return starts_ends(I, self, a, false, "startswith"); }
STR_METHOD(endswith) { return starts_ends(I, self, a, true, "endswith"); }

STR_METHOD(replace) {
  if (a.npos < 2 || a.npos > 3) raisef(I, I.exc.TypeError, "replace expected at least 2 arguments, got {}", a.npos);
  Str* s = self_str(self);
  const std::string& old = arg_str(I, a[0], "replace", 1)->s;
  const std::string& nw = arg_str(I, a[1], "replace", 2)->s;
  int64_t count = a.npos > 2 ? index(I, a[2]) : -1;
  std::string out;
  if (old.empty()) {
    // Insert `nw` between every character (and at both ends).
    std::u32string u = to_u32(s->s);
    int64_t done = 0;
    for (size_t k = 0; k <= u.size(); ++k) {
      if (count < 0 || done < count) {
        out += nw;
        ++done;
      }
      if (k < u.size()) utf8_append(out, u[k]);
    }
    return I.str(std::move(out));
  }
  size_t i = 0;
  int64_t done = 0;
  while (count < 0 || done < count) {
    size_t j = s->s.find(old, i);
    if (j == std::string::npos) break;
    out.append(s->s, i, j - i);
    out += nw;
    i = j + old.size();
    ++done;
  }
  out.append(s->s, i, std::string::npos);
  return I.str(std::move(out));
}

// Capital sigma lowercases to final sigma at the end of a word: after a cased letter and not
// before one (case-ignorable characters in between are skipped), as CPython does.
static char32_t lower_sigma(const std::u32string& u, size_t i) {
  size_t j = i;
  while (j > 0 && uni::has(u[j - 1], uni::kCaseIgnorable)) --j;
  bool final_sigma = j > 0 && cp_cased(u[j - 1]);
  if (final_sigma) {
    size_t k = i + 1;
    while (k < u.size() && uni::has(u[k], uni::kCaseIgnorable)) ++k;
    final_sigma = k == u.size() || !cp_cased(u[k]);
  }
  return final_sigma ? 0x3C2 : 0x3C3;
}
static void append_lower_at(const std::u32string& u, size_t i, std::u32string& out) {
  if (u[i] == 0x3A3) out += lower_sigma(u, i);
  else uni::append_lower(u[i], out);
}

// Maps every character with `f(u, i, out)`; ASCII-only strings take a byte loop.
template <class F>
static Value case_map(Interp& I, const Value& self, char (*ascii)(char, size_t, bool*), F f) {
  Str* s = self_str(self);
  if (s->ascii) {
    std::string out = s->s;
    bool state = false;
    for (size_t k = 0; k < out.size(); ++k) out[k] = ascii(out[k], k, &state);
    return I.str(std::move(out));
  }
  std::u32string u = to_u32(s->s), out;
  out.reserve(u.size());
  bool state = false;
  for (size_t k = 0; k < u.size(); ++k) f(u, k, out, &state);
  return I.str(from_u32(out));
}
static char a_upper(char c) { return c >= 'a' && c <= 'z' ? static_cast<char>(c - 32) : c; }
static char a_lower(char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c + 32) : c; }
static bool a_alpha(char c) { return (c | 0x20) >= 'a' && (c | 0x20) <= 'z'; }

STR_METHOD(upper) {
  return case_map(
      I, self, [](char c, size_t, bool*) { return a_upper(c); },
      [](const std::u32string& u, size_t i, std::u32string& out, bool*) { uni::append_upper(u[i], out); });
}
STR_METHOD(lower) {
  return case_map(
      I, self, [](char c, size_t, bool*) { return a_lower(c); },
      [](const std::u32string& u, size_t i, std::u32string& out, bool*) { append_lower_at(u, i, out); });
}
STR_METHOD(casefold) {
  return case_map(
      I, self, [](char c, size_t, bool*) { return a_lower(c); },
      [](const std::u32string& u, size_t i, std::u32string& out, bool*) { uni::append_fold(u[i], out); });
}
STR_METHOD(swapcase) {
  return case_map(
      I, self, [](char c, size_t, bool*) { return c >= 'a' && c <= 'z' ? a_upper(c) : a_lower(c); },
      [](const std::u32string& u, size_t i, std::u32string& out, bool*) {
        if (cp_upper(u[i])) append_lower_at(u, i, out);
        else if (cp_lower(u[i])) uni::append_upper(u[i], out);
        else out += u[i];
      });
}
// The first character in title case (not upper case: 'ǆ' -> 'ǅ'), the rest in lower case.
STR_METHOD(capitalize) {
  return case_map(
      I, self, [](char c, size_t k, bool*) { return k == 0 ? a_upper(c) : a_lower(c); },
      [](const std::u32string& u, size_t i, std::u32string& out, bool*) {
        if (i == 0) uni::append_title(u[i], out);
        else append_lower_at(u, i, out);
      });
}
// Title case after an uncased character, lower case after a cased one.
STR_METHOD(title) {
  return case_map(
      I, self,
      [](char c, size_t, bool* prev_cased) {
        char r = *prev_cased ? a_lower(c) : a_upper(c);
        *prev_cased = a_alpha(c);
        return r;
      },
      [](const std::u32string& u, size_t i, std::u32string& out, bool* prev_cased) {
        if (*prev_cased) append_lower_at(u, i, out);
        else uni::append_title(u[i], out);
        *prev_cased = cp_cased(u[i]);
      });
}

template <bool (*P)(uint32_t)>
static Value all_chars(Interp& I, const Value& self, const Args& a) {
  const std::string& s = self_str(self)->s;
  if (s.empty()) return Value::boolean(false);
  size_t i = 0;
  while (i < s.size())
    if (!P(utf8_next(s, i))) return Value::boolean(false);
  return Value::boolean(true);
}
static bool cp_alnum(uint32_t c) { return cp_alpha(c) || cp_decimal(c) || cp_digit(c) || cp_numeric(c); }
static bool cp_printable(uint32_t c) { return is_printable_cp(c); }
STR_METHOD(isascii) {
  const std::string& s = self_str(self)->s;
  for (unsigned char c : s)
    if (c >= 0x80) return Value::boolean(false);
  return Value::boolean(true);
}
STR_METHOD(isprintable) {
  const std::string& s = self_str(self)->s;
  size_t i = 0;
  while (i < s.size())
    if (!cp_printable(utf8_next(s, i))) return Value::boolean(false);
  return Value::boolean(true);
}
STR_METHOD(isupper) {
  const std::string& s = self_str(self)->s;
  bool cased = false;
  size_t i = 0;
  while (i < s.size()) {
    uint32_t c = utf8_next(s, i);
    if (cp_lower(c) || cp_title(c)) return Value::boolean(false);
    if (cp_upper(c)) cased = true;
  }
  return Value::boolean(cased);
}
STR_METHOD(islower) {
  const std::string& s = self_str(self)->s;
  bool cased = false;
  size_t i = 0;
  while (i < s.size()) {
    uint32_t c = utf8_next(s, i);
    if (cp_upper(c) || cp_title(c)) return Value::boolean(false);
    if (cp_lower(c)) cased = true;
  }
  return Value::boolean(cased);
}
STR_METHOD(istitle) {
  std::u32string u = to_u32(self_str(self)->s);
  bool prev_cased = false, any = false;
  for (char32_t c : u) {
    if (cp_upper(c) || cp_title(c)) {
      if (prev_cased) return Value::boolean(false);
      prev_cased = any = true;
    } else if (cp_lower(c)) {
      if (!prev_cased) return Value::boolean(false);
      prev_cased = any = true;
    } else {
      prev_cased = false;
    }
  }
  return Value::boolean(any);
}
STR_METHOD(isidentifier) {
  std::u32string u = to_u32(self_str(self)->s);
  if (u.empty()) return Value::boolean(false);
  if (!uni::has(u[0], uni::kIdStart)) return Value::boolean(false);
  for (size_t k = 1; k < u.size(); ++k)
    if (!uni::has(u[k], uni::kIdContinue)) return Value::boolean(false);
  return Value::boolean(true);
}

static Value justify(Interp& I, const Value& self, const Args& a, char how, const char* name) {
  check_nargs(I, a, name, 1, 2);
  int64_t width = index(I, a[0]);
  uint32_t fill = ' ';
  if (a.npos > 1) {
    if (!is_str(a[1]) || as_str(a[1])->cplen != 1)
      raisef(I, I.exc.TypeError, "The fill character must be exactly one character long");
    size_t k = 0;
    fill = utf8_next(as_str(a[1])->s, k);
  }
  Str* s = self_str(self);
  if (width <= s->cplen) return self.obj()->type == I.t.str ? self : I.str(s->s);
  int64_t marg = width - s->cplen;
  int64_t left = how == '<' ? 0 : how == '>' ? marg : marg / 2 + (marg & width & 1);
  std::string f;
  utf8_append(f, fill);
  std::string out;
  for (int64_t k = 0; k < left; ++k) out += f;
  out += s->s;
  for (int64_t k = 0; k < marg - left; ++k) out += f;
  return I.str(std::move(out));
}
STR_METHOD(ljust) { return justify(I, self, a, '<', "ljust"); }
STR_METHOD(rjust) { return justify(I, self, a, '>', "rjust"); }
STR_METHOD(center) { return justify(I, self, a, '^', "center"); }

STR_METHOD(zfill) {
  check_nargs(I, a, "zfill", 1, 1);
  int64_t width = index(I, a[0]);
  Str* s = self_str(self);
  if (width <= s->cplen) return I.str(s->s);
  std::string out = s->s;
  size_t signpos = (!out.empty() && (out[0] == '+' || out[0] == '-')) ? 1 : 0;
  out.insert(signpos, std::string(width - s->cplen, '0'));
  return I.str(std::move(out));
}

STR_METHOD(expandtabs) {
  static const Signature sig("expandtabs", "tabsize=");
  Value v[1];
  sig.bind(I, a, v);
  int64_t tab = v[0] ? index(I, v[0]) : 8;
  std::string out;
  int64_t col = 0;
  const std::string& s = self_str(self)->s;
  size_t i = 0;
  while (i < s.size()) {
    uint32_t c = utf8_next(s, i);
    if (c == '\t') {
      if (tab > 0) {
        int64_t n = tab - col % tab;
        out.append(n, ' ');
        col += n;
      }
    } else {
      utf8_append(out, c);
      ++col;
      if (c == '\n' || c == '\r') col = 0;
    }
  }
  return I.str(std::move(out));
}

static Value partition_impl(Interp& I, const Value& self, const Args& a, bool reverse) {
  check_nargs(I, a, reverse ? "rpartition" : "partition", 1, 1);
  const std::string& s = self_str(self)->s;
  if (!is_str(a[0])) raisef(I, I.exc.TypeError, "must be str, not {}", type_name(I, a[0]));
  const std::string& sep = as_str(a[0])->s;
  if (sep.empty()) raise(I, I.exc.ValueError, "empty separator");
  size_t p = reverse ? s.rfind(sep) : s.find(sep);
  Value empty = Value::borrow(I.names.empty);
  if (p == std::string::npos) {
    if (reverse) return new_tuple(I, {empty, empty, I.str(s)});
    return new_tuple(I, {I.str(s), empty, empty});
  }
  return new_tuple(I, {I.str(std::string_view(s).substr(0, p)), a[0], I.str(std::string_view(s).substr(p + sep.size()))});
}
STR_METHOD(partition) { return partition_impl(I, self, a, false); }
STR_METHOD(rpartition) { return partition_impl(I, self, a, true); }

STR_METHOD(removeprefix) {
  check_nargs(I, a, "removeprefix", 1, 1);
  const std::string& s = self_str(self)->s;
  const std::string& p = arg_str(I, a[0], "removeprefix")->s;
  if (s.compare(0, p.size(), p) == 0 && s.size() >= p.size()) return I.str(s.substr(p.size()));
  return I.str(s);
}
STR_METHOD(removesuffix) {
  check_nargs(I, a, "removesuffix", 1, 1);
  const std::string& s = self_str(self)->s;
  const std::string& p = arg_str(I, a[0], "removesuffix")->s;
  if (!p.empty() && s.size() >= p.size() && s.compare(s.size() - p.size(), p.size(), p) == 0)
    return I.str(s.substr(0, s.size() - p.size()));
  return I.str(s);
}

STR_METHOD(format) {
  if (const Value* p = first_poison_arg(a)) return derive_poison(I, *p, "'...'.format(...)");
  return I.str(str_format(I, self_str(self)->s, a));
}
STR_METHOD(format_map) {
  check_nargs(I, a, "format_map", 1, 1);
  // Keyword lookups go through the mapping: pass it as **kwargs would lose __missing__, so wrap.
  std::vector<Value> keys;
  std::vector<Str*> names;
  std::vector<Value> vals;
  // Collect the field names used and look each up in the mapping.
  const std::string& f = self_str(self)->s;
  for (size_t i = 0; i < f.size(); ++i) {
    if (f[i] == '{') {
      if (i + 1 < f.size() && f[i + 1] == '{') {
        ++i;
        continue;
      }
      size_t j = i + 1;
      while (j < f.size() && std::strchr("}!:.[", f[j]) == nullptr) ++j;
      std::string name = f.substr(i + 1, j - i - 1);
      if (!name.empty() && !std::isdigit(static_cast<unsigned char>(name[0]))) {
        Str* n = I.intern(name);
        if (std::find(names.begin(), names.end(), n) == names.end()) {
          names.push_back(n);
          vals.push_back(getitem(I, a[0], Value::borrow(n)));
        }
      }
    }
  }
  Args fa;
  fa.nkw = static_cast<uint32_t>(names.size());
  fa.kwnames = names.data();
  fa.kwvals = vals.data();
  return I.str(str_format(I, f, fa));
}

extern std::string str_encode(Interp& I, std::string_view s, std::string_view encoding, std::string_view errors);
STR_METHOD(encode) {
  static const Signature sig("encode", "encoding=, errors=");
  Value v[2];
  sig.bind(I, a, v);
  auto b = I.make<Bytes>(I.t.bytes);
  b->s = str_encode(I, self_str(self)->s, v[0] ? str_string(I, v[0]) : "utf-8", v[1] ? str_string(I, v[1]) : "strict");
  return b.take_value();
}

STR_METHOD(translate) {
  check_nargs(I, a, "translate", 1, 1);
  const std::string& s = self_str(self)->s;
  std::string out;
  size_t i = 0;
  while (i < s.size()) {
    uint32_t c = utf8_next(s, i);
    Value r;
    try {
      r = getitem(I, a[0], Value::integer(c));
    } catch (PyException& e) {
      if (!isinstance(I, e.exc, I.exc.LookupError)) throw;
      utf8_append(out, c);
      continue;
    }
    if (r.is_none()) continue;
    int64_t cp;
    if (int_value(r, &cp)) utf8_append(out, static_cast<uint32_t>(cp));
    else if (is_str(r)) out += as_str(r)->s;
    else raise(I, I.exc.TypeError, "character mapping must return integer, None or str");
  }
  return I.str(std::move(out));
}

static Value str_maketrans(Interp& I, const Value&, const Args& a) {
  check_nargs(I, a, "maketrans", 1, 3);
  Value d = new_dict(I);
  if (a.npos == 1) {
    if (!is_dict(a[0])) raise(I, I.exc.TypeError, "if you give only one argument to maketrans it must be a dict");
    for (auto& e : as_dict(a[0])->entries) {
      if (e.key.is_null()) continue;
      Value k = e.key;
      if (is_str(k)) {
        if (as_str(k)->cplen != 1) raise(I, I.exc.ValueError, "string keys in translate table must be of length 1");
        size_t z = 0;
        k = Value::integer(utf8_next(as_str(k)->s, z));
      }
      dict_set(I, as_dict(d), k, e.value);
    }
    return d;
  }
  std::u32string x = to_u32(arg_str(I, a[0], "maketrans")->s), y = to_u32(arg_str(I, a[1], "maketrans", 2)->s);
  if (x.size() != y.size()) raise(I, I.exc.ValueError, "the first two maketrans arguments must have equal length");
  for (size_t k = 0; k < x.size(); ++k) dict_set(I, as_dict(d), Value::integer(x[k]), Value::integer(y[k]));
  if (a.npos == 3)
    for (char32_t c : to_u32(arg_str(I, a[2], "maketrans", 3)->s)) dict_set(I, as_dict(d), Value::integer(c), Value::none());
  return d;
}

STR_METHOD(getnewargs) { return new_tuple(I, {I.str(self_str(self)->s)}); }

void init_str_type(Interp& I) {
  TypeSpec s;
  s.name = "str";
  s.layout = Layout::Str;
  s.alloc = &str_alloc;
  Slots& sl = s.slots;
  sl.repr = &str_repr_slot;
  sl.str = &str_str_slot;
  sl.hash = &str_hash_slot;
  sl.eq = &str_eq_slot;
  sl.ne = &str_ne_slot;
  sl.lt = &str_lt_slot;
  sl.le = &str_le_slot;
  sl.gt = &str_gt_slot;
  sl.ge = &str_ge_slot;
  sl.add = &str_add;
  sl.mul = &str_mul;
  sl.rmul = &str_mul;
  sl.mod = &str_mod;
  sl.rmod = &str_rmod;
  sl.len = &str_len;
  sl.getitem = &str_getitem;
  sl.contains = &str_contains;
  sl.iter = &str_iter;
  sl.format = &str_format_slot;
  sl.new_ = &str_new;
  s.methods = {
      {"join", &str_join},
      {"split", &str_split},
      {"rsplit", &str_rsplit},
      {"splitlines", &str_splitlines},
      {"strip", &str_strip},
      {"lstrip", &str_lstrip},
      {"rstrip", &str_rstrip},
      {"find", &str_find},
      {"rfind", &str_rfind},
      {"index", &str_index},
      {"rindex", &str_rindex},
      {"count", &str_count},
      {"startswith", &str_startswith},
      {"endswith", &str_endswith},
      {"replace", &str_replace},
      {"upper", &str_upper},
      {"lower", &str_lower},
      {"casefold", &str_casefold},
      {"swapcase", &str_swapcase},
      {"capitalize", &str_capitalize},
      {"title", &str_title},
      {"isdigit", &all_chars<&cp_digit>},
      {"isdecimal", &all_chars<&cp_decimal>},
      {"isnumeric", &all_chars<&cp_numeric>},
      {"isalpha", &all_chars<&cp_alpha>},
      {"isalnum", &all_chars<&cp_alnum>},
      {"isspace", &all_chars<&cp_space>},
      {"isascii", &str_isascii},
      {"isprintable", &str_isprintable},
      {"isupper", &str_isupper},
      {"islower", &str_islower},
      {"istitle", &str_istitle},
      {"isidentifier", &str_isidentifier},
      {"ljust", &str_ljust},
      {"rjust", &str_rjust},
      {"center", &str_center},
      {"zfill", &str_zfill},
      {"expandtabs", &str_expandtabs},
      {"partition", &str_partition},
      {"rpartition", &str_rpartition},
      {"removeprefix", &str_removeprefix},
      {"removesuffix", &str_removesuffix},
      {"format", &str_format},
      {"format_map", &str_format_map},
      {"encode", &str_encode},
      {"translate", &str_translate},
      {"maketrans", &str_maketrans, kNativeStatic},
      {"__getnewargs__", &str_getnewargs},
  };
  init_native_type(I, I.t.str, s);
}

}  // namespace onnxify::eval
