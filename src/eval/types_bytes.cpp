// bytes and bytearray: the parts model code and tests touch (literals, repr, indexing, slicing,
// comparison, encode/decode in utf-8/ascii/latin-1, hex, join/split/strip/find/replace).
#include <algorithm>

#include "eval/internal.h"

namespace onnxify::eval {

static std::string norm_encoding(std::string e) {
  std::string out;
  for (char c : e) out += c == '_' ? '-' : static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (out == "utf8" || out == "u8" || out == "utf") return "utf-8";
  if (out == "latin-1" || out == "latin1" || out == "iso-8859-1" || out == "iso8859-1" || out == "l1") return "latin-1";
  if (out == "us-ascii" || out == "646") return "ascii";
  if (out == "utf-8-sig" || out == "utf8-sig") return "utf-8-sig";
  return out;
}

std::string str_encode(Interp& I, std::string_view s, std::string_view encoding, std::string_view errors) {
  std::string enc = norm_encoding(std::string(encoding));
  if (enc == "utf-8") return std::string(s);
  if (enc == "utf-8-sig") return "\xEF\xBB\xBF" + std::string(s);  // the byte order mark first
  if (enc == "ascii" || enc == "latin-1") {
    uint32_t limit = enc == "ascii" ? 0x80 : 0x100;
    std::string out;
    size_t i = 0;
    int64_t pos = 0;
    while (i < s.size()) {
      uint32_t c = utf8_next(s, i);
      if (c >= limit) {
        if (errors == "ignore") {
          ++pos;
          continue;
        }
        if (errors == "replace") {
          out += '?';
          ++pos;
          continue;
        }
        raisef(I, I.exc.UnicodeEncodeError, "'{}' codec can't encode character '\\x{:02x}' in position {}: ordinal not in range({})",
               enc == "ascii" ? "ascii" : "latin-1", c, pos, limit);
      }
      out += static_cast<char>(c);
      ++pos;
    }
    return out;
  }
  raisef(I, I.exc.LookupError, "unknown encoding: {}", encoding);
}

// The UTF-8 sequence at d[i] (i < d.size(), d[i] >= 0x80): its length when it is well formed, else 0
// with *bad the length of its maximal ill-formed prefix (CPython reports it as one error and
// replaces it by one U+FFFD) and *why CPython's reason. Well formed is RFC 3629: no overlong forms
// (E0 needs A0..BF next, F0 90..BF), no surrogates (ED needs 80..9F), nothing above U+10FFFF.
static size_t utf8_sequence(std::string_view d, size_t i, size_t* bad, const char** why) {
  unsigned char c = static_cast<unsigned char>(d[i]);
  size_t n = 0;
  unsigned char lo = 0x80, hi = 0xBF;  // the range of the second byte
  if (c >= 0xC2 && c <= 0xDF) {
    n = 2;
  } else if (c >= 0xE0 && c <= 0xEF) {
    n = 3;
    if (c == 0xE0) lo = 0xA0;
    if (c == 0xED) hi = 0x9F;
  } else if (c >= 0xF0 && c <= 0xF4) {
    n = 4;
    if (c == 0xF0) lo = 0x90;
    if (c == 0xF4) hi = 0x8F;
  } else {
    *bad = 1;
    *why = "invalid start byte";
    return 0;
  }
  for (size_t k = 1; k < n; ++k) {
    if (i + k >= d.size()) {
      *bad = k;
      *why = "unexpected end of data";
      return 0;
    }
    unsigned char b = static_cast<unsigned char>(d[i + k]);
    if (k == 1 ? (b < lo || b > hi) : (b & 0xC0) != 0x80) {
      *bad = k;
      *why = "invalid continuation byte";
      return 0;
    }
  }
  return n;
}

// bytes.decode("utf-8", errors) as CPython decodes: ASCII runs are skipped 8 bytes at a time and
// valid text is copied in one piece (import-time code decodes whole source files: transformers
// reads its ~3,000 model files); errors: strict, replace, ignore, backslashreplace.
static std::string utf8_decode(Interp& I, std::string_view d, std::string_view errors) {
  std::string out;
  size_t i = 0, copied = 0;  // d[copied, i) is valid and not yet in out
  while (true) {
    i = ascii_run_end(d, i);
    if (i >= d.size()) break;
    size_t bad = 0;
    const char* why = nullptr;
    if (size_t n = utf8_sequence(d, i, &bad, &why)) {
      i += n;
      continue;
    }
    if (errors != "replace" && errors != "ignore" && errors != "backslashreplace") {
      if (bad == 1)
        raisef(I, I.exc.UnicodeDecodeError, "'utf-8' codec can't decode byte 0x{:02x} in position {}: {}",
               static_cast<unsigned char>(d[i]), i, why);
      raisef(I, I.exc.UnicodeDecodeError, "'utf-8' codec can't decode bytes in position {}-{}: {}", i, i + bad - 1, why);
    }
    out.append(d.substr(copied, i - copied));
    if (errors == "replace") out += "\xEF\xBF\xBD";
    if (errors == "backslashreplace")
      for (size_t k = 0; k < bad; ++k) out += fmt::format("\\x{:02x}", static_cast<unsigned char>(d[i + k]));
    i += bad;
    copied = i;
  }
  if (copied == 0) return std::string(d);
  out.append(d.substr(copied));
  return out;
}

std::string bytes_decode(Interp& I, std::string_view data, std::string_view encoding, std::string_view errors) {
  std::string enc = norm_encoding(std::string(encoding));
  if (enc == "latin-1") {
    std::string out;
    for (unsigned char c : data) utf8_append(out, c);
    return out;
  }
  if (enc == "ascii") {
    std::string out;
    for (size_t k = 0; k < data.size(); ++k) {
      unsigned char c = static_cast<unsigned char>(data[k]);
      if (c >= 0x80) {
        if (errors == "ignore") continue;
        if (errors == "replace") {
          out += "\xEF\xBF\xBD";
          continue;
        }
        raisef(I, I.exc.UnicodeDecodeError, "'ascii' codec can't decode byte 0x{:02x} in position {}: ordinal not in range(128)", c, k);
      }
      out += static_cast<char>(c);
    }
    return out;
  }
  if (enc == "utf-8") return utf8_decode(I, data, errors);
  if (enc == "utf-8-sig") {  // a leading byte order mark is dropped (Windows editors write one)
    if (data.substr(0, 3) == "\xEF\xBB\xBF") data.remove_prefix(3);
    return utf8_decode(I, data, errors);
  }
  raisef(I, I.exc.LookupError, "unknown encoding: {}", encoding);
}

static Bytes* self_bytes(const Value& v) { return as<Bytes>(v); }
static bool is_bytes_like(const Value& v) { return has_layout(v, Layout::Bytes); }

static Value make_bytes(Interp& I, Type* t, std::string s) {
  auto b = I.make<Bytes>(t, s.size() > 15 ? s.size() : 0);
  b->s = std::move(s);
  return b.take_value();
}

static std::string bytes_repr_str(std::string_view s, const char* prefix, const char* suffix) {
  bool has_single = s.find('\'') != std::string_view::npos;
  bool has_double = s.find('"') != std::string_view::npos;
  char q = (has_single && !has_double) ? '"' : '\'';
  std::string out = prefix;
  out += q;
  for (unsigned char c : s) {
    if (c == static_cast<unsigned char>(q) || c == '\\') {
      out += '\\';
      out += static_cast<char>(c);
    } else if (c == '\t') out += "\\t";
    else if (c == '\n') out += "\\n";
    else if (c == '\r') out += "\\r";
    else if (c < 0x20 || c >= 0x7f) out += fmt::format("\\x{:02x}", c);
    else out += static_cast<char>(c);
  }
  out += q;
  out += suffix;
  return out;
}

static Value bytes_repr(Interp& I, const Value& self) {
  if (I.type_of(self)->is_subtype_of(I.t.bytearray))
    return I.str(bytes_repr_str(self_bytes(self)->s, "bytearray(b", ")"));
  return I.str(bytes_repr_str(self_bytes(self)->s, "b", ""));
}
static int64_t bytes_len(Interp& I, const Value& self) { return static_cast<int64_t>(self_bytes(self)->s.size()); }
static int64_t bytes_hash_slot(Interp& I, const Value& self) {
  Bytes* b = self_bytes(self);
  if (b->hash == -1) b->hash = bytes_hash(b->s);
  return b->hash;
}

static Value bytes_getitem(Interp& I, const Value& self, const Value& key) {
  const std::string& s = self_bytes(self)->s;
  if (has_layout(key, Layout::Slice)) {
    int64_t start, stop, step;
    int64_t n = slice_indices(I, as<Slice>(key), static_cast<int64_t>(s.size()), &start, &stop, &step);
    std::string r;
    for (int64_t k = 0, i = start; k < n; ++k, i += step) r += s[i];
    return make_bytes(I, I.type_of(self)->is_subtype_of(I.t.bytearray) ? I.t.bytearray : I.t.bytes, std::move(r));
  }
  int64_t i = index(I, key);
  if (!norm_index(i, static_cast<int64_t>(s.size()))) raise(I, I.exc.IndexError, "index out of range");
  return Value::integer(static_cast<unsigned char>(s[i]));
}

static void bytearray_setitem(Interp& I, const Value& self, const Value& key, const Value& v) {
  std::string& s = self_bytes(self)->s;
  int64_t i = index(I, key);
  if (!norm_index(i, static_cast<int64_t>(s.size()))) raise(I, I.exc.IndexError, "bytearray index out of range");
  int64_t x = index(I, v);
  if (x < 0 || x > 255) raise(I, I.exc.ValueError, "byte must be in range(0, 256)");
  s[i] = static_cast<char>(x);
}

static bool bytes_contains(Interp& I, const Value& self, const Value& item) {
  const std::string& s = self_bytes(self)->s;
  if (is_bytes_like(item)) return s.find(self_bytes(item)->s) != std::string::npos;
  int64_t x = index(I, item);
  if (x < 0 || x > 255) raise(I, I.exc.ValueError, "byte must be in range(0, 256)");
  return s.find(static_cast<char>(x)) != std::string::npos;
}

static Value bytes_add(Interp& I, const Value& self, const Value& other) {
  if (!is_bytes_like(self)) return I.notimplemented;
  if (!is_bytes_like(other)) raisef(I, I.exc.TypeError, "can't concat {} to {}", type_name(I, other), type_name(I, self));
  I.heap.ensure_room(static_cast<double>(self_bytes(self)->s.size()) + static_cast<double>(self_bytes(other)->s.size()));
  return make_bytes(I, I.type_of(self)->is_subtype_of(I.t.bytearray) ? I.t.bytearray : I.t.bytes,
                    self_bytes(self)->s + self_bytes(other)->s);
}
static Value bytes_mul(Interp& I, const Value& self, const Value& other) {
  if (!I.type_of(other)->slots.index) return I.notimplemented;
  int64_t n = index(I, other);
  const std::string& s = self_bytes(self)->s;
  if (n > 0) I.heap.ensure_room(static_cast<double>(n) * static_cast<double>(s.size()));
  std::string r;
  for (int64_t k = 0; k < n; ++k) r += s;
  return make_bytes(I, I.type_of(self)->is_subtype_of(I.t.bytearray) ? I.t.bytearray : I.t.bytes, std::move(r));
}
static Value bytes_mod(Interp& I, const Value& self, const Value& other) {
  Value r = percent_format(I, self_bytes(self)->s, other, true);
  return make_bytes(I, I.t.bytes, as_str(r)->s);
}

static Value bytes_cmp(Interp& I, CmpOp op, const Value& self, const Value& other) {
  if (!is_bytes_like(other)) return I.notimplemented;
  int c = self_bytes(self)->s.compare(self_bytes(other)->s);
  switch (op) {
    case CmpOp::Eq: return Value::boolean(c == 0);
    case CmpOp::Ne: return Value::boolean(c != 0);
    case CmpOp::Lt: return Value::boolean(c < 0);
    case CmpOp::Le: return Value::boolean(c <= 0);
    case CmpOp::Gt: return Value::boolean(c > 0);
    default: return Value::boolean(c >= 0);
  }
}
static Value bytes_eq(Interp& I, const Value& s, const Value& o) { return bytes_cmp(I, CmpOp::Eq, s, o); }
static Value bytes_ne(Interp& I, const Value& s, const Value& o) { return bytes_cmp(I, CmpOp::Ne, s, o); }
static Value bytes_lt(Interp& I, const Value& s, const Value& o) { return bytes_cmp(I, CmpOp::Lt, s, o); }
static Value bytes_le(Interp& I, const Value& s, const Value& o) { return bytes_cmp(I, CmpOp::Le, s, o); }
static Value bytes_gt(Interp& I, const Value& s, const Value& o) { return bytes_cmp(I, CmpOp::Gt, s, o); }
static Value bytes_ge(Interp& I, const Value& s, const Value& o) { return bytes_cmp(I, CmpOp::Ge, s, o); }

struct BytesIter : Object {
  Value b;
  size_t i = 0;
};
static Value bytes_iter(Interp& I, const Value& self) {
  auto it = I.make<BytesIter>(I.t.bytes_iterator);
  it->b = self;
  return it.take_value();
}
static Value bytes_iter_next(Interp& I, const Value& self) {
  auto* it = as<BytesIter>(self);
  if (it->b.is_null()) return Value();
  const std::string& s = self_bytes(it->b)->s;
  if (it->i >= s.size()) {
    it->b = Value();
    return Value();
  }
  return Value::integer(static_cast<unsigned char>(s[it->i++]));
}
static Value iter_self(Interp& I, const Value& self) { return self; }

static std::string bytes_from_source(Interp& I, const Value& src, const Value& encoding, const Value& errors) {
  if (is_str(src)) {
    if (!encoding) raise(I, I.exc.TypeError, "string argument without an encoding");
    return str_encode(I, as_str(src)->s, str_string(I, encoding), errors ? str_string(I, errors) : "strict");
  }
  if (encoding) raise(I, I.exc.TypeError, "encoding without a string argument");
  if (is_bytes_like(src)) return self_bytes(src)->s;
  int64_t n;
  if (int_value(src, &n)) {
    if (n < 0) raise(I, I.exc.ValueError, "negative count");
    if (static_cast<uint64_t>(n) > I.heap.limit) memory_budget_exceeded(I.heap, static_cast<size_t>(n));
    return std::string(static_cast<size_t>(n), '\0');
  }
  std::string out;
  for_each(I, src, [&](const Value& x) {
    int64_t v = index(I, x);
    if (v < 0 || v > 255) raise(I, I.exc.ValueError, "bytes must be in range(0, 256)");
    out += static_cast<char>(v);
  });
  return out;
}

static Value bytes_new(Interp& I, Type* cls, const Args& a) {
  static const Signature sig("bytes", "source=, encoding=, errors=");
  Value v[3];
  sig.bind(I, a, v);
  std::string s = v[0] ? bytes_from_source(I, v[0], v[1], v[2]) : std::string();
  return make_bytes(I, cls, std::move(s));
}
static Value bytearray_new(Interp& I, Type* cls, const Args& a) { return make_bytes(I, cls, ""); }
static void bytearray_init(Interp& I, const Value& self, const Args& a) {
  static const Signature sig("bytearray", "source=, encoding=, errors=");
  Value v[3];
  sig.bind(I, a, v);
  self_bytes(self)->s = v[0] ? bytes_from_source(I, v[0], v[1], v[2]) : std::string();
}
static Value bytes_alloc(Interp& I, Type* cls) { return I.make<Bytes>(cls).take_value(); }

#define BYTES_METHOD(name) static Value bytesm_##name(Interp& I, const Value& self, const Args& a)

static Value via_str(Interp& I, const Value& self, const Args& a, Str* name);

BYTES_METHOD(decode) {
  static const Signature sig("decode", "encoding=, errors=");
  Value v[2];
  sig.bind(I, a, v);
  return I.str(bytes_decode(I, self_bytes(self)->s, v[0] ? str_string(I, v[0]) : "utf-8", v[1] ? str_string(I, v[1]) : "strict"));
}
BYTES_METHOD(hex) {
  std::string out;
  for (unsigned char c : self_bytes(self)->s) out += fmt::format("{:02x}", c);
  return I.str(out);
}
static Value bytesm_fromhex(Interp& I, const Value& cls, const Args& a) {
  check_nargs(I, a, "fromhex", 1, 1);
  std::string s = str_string(I, a[0]), out;
  size_t i = 0;
  auto hexv = [](char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
  };
  while (i < s.size()) {
    if (s[i] == ' ') {
      ++i;
      continue;
    }
    if (i + 1 >= s.size() || hexv(s[i]) < 0 || hexv(s[i + 1]) < 0)
      raisef(I, I.exc.ValueError, "non-hexadecimal number found in fromhex() arg at position {}", i + 1 >= s.size() ? i + 1 : (hexv(s[i]) < 0 ? i : i + 1));
    out += static_cast<char>(hexv(s[i]) * 16 + hexv(s[i + 1]));
    i += 2;
  }
  return make_bytes(I, is_type(cls) ? as_type(cls) : I.t.bytes, std::move(out));
}
BYTES_METHOD(join) {
  check_nargs(I, a, "join", 1, 1);
  std::string out;
  size_t k = 0;
  for_each(I, a[0], [&](const Value& x) {
    if (!is_bytes_like(x))
      raisef(I, I.exc.TypeError, "sequence item {}: expected a bytes-like object, {} found", k, type_name(I, x));
    if (k) out += self_bytes(self)->s;
    out += self_bytes(x)->s;
    ++k;
  });
  return make_bytes(I, I.t.bytes, std::move(out));
}
static std::string bytes_arg(Interp& I, const Value& v) {
  if (!is_bytes_like(v)) raisef(I, I.exc.TypeError, "a bytes-like object is required, not '{}'", type_name(I, v));
  return self_bytes(v)->s;
}
BYTES_METHOD(startswith) {
  if (a.npos != 1 || a.nkw || !is_bytes_like(a[0])) return via_str(I, self, a, I.intern("startswith"));
  const std::string& s = self_bytes(self)->s;
  std::string p = bytes_arg(I, a[0]);
  return Value::boolean(s.compare(0, p.size(), p) == 0 && s.size() >= p.size());
}
BYTES_METHOD(endswith) {
  if (a.npos != 1 || a.nkw || !is_bytes_like(a[0])) return via_str(I, self, a, I.intern("endswith"));
  const std::string& s = self_bytes(self)->s;
  std::string p = bytes_arg(I, a[0]);
  return Value::boolean(s.size() >= p.size() && s.compare(s.size() - p.size(), p.size(), p) == 0);
}
BYTES_METHOD(find) {
  if (a.npos != 1 || a.nkw || !is_bytes_like(a[0])) return via_str(I, self, a, I.intern("find"));
  size_t p = self_bytes(self)->s.find(bytes_arg(I, a[0]));
  return Value::integer(p == std::string::npos ? -1 : static_cast<int64_t>(p));
}
BYTES_METHOD(count) {
  if (a.npos != 1 || a.nkw) return via_str(I, self, a, I.intern("count"));
  std::string sub = bytes_arg(I, a[0]);
  const std::string& s = self_bytes(self)->s;
  if (sub.empty()) return Value::integer(static_cast<int64_t>(s.size()) + 1);
  int64_t n = 0;
  for (size_t p = s.find(sub); p != std::string::npos; p = s.find(sub, p + sub.size())) ++n;
  return Value::integer(n);
}
BYTES_METHOD(replace) {
  check_nargs(I, a, "replace", 2, 2);
  std::string old = bytes_arg(I, a[0]), nw = bytes_arg(I, a[1]);
  const std::string& s = self_bytes(self)->s;
  std::string out;
  if (old.empty()) return make_bytes(I, I.t.bytes, s);
  size_t i = 0;
  for (size_t p = s.find(old); p != std::string::npos; p = s.find(old, i)) {
    out.append(s, i, p - i);
    out += nw;
    i = p + old.size();
  }
  out.append(s, i, std::string::npos);
  return make_bytes(I, I.t.bytes, std::move(out));
}
BYTES_METHOD(split) {
  const std::string& s = self_bytes(self)->s;
  std::vector<Value> out;
  if (a.npos == 0 || a[0].is_none()) {
    size_t i = 0;
    while (i < s.size()) {
      while (i < s.size() && std::isspace(static_cast<unsigned char>(s[i]))) ++i;
      if (i >= s.size()) break;
      size_t j = i;
      while (j < s.size() && !std::isspace(static_cast<unsigned char>(s[j]))) ++j;
      out.push_back(make_bytes(I, I.t.bytes, s.substr(i, j - i)));
      i = j;
    }
  } else {
    std::string sep = bytes_arg(I, a[0]);
    if (sep.empty()) raise(I, I.exc.ValueError, "empty separator");
    size_t i = 0;
    for (size_t p = s.find(sep); p != std::string::npos; p = s.find(sep, i)) {
      out.push_back(make_bytes(I, I.t.bytes, s.substr(i, p - i)));
      i = p + sep.size();
    }
    out.push_back(make_bytes(I, I.t.bytes, s.substr(i)));
  }
  return new_list(I, std::move(out));
}
BYTES_METHOD(strip) {
  const std::string& s = self_bytes(self)->s;
  std::string chars = a.npos && !a[0].is_none() ? bytes_arg(I, a[0]) : std::string(" \t\n\r\x0b\x0c");
  size_t b = s.find_first_not_of(chars);
  if (b == std::string::npos) return make_bytes(I, I.t.bytes, "");
  size_t e = s.find_last_not_of(chars);
  return make_bytes(I, I.t.bytes, s.substr(b, e - b + 1));
}
BYTES_METHOD(upper) {
  std::string s = self_bytes(self)->s;
  for (char& c : s) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return make_bytes(I, I.t.bytes, std::move(s));
}
BYTES_METHOD(lower) {
  std::string s = self_bytes(self)->s;
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return make_bytes(I, I.t.bytes, std::move(s));
}
BYTES_METHOD(append) {
  check_nargs(I, a, "append", 1, 1);
  int64_t x = index(I, a[0]);
  if (x < 0 || x > 255) raise(I, I.exc.ValueError, "byte must be in range(0, 256)");
  self_bytes(self)->s += static_cast<char>(x);
  return Value::none();
}
BYTES_METHOD(extend) {
  check_nargs(I, a, "extend", 1, 1);
  self_bytes(self)->s += bytes_from_source(I, a[0], Value(), Value());
  return Value::none();
}
BYTES_METHOD(pop) {
  std::string& s = self_bytes(self)->s;
  if (s.empty()) raise(I, I.exc.IndexError, "pop from empty bytearray");
  int64_t i = a.npos ? index(I, a[0]) : -1;
  if (!norm_index(i, static_cast<int64_t>(s.size()))) raise(I, I.exc.IndexError, "pop index out of range");
  int64_t v = static_cast<unsigned char>(s[i]);
  s.erase(s.begin() + i);
  return Value::integer(v);
}
BYTES_METHOD(iadd) { return Value(); }

// ---- ASCII predicates and case methods ----------------------------------------------------------------------

static bool b_lower(unsigned char c) { return c >= 'a' && c <= 'z'; }
static bool b_upper(unsigned char c) { return c >= 'A' && c <= 'Z'; }
static bool b_alpha(unsigned char c) { return b_lower(c) || b_upper(c); }
static bool b_digit(unsigned char c) { return c >= '0' && c <= '9'; }
static bool b_alnum(unsigned char c) { return b_alpha(c) || b_digit(c); }
static bool b_space(unsigned char c) { return c == ' ' || (c >= '\t' && c <= '\r'); }
static bool b_ascii(unsigned char c) { return c < 0x80; }

template <bool (*P)(unsigned char), bool kEmpty>
static Value bytes_all(Interp& I, const Value& self, const Args& a) {
  const std::string& s = self_bytes(self)->s;
  if (s.empty()) return Value::boolean(kEmpty);
  for (unsigned char c : s)
    if (!P(c)) return Value::boolean(false);
  return Value::boolean(true);
}
// isupper/islower: no byte of the other case and at least one cased byte.
template <bool (*Want)(unsigned char), bool (*Other)(unsigned char)>
static Value bytes_cased(Interp& I, const Value& self, const Args& a) {
  bool any = false;
  for (unsigned char c : self_bytes(self)->s) {
    if (Other(c)) return Value::boolean(false);
    any |= Want(c);
  }
  return Value::boolean(any);
}
BYTES_METHOD(istitle) {
  bool prev_cased = false, any = false;
  for (unsigned char c : self_bytes(self)->s) {
    if (b_upper(c)) {
      if (prev_cased) return Value::boolean(false);
      prev_cased = any = true;
    } else if (b_lower(c)) {
      if (!prev_cased) return Value::boolean(false);
      prev_cased = any = true;
    } else {
      prev_cased = false;
    }
  }
  return Value::boolean(any);
}
template <int kMode>  // 0 swapcase, 1 capitalize, 2 title
static Value bytes_case(Interp& I, const Value& self, const Args& a) {
  std::string s = self_bytes(self)->s;
  bool prev = false;
  for (size_t k = 0; k < s.size(); ++k) {
    unsigned char c = static_cast<unsigned char>(s[k]);
    bool up = kMode == 0 ? b_lower(c) : kMode == 1 ? k == 0 : !prev;
    if (kMode == 0 && !b_alpha(c)) continue;
    s[k] = static_cast<char>(up ? (b_lower(c) ? c - 32 : c) : (b_upper(c) ? c + 32 : c));
    prev = b_alpha(c);
  }
  return make_bytes(I, I.type_of(self), std::move(s));
}

// ---- methods shared with str ----------------------------------------------------------------------------------
// Searching, padding and splitting behave on bytes as str's methods do on the same text read as
// latin-1 (one code point per byte): these convert, call the str method, and convert back.

static Value latin1_str(Interp& I, const std::string& b) {
  std::string out;
  out.reserve(b.size());
  for (unsigned char c : b) {
    if (c < 0x80) {
      out += static_cast<char>(c);
    } else {
      out += static_cast<char>(0xC0 | (c >> 6));
      out += static_cast<char>(0x80 | (c & 0x3F));
    }
  }
  return I.str(std::move(out));
}
static std::string latin1_bytes(const std::string& s) {
  std::string out;
  out.reserve(s.size());
  size_t i = 0;
  while (i < s.size()) out += static_cast<char>(utf8_next(s, i));
  return out;
}
static Value to_bytes_result(Interp& I, Type* t, const Value& r) {
  if (is_str(r)) return make_bytes(I, t, latin1_bytes(as_str(r)->s));
  if (is_list(r) || is_tuple(r)) {
    std::vector<Value> items;
    for (const Value& x : to_vector(I, r)) items.push_back(to_bytes_result(I, t, x));
    return is_list(r) ? new_list(I, std::move(items)) : new_tuple(I, std::move(items));
  }
  return r;
}
static Value str_arg_of(Interp& I, const Value& v) {
  if (is_bytes_like(v)) return latin1_str(I, self_bytes(v)->s);
  if (is_tuple(v)) {  // startswith((b"a", b"b"))
    std::vector<Value> items;
    for (const Value& x : as_tuple(v)->items) items.push_back(str_arg_of(I, x));
    return new_tuple(I, std::move(items));
  }
  if (is_str(v)) raisef(I, I.exc.TypeError, "a bytes-like object is required, not 'str'");
  return v;
}
static Value via_str(Interp& I, const Value& self, const Args& a, Str* name) {
  Value s = latin1_str(I, self_bytes(self)->s);
  std::vector<Value> pos;
  for (uint32_t k = 0; k < a.npos; ++k) pos.push_back(str_arg_of(I, a.pos[k]));
  std::vector<Value> kw(a.kwvals, a.kwvals + a.nkw);
  for (auto& v : kw) v = str_arg_of(I, v);
  Args sa(pos.data(), static_cast<uint32_t>(pos.size()));
  sa.nkw = a.nkw;
  sa.kwnames = a.kwnames;
  sa.kwvals = kw.data();
  Type* t = I.type_of(self) == I.t.bytearray ? I.t.bytearray : I.t.bytes;
  return to_bytes_result(I, t, call_method(I, s, name, sa));
}
#define VIA_STR(name) \
  BYTES_METHOD(name) { return via_str(I, self, a, I.intern(#name)); }
VIA_STR(center)
VIA_STR(ljust)
VIA_STR(rjust)
VIA_STR(zfill)
VIA_STR(lstrip)
VIA_STR(rstrip)
VIA_STR(partition)
VIA_STR(rpartition)
VIA_STR(rsplit)
VIA_STR(splitlines)
VIA_STR(index)
VIA_STR(rfind)
VIA_STR(rindex)
VIA_STR(removeprefix)
VIA_STR(removesuffix)
VIA_STR(expandtabs)
#undef VIA_STR

static Value bytearray_iadd(Interp& I, const Value& self, const Value& other) {
  self_bytes(self)->s += bytes_arg(I, other);
  return self;
}

void init_bytes_types(Interp& I) {
  auto common = [&](TypeSpec& s) {
    s.layout = Layout::Bytes;
    s.alloc = &bytes_alloc;
    s.slots.repr = &bytes_repr;
    s.slots.len = &bytes_len;
    s.slots.getitem = &bytes_getitem;
    s.slots.contains = &bytes_contains;
    s.slots.add = &bytes_add;
    s.slots.mul = &bytes_mul;
    s.slots.rmul = &bytes_mul;
    s.slots.mod = &bytes_mod;
    s.slots.eq = &bytes_eq;
    s.slots.ne = &bytes_ne;
    s.slots.lt = &bytes_lt;
    s.slots.le = &bytes_le;
    s.slots.gt = &bytes_gt;
    s.slots.ge = &bytes_ge;
    s.slots.iter = &bytes_iter;
    s.methods = {
        {"decode", &bytesm_decode},   {"hex", &bytesm_hex},         {"fromhex", &bytesm_fromhex, kNativeClass},
        {"join", &bytesm_join},       {"startswith", &bytesm_startswith}, {"endswith", &bytesm_endswith},
        {"find", &bytesm_find},       {"count", &bytesm_count},     {"replace", &bytesm_replace},
        {"split", &bytesm_split},     {"strip", &bytesm_strip},     {"upper", &bytesm_upper},
        {"lower", &bytesm_lower},
        {"isalpha", &bytes_all<&b_alpha, false>},     {"isdigit", &bytes_all<&b_digit, false>},
        {"isalnum", &bytes_all<&b_alnum, false>},     {"isspace", &bytes_all<&b_space, false>},
        {"isascii", &bytes_all<&b_ascii, true>},      {"isupper", &bytes_cased<&b_upper, &b_lower>},
        {"islower", &bytes_cased<&b_lower, &b_upper>}, {"istitle", &bytesm_istitle},
        {"swapcase", &bytes_case<0>},  {"capitalize", &bytes_case<1>},  {"title", &bytes_case<2>},
        {"center", &bytesm_center},   {"ljust", &bytesm_ljust},     {"rjust", &bytesm_rjust},
        {"zfill", &bytesm_zfill},     {"lstrip", &bytesm_lstrip},   {"rstrip", &bytesm_rstrip},
        {"partition", &bytesm_partition}, {"rpartition", &bytesm_rpartition}, {"rsplit", &bytesm_rsplit},
        {"splitlines", &bytesm_splitlines}, {"index", &bytesm_index}, {"rfind", &bytesm_rfind},
        {"rindex", &bytesm_rindex},   {"removeprefix", &bytesm_removeprefix},
        {"removesuffix", &bytesm_removesuffix}, {"expandtabs", &bytesm_expandtabs},
    };
  };
  {
    TypeSpec s;
    s.name = "bytes";
    common(s);
    s.slots.hash = &bytes_hash_slot;
    s.slots.new_ = &bytes_new;
    init_native_type(I, I.t.bytes, s);
  }
  {
    TypeSpec s;
    s.name = "bytearray";
    common(s);
    s.slots.new_ = &bytearray_new;
    s.slots.init = &bytearray_init;
    s.slots.setitem = &bytearray_setitem;
    s.slots.iadd = &bytearray_iadd;
    s.methods.push_back({"append", &bytesm_append});
    s.methods.push_back({"extend", &bytesm_extend});
    s.methods.push_back({"pop", &bytesm_pop});
    init_native_type(I, I.t.bytearray, s);
  }
  {
    TypeSpec s;
    s.name = "bytes_iterator";
    s.flags = 0;
    s.slots.iter = &iter_self;
    s.slots.next = &bytes_iter_next;
    init_native_type(I, I.t.bytes_iterator, s);
  }
  (void)bytesm_iadd;
}

Value new_bytes(Interp& I, std::string s) { return make_bytes(I, I.t.bytes, std::move(s)); }

}  // namespace onnxify::eval
