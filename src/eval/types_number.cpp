// int, bool, float, complex: arithmetic with Python's semantics (floor division and modulo signs,
// true division, exact int/float comparison, CPython's numeric hash). Ints are 64-bit: a result
// that does not fit is a clear error, never a wrap-around.
#include <charconv>
#include <cmath>
#include <cstring>

#include "eval/internal.h"
#include "eval/poison.h"
#include "eval/unicode.h"

namespace onnxify::eval {

std::string float_body(double d, char type, int precision, bool alt);

// ---- helpers ---------------------------------------------------------------------------------------

void int_overflow(Interp& I, const char* what) {
  fatal(I, fmt::format("integer overflow in {}: onnxify's int is 64-bit and the result does not fit", what),
        "Python ints are unbounded; onnxify supports ints that fit in 64 bits");
}

// An arithmetic result that does not fit 64 bits is an unknown value, not a wrap and not an error
// yet (DESIGN.md decision 6): ipaddress's class body computes IPv6's 2**128 - 1, which a program
// that only parses URLs never reads. Where a concrete value is needed, the error says why.
static Value int_overflow_value(Interp& I, const char* what) {
  return make_poison(I, "int",
                     fmt::format("integer overflow in {}: onnxify's int is 64-bit and the result does not fit", what));
}

int64_t hash_int(int64_t v) {
  constexpr uint64_t P = (uint64_t{1} << 61) - 1;
  bool neg = v < 0;
  uint64_t u = neg ? 0 - static_cast<uint64_t>(v) : static_cast<uint64_t>(v);
  u %= P;
  int64_t h = neg ? -static_cast<int64_t>(u) : static_cast<int64_t>(u);
  return h == -1 ? -2 : h;
}

int64_t hash_double(double d) {
  constexpr int kBits = 61;
  constexpr uint64_t P = (uint64_t{1} << kBits) - 1;
  if (std::isinf(d)) return d > 0 ? 314159 : -314159;
  if (std::isnan(d)) return 0;
  int e;
  double m = std::frexp(d, &e);
  int sign = 1;
  if (m < 0) {
    sign = -1;
    m = -m;
  }
  uint64_t x = 0;
  while (m) {
    x = ((x << 28) & P) | x >> (kBits - 28);
    m *= 268435456.0;
    e -= 28;
    uint64_t y = static_cast<uint64_t>(m);
    m -= static_cast<double>(y);
    x += y;
    if (x >= P) x -= P;
  }
  e = e >= 0 ? e % kBits : kBits - 1 - ((-1 - e) % kBits);
  x = ((x << e) & P) | x >> (kBits - e);
  int64_t h = static_cast<int64_t>(x) * sign;
  return h == -1 ? -2 : h;
}

static inline bool num_to_double(const Value& v, double* d) {
  if (float_value(v, d)) return true;
  int64_t i;
  if (int_value(v, &i)) {
    *d = static_cast<double>(i);
    return true;
  }
  return false;
}

// Exact comparison of an int with a float: long double holds every int64 and every double exactly.
static int cmp_int_float(int64_t i, double d) {
  long double a = static_cast<long double>(i), b = static_cast<long double>(d);
  return a < b ? -1 : a > b ? 1 : 0;
}

static Value cmp_result(CmpOp op, int c) {
  switch (op) {
    case CmpOp::Eq: return Value::boolean(c == 0);
    case CmpOp::Ne: return Value::boolean(c != 0);
    case CmpOp::Lt: return Value::boolean(c < 0);
    case CmpOp::Le: return Value::boolean(c <= 0);
    case CmpOp::Gt: return Value::boolean(c > 0);
    case CmpOp::Ge: return Value::boolean(c >= 0);
    default: return Value::boolean(false);
  }
}

// ---- int arithmetic -----------------------------------------------------------------------------------

Value int_floordiv(Interp& I, int64_t a, int64_t b) {
  if (b == 0) raise(I, I.exc.ZeroDivisionError, "integer division or modulo by zero");
  if (a == INT64_MIN && b == -1) return int_overflow_value(I, "//");
  int64_t q = a / b;
  if ((a % b != 0) && ((a < 0) != (b < 0))) --q;
  return Value::integer(q);
}

Value int_mod(Interp& I, int64_t a, int64_t b) {
  if (b == 0) raise(I, I.exc.ZeroDivisionError, "integer modulo by zero");
  if (b == -1) return Value::integer(0);
  int64_t r = a % b;
  if (r != 0 && ((r < 0) != (b < 0))) r += b;
  return Value::integer(r);
}

Value int_pow(Interp& I, int64_t a, int64_t b) {
  if (b < 0) {
    if (a == 0) raise(I, I.exc.ZeroDivisionError, "0.0 cannot be raised to a negative power");
    return Value::real(std::pow(static_cast<double>(a), static_cast<double>(b)));
  }
  int64_t result = 1, base = a;
  int64_t e = b;
  while (e > 0) {
    if (e & 1) {
      if (__builtin_mul_overflow(result, base, &result)) return int_overflow_value(I, "**");
    }
    e >>= 1;
    if (e > 0 && __builtin_mul_overflow(base, base, &base)) {
      // base overflowing only matters if it is still used.
      return int_overflow_value(I, "**");
    }
  }
  return Value::integer(result);
}

static double int_truediv_d(Interp& I, int64_t a, int64_t b) {
  if (b == 0) raise(I, I.exc.ZeroDivisionError, "division by zero");
  constexpr int64_t k53 = int64_t{1} << 53;
  if (a > -k53 && a < k53 && b > -k53 && b < k53) return static_cast<double>(a) / static_cast<double>(b);
  return static_cast<double>(static_cast<long double>(a) / static_cast<long double>(b));
}

#define INT_BINOP(name, ...)                                          \
  static Value int_##name(Interp& I, const Value& self, const Value& other) { \
    int64_t a, b;                                                      \
    if (!int_value(self, &a) || !int_value(other, &b)) return I.notimplemented; \
    __VA_ARGS__;                                                              \
  }                                                                    \
  static Value int_r##name(Interp& I, const Value& self, const Value& other) { \
    return int_##name(I, other, self);                                 \
  }

INT_BINOP(add, {
  int64_t r;
  if (__builtin_add_overflow(a, b, &r)) return int_overflow_value(I, "+");
  return Value::integer(r);
})
INT_BINOP(sub, {
  int64_t r;
  if (__builtin_sub_overflow(a, b, &r)) return int_overflow_value(I, "-");
  return Value::integer(r);
})
INT_BINOP(mul, {
  int64_t r;
  if (__builtin_mul_overflow(a, b, &r)) return int_overflow_value(I, "*");
  return Value::integer(r);
})
INT_BINOP(truediv, { return Value::real(int_truediv_d(I, a, b)); })
INT_BINOP(floordiv, { return int_floordiv(I, a, b); })
INT_BINOP(mod, { return int_mod(I, a, b); })
INT_BINOP(pow, { return int_pow(I, a, b); })
INT_BINOP(lshift, {
  if (b < 0) raise(I, I.exc.ValueError, "negative shift count");
  if (a == 0) return Value::integer(0);
  if (b >= 63) return int_overflow_value(I, "<<");
  int64_t r = static_cast<int64_t>(static_cast<uint64_t>(a) << b);
  if ((r >> b) != a) return int_overflow_value(I, "<<");
  return Value::integer(r);
})
INT_BINOP(rshift, {
  if (b < 0) raise(I, I.exc.ValueError, "negative shift count");
  if (b >= 64) return Value::integer(a < 0 ? -1 : 0);
  return Value::integer(a >> b);
})
INT_BINOP(and, { return Value::integer(a & b); })
INT_BINOP(or, { return Value::integer(a | b); })
INT_BINOP(xor, { return Value::integer(a ^ b); })
INT_BINOP(divmod, {
  Value q = int_floordiv(I, a, b);
  return tuple_pair(I, q, int_mod(I, a, b));
})

static Value bool_and(Interp& I, const Value& self, const Value& other) {
  if (self.is_bool() && other.is_bool()) return Value::boolean(self.b() && other.b());
  return int_and(I, self, other);
}
static Value bool_or(Interp& I, const Value& self, const Value& other) {
  if (self.is_bool() && other.is_bool()) return Value::boolean(self.b() || other.b());
  return int_or(I, self, other);
}
static Value bool_xor(Interp& I, const Value& self, const Value& other) {
  if (self.is_bool() && other.is_bool()) return Value::boolean(self.b() != other.b());
  return int_xor(I, self, other);
}
static Value bool_rand(Interp& I, const Value& self, const Value& other) { return bool_and(I, other, self); }
static Value bool_ror(Interp& I, const Value& self, const Value& other) { return bool_or(I, other, self); }
static Value bool_rxor(Interp& I, const Value& self, const Value& other) { return bool_xor(I, other, self); }

static int64_t self_int(const Value& v) {
  int64_t i = 0;
  int_value(v, &i);
  return i;
}

static Value int_neg(Interp& I, const Value& self) {
  int64_t a = self_int(self);
  if (a == INT64_MIN) return int_overflow_value(I, "unary -");
  return Value::integer(-a);
}
static Value int_pos(Interp& I, const Value& self) { return Value::integer(self_int(self)); }
static Value int_invert(Interp& I, const Value& self) { return Value::integer(~self_int(self)); }
static Value int_abs(Interp& I, const Value& self) {
  int64_t a = self_int(self);
  if (a == INT64_MIN) return int_overflow_value(I, "abs()");
  return Value::integer(a < 0 ? -a : a);
}
static Truth int_bool(Interp& I, const Value& self) { return self_int(self) ? kTrue : kFalse; }
static Value int_index(Interp& I, const Value& self) { return Value::integer(self_int(self)); }
static Value int_float(Interp& I, const Value& self) { return Value::real(static_cast<double>(self_int(self))); }
static int64_t int_hash(Interp& I, const Value& self) { return hash_int(self_int(self)); }
static Value int_repr(Interp& I, const Value& self) { return I.str(int_to_string(self_int(self), 10)); }
static Value bool_repr(Interp& I, const Value& self) { return I.str(self_int(self) ? "True" : "False"); }

static Value int_cmp(Interp& I, CmpOp op, const Value& self, const Value& other) {
  int64_t a = self_int(self), b;
  if (int_value(other, &b)) return cmp_result(op, a < b ? -1 : a > b ? 1 : 0);
  double d;
  if (float_value(other, &d)) {
    if (std::isnan(d)) return Value::boolean(op == CmpOp::Ne);
    return cmp_result(op, cmp_int_float(a, d));
  }
  return I.notimplemented;
}
static Value int_eq(Interp& I, const Value& s, const Value& o) { return int_cmp(I, CmpOp::Eq, s, o); }
static Value int_ne(Interp& I, const Value& s, const Value& o) { return int_cmp(I, CmpOp::Ne, s, o); }
static Value int_lt(Interp& I, const Value& s, const Value& o) { return int_cmp(I, CmpOp::Lt, s, o); }
static Value int_le(Interp& I, const Value& s, const Value& o) { return int_cmp(I, CmpOp::Le, s, o); }
static Value int_gt(Interp& I, const Value& s, const Value& o) { return int_cmp(I, CmpOp::Gt, s, o); }
static Value int_ge(Interp& I, const Value& s, const Value& o) { return int_cmp(I, CmpOp::Ge, s, o); }

static Value int_format(Interp& I, const Value& self, const Value& spec) {
  if (!is_str(spec)) raisef(I, I.exc.TypeError, "format() argument 2 must be str, not {}", type_name(I, spec));
  const std::string& s = as_str(spec)->s;
  if (s.empty()) return to_str(I, self);
  return I.str(format_int(I, self_int(self), s));
}

bool parse_int(std::string_view s, int base, int64_t* out, bool* overflow) {
  *overflow = false;
  size_t b = 0, e = s.size();
  while (b < e && std::isspace(static_cast<unsigned char>(s[b]))) ++b;
  while (e > b && std::isspace(static_cast<unsigned char>(s[e - 1]))) --e;
  s = s.substr(b, e - b);
  bool neg = false;
  if (!s.empty() && (s[0] == '+' || s[0] == '-')) {
    neg = s[0] == '-';
    s.remove_prefix(1);
  }
  if (s.empty()) return false;
  bool prefixed = false;
  if (s.size() >= 2 && s[0] == '0') {
    char p = static_cast<char>(std::tolower(static_cast<unsigned char>(s[1])));
    int pb = p == 'x' ? 16 : p == 'o' ? 8 : p == 'b' ? 2 : 0;
    if (pb && (base == 0 || base == pb)) {
      base = pb;
      s.remove_prefix(2);
      prefixed = true;
      if (!s.empty() && s[0] == '_') s.remove_prefix(1);
    }
  }
  if (base == 0) {
    base = 10;
    // Base 0 rejects leading zeros in non-zero decimals ("010").
    if (s.size() > 1 && s[0] == '0') {
      for (char c : s)
        if (c != '0' && c != '_') return false;
    }
  }
  if (s.empty()) return false;
  unsigned __int128 acc = 0;
  bool any = false;
  char prev = 0;
  for (size_t i = 0; i < s.size(); ++i) {
    char c = s[i];
    if (c == '_') {
      if (prev == '_' || prev == 0 || i + 1 == s.size()) return false;
      prev = c;
      continue;
    }
    int d;
    if (c >= '0' && c <= '9') d = c - '0';
    else if (c >= 'a' && c <= 'z') d = c - 'a' + 10;
    else if (c >= 'A' && c <= 'Z') d = c - 'A' + 10;
    else return false;
    if (d >= base) return false;
    acc = acc * base + d;
    if (acc > (static_cast<unsigned __int128>(1) << 64)) *overflow = true;
    any = true;
    prev = c;
  }
  (void)prefixed;
  if (!any) return false;
  if (*overflow) return true;
  if (neg) {
    if (acc > (static_cast<unsigned __int128>(1) << 63)) {
      *overflow = true;
      return true;
    }
    *out = static_cast<int64_t>(0 - static_cast<uint64_t>(acc));
  } else {
    if (acc > static_cast<unsigned __int128>(INT64_MAX)) {
      *overflow = true;
      return true;
    }
    *out = static_cast<int64_t>(acc);
  }
  return true;
}

static int64_t float_to_int(Interp& I, double d) {
  if (std::isnan(d)) raise(I, I.exc.ValueError, "cannot convert float NaN to integer");
  if (std::isinf(d)) raise(I, I.exc.OverflowError, "cannot convert float infinity to integer");
  double t = std::trunc(d);
  if (t >= 9223372036854775808.0 || t < -9223372036854775808.0) int_overflow(I, "int()");
  return static_cast<int64_t>(t);
}

static Value make_int_of_type(Interp& I, Type* cls, int64_t v) {
  if (cls == I.t.int_) return Value::integer(v);
  Value o = alloc_instance(I, cls);
  static_cast<BoxedInt*>(o.obj())->v = v;
  return o;
}

static Value boxed_int_alloc(Interp& I, Type* cls) { return I.make<BoxedInt>(cls).take_value(); }

// The text of a number to parse: a str has its Unicode decimal digits and spaces turned into ASCII
// ('٣٤' -> '34'), as CPython's int() and float() accept them.
static std::string number_text(const Value& x) {
  if (!is_str(x)) return as<Bytes>(x)->s;
  const Str* s = as_str(x);
  if (s->ascii) return s->s;
  std::string out;
  size_t i = 0;
  while (i < s->s.size()) {
    size_t start = i;
    uint32_t c = utf8_next(s->s, i);
    int d = c >= 0x80 ? uni::decimal(c) : -1;
    if (d >= 0) out += static_cast<char>('0' + d);
    else if (c >= 0x80 && uni::has(c, uni::kSpace)) out += ' ';
    else out.append(s->s, start, i - start);
  }
  return out;
}

static int64_t int_from_value(Interp& I, const Value& x) {
  int64_t v;
  if (int_value(x, &v)) return v;
  double d;
  if (float_value(x, &d)) return float_to_int(I, d);
  if (is_str(x) || has_layout(x, Layout::Bytes)) {
    std::string s = number_text(x);
    bool ovf;
    if (!parse_int(s, 10, &v, &ovf))
      raisef(I, I.exc.ValueError, "invalid literal for int() with base 10: {}", repr_string(I, x));
    if (ovf) int_overflow(I, "int()");
    return v;
  }
  Type* t = I.type_of(x);
  if (t->slots.int_) {
    Value r = t->slots.int_(I, x);
    if (int_value(r, &v)) return v;
    raisef(I, I.exc.TypeError, "__int__ returned non-int (type {})", type_name(I, r));
  }
  if (t->slots.index) return index(I, x);
  Value tr = type_lookup(t, I.names.__trunc__);
  if (tr) {
    Value r = call_unbound(I, tr, x);
    if (int_value(r, &v)) return v;
    return index(I, r);
  }
  raisef(I, I.exc.TypeError, "int() argument must be a string, a bytes-like object or a real number, not '{}'",
         t->name_view());
}

static Value int_new(Interp& I, Type* cls, const Args& a) {
  static const Signature sig("int", "x=, /, base=");
  Value v[2];
  sig.bind(I, a, v);
  if (!v[0]) {
    if (v[1]) raise(I, I.exc.TypeError, "int() missing string argument");
    return make_int_of_type(I, cls, 0);
  }
  // int() and float() of an unknown value convert it, they do not decide anything: the result is
  // unknown too, an error only where a concrete value is needed (DESIGN.md decision 6).
  if (is_poison(v[0])) return derive_poison(I, v[0], "int(" + as<Poison>(v[0])->what + ")");
  if (v[1]) {
    int64_t base = index(I, v[1]);
    if (base != 0 && (base < 2 || base > 36)) raise(I, I.exc.ValueError, "int() base must be >= 2 and <= 36, or 0");
    if (!is_str(v[0]) && !has_layout(v[0], Layout::Bytes))
      raise(I, I.exc.TypeError, "int() can't convert non-string with explicit base");
    std::string s = number_text(v[0]);
    int64_t r;
    bool ovf;
    if (!parse_int(s, static_cast<int>(base), &r, &ovf))
      raisef(I, I.exc.ValueError, "invalid literal for int() with base {}: {}", base, repr_string(I, v[0]));
    if (ovf) return int_overflow_value(I, "int()");
    return make_int_of_type(I, cls, r);
  }
  if (cls == I.t.int_ && I.symbolic.to_int)
    if (Value r = I.symbolic.to_int(I, v[0])) return r;
  return make_int_of_type(I, cls, int_from_value(I, v[0]));
}

static Value bool_new(Interp& I, Type* cls, const Args& a) {
  if (a.nkw) raise(I, I.exc.TypeError, "bool() takes no keyword arguments");
  if (a.npos > 1) raisef(I, I.exc.TypeError, "bool expected at most 1 argument, got {}", a.npos);
  if (a.npos == 0) return Value::boolean(false);
  return Value::boolean(is_true(I, a[0]));
}

static Value int_bit_length(Interp& I, const Value& self, const Args& a) {
  check_nargs(I, a, "int.bit_length", 0, 0);
  int64_t v = self_int(self);
  uint64_t u = v < 0 ? 0 - static_cast<uint64_t>(v) : static_cast<uint64_t>(v);
  return Value::integer(u ? 64 - __builtin_clzll(u) : 0);
}
static Value int_bit_count(Interp& I, const Value& self, const Args& a) {
  check_nargs(I, a, "int.bit_count", 0, 0);
  int64_t v = self_int(self);
  uint64_t u = v < 0 ? 0 - static_cast<uint64_t>(v) : static_cast<uint64_t>(v);
  return Value::integer(__builtin_popcountll(u));
}
static Value int_conjugate(Interp& I, const Value& self, const Args& a) { return Value::integer(self_int(self)); }
static Value int_as_integer_ratio(Interp& I, const Value& self, const Args& a) {
  return tuple_pair(I, Value::integer(self_int(self)), Value::integer(1));
}
static Value int_round(Interp& I, const Value& self, const Args& a) {
  check_nargs(I, a, "__round__", 0, 1);
  int64_t v = self_int(self);
  if (a.npos == 0 || a[0].is_none()) return Value::integer(v);
  int64_t nd = index(I, a[0]);
  if (nd >= 0) return Value::integer(v);
  if (nd < -18) return Value::integer(0);
  int64_t p = 1;
  for (int64_t k = 0; k < -nd; ++k) p *= 10;
  // Round half to even at the 10**-nd place.
  int64_t q = int_floordiv(I, v, p).i();
  int64_t r = v - q * p;
  if (2 * r > p || (2 * r == p && (q & 1))) ++q;
  int64_t out;
  if (__builtin_mul_overflow(q, p, &out)) int_overflow(I, "round()");
  return Value::integer(out);
}
static Value int_trunc(Interp& I, const Value& self, const Args& a) { return Value::integer(self_int(self)); }
static Value int_to_bytes(Interp& I, const Value& self, const Args& a) {
  static const Signature sig("to_bytes", "length=, byteorder=, *, signed=");
  Value v[3];
  sig.bind(I, a, v);
  int64_t length = v[0] ? index(I, v[0]) : 1;
  std::string order = v[1] ? str_string(I, v[1]) : "big";
  bool sgn = v[2] && is_true(I, v[2]);
  int64_t x = self_int(self);
  if (length < 0) raise(I, I.exc.ValueError, "length argument must be non-negative");
  if (!sgn && x < 0) raise(I, I.exc.OverflowError, "can't convert negative int to unsigned");
  std::string out(static_cast<size_t>(length), '\0');
  uint64_t u = static_cast<uint64_t>(x);
  for (int64_t k = 0; k < length; ++k) {
    out[k] = static_cast<char>(k < 8 ? (u >> (8 * k)) & 0xff : (x < 0 ? 0xff : 0));
  }
  // Check the value fits.
  if (length < 8) {
    int64_t lim = int64_t{1} << (8 * length - (sgn ? 1 : 0));
    if ((sgn && (x >= lim || x < -lim)) || (!sgn && x >= (int64_t{1} << (8 * length))))
      raise(I, I.exc.OverflowError, "int too big to convert");
  }
  if (order == "big") std::reverse(out.begin(), out.end());
  else if (order != "little") raise(I, I.exc.ValueError, "byteorder must be either 'little' or 'big'");
  auto b = I.make<Bytes>(I.t.bytes);
  b->s = std::move(out);
  return b.take_value();
}
static Value int_from_bytes(Interp& I, const Value& cls, const Args& a) {
  static const Signature sig("from_bytes", "bytes, byteorder=, *, signed=");
  Value v[3];
  sig.bind(I, a, v);
  std::string data;
  if (has_layout(v[0], Layout::Bytes)) data = as<Bytes>(v[0])->s;
  else for_each(I, v[0], [&](const Value& x) { data += static_cast<char>(index(I, x)); });
  std::string order = v[1] ? str_string(I, v[1]) : "big";
  bool sgn = v[2] && is_true(I, v[2]);
  if (order == "little") std::reverse(data.begin(), data.end());
  if (data.size() > 8) int_overflow(I, "int.from_bytes()");
  uint64_t u = 0;
  for (unsigned char c : data) u = (u << 8) | c;
  int64_t r = static_cast<int64_t>(u);
  if (sgn && !data.empty() && data.size() < 8 && (static_cast<unsigned char>(data[0]) & 0x80))
    r = static_cast<int64_t>(u) - (int64_t{1} << (8 * data.size()));
  if (!sgn && data.size() == 8 && r < 0) int_overflow(I, "int.from_bytes()");
  return Value::integer(r);
}
static Value int_getnewargs(Interp& I, const Value& self, const Args& a) {
  return new_tuple(I, {Value::integer(self_int(self))});
}

static Value int_real(Interp& I, const Value& self) { return Value::integer(self_int(self)); }
static Value int_imag(Interp& I, const Value& self) { return Value::integer(0); }
static Value int_denominator(Interp& I, const Value& self) { return Value::integer(1); }

// ---- float ------------------------------------------------------------------------------------------

double float_mod(Interp& I, double vx, double wx) {
  if (wx == 0) raise(I, I.exc.ZeroDivisionError, "float modulo");
  double mod = std::fmod(vx, wx);
  if (mod) {
    if ((wx < 0) != (mod < 0)) mod += wx;
  } else {
    mod = std::copysign(0.0, wx);
  }
  return mod;
}

static void float_divmod_impl(double vx, double wx, double* fd, double* md) {
  double mod = std::fmod(vx, wx);
  double div = (vx - mod) / wx;
  if (mod) {
    if ((wx < 0) != (mod < 0)) {
      mod += wx;
      div -= 1.0;
    }
  } else {
    mod = std::copysign(0.0, wx);
  }
  double floordiv;
  if (div) {
    floordiv = std::floor(div);
    if (div - floordiv > 0.5) floordiv += 1.0;
  } else {
    floordiv = std::copysign(0.0, vx / wx);
  }
  *fd = floordiv;
  *md = mod;
}

double float_floordiv(Interp& I, double a, double b) {
  if (b == 0) raise(I, I.exc.ZeroDivisionError, "float floor division by zero");
  double q, m;
  float_divmod_impl(a, b, &q, &m);
  return q;
}

static bool is_odd_integer(double w) {
  return std::fmod(std::fabs(w), 2.0) == 1.0;
}

static Value complex_value(Interp& I, double re, double im);
static Value complex_pow_values(Interp& I, double ar, double ai, double br, double bi);

static Value float_pow_d(Interp& I, double iv, double iw) {
  if (iw == 0) return Value::real(1.0);
  if (std::isnan(iv)) return Value::real(iv);
  if (std::isnan(iw)) return Value::real(iv == 1.0 ? 1.0 : iw);
  if (std::isinf(iw)) {
    iv = std::fabs(iv);
    if (iv == 1.0) return Value::real(1.0);
    if ((iw > 0) == (iv > 1.0)) return Value::real(std::fabs(iw));
    return Value::real(0.0);
  }
  if (std::isinf(iv)) {
    bool odd = is_odd_integer(iw);
    if (iv > 0) return Value::real(iw > 0 ? iv : 0.0);
    return Value::real(iw > 0 ? (odd ? iv : -iv) : (odd ? -0.0 : 0.0));
  }
  if (iv == 0.0) {
    if (iw < 0) raise(I, I.exc.ZeroDivisionError, "0.0 cannot be raised to a negative power");
    return Value::real(is_odd_integer(iw) ? iv : 0.0);
  }
  bool negate = false;
  if (iv < 0.0) {
    if (iw != std::floor(iw)) return complex_pow_values(I, iv, 0.0, iw, 0.0);
    iv = -iv;
    negate = is_odd_integer(iw);
  }
  if (iv == 1.0) return Value::real(negate ? -1.0 : 1.0);
  double r = std::pow(iv, iw);
  if (std::isinf(r)) raise_value(I, make_exception_args(I, I.exc.OverflowError, {Value::integer(34), I.str("Numerical result out of range")}));
  return Value::real(negate ? -r : r);
}

static double self_float(const Value& v) {
  double d = 0;
  float_value(v, &d);
  return d;
}

#define FLOAT_BINOP(name, ...)                                                   \
  static Value float_##name(Interp& I, const Value& self, const Value& other) {   \
    double a, b;                                                                  \
    if (!num_to_double(self, &a) || !num_to_double(other, &b)) return I.notimplemented; \
    __VA_ARGS__;                                                                         \
  }                                                                               \
  static Value float_r##name(Interp& I, const Value& self, const Value& other) {  \
    return float_##name(I, other, self);                                          \
  }

FLOAT_BINOP(add, { return Value::real(a + b); })
FLOAT_BINOP(sub, { return Value::real(a - b); })
FLOAT_BINOP(mul, { return Value::real(a * b); })
FLOAT_BINOP(truediv, {
  if (b == 0) raise(I, I.exc.ZeroDivisionError, "float division by zero");
  return Value::real(a / b);
})
FLOAT_BINOP(floordiv, { return Value::real(float_floordiv(I, a, b)); })
FLOAT_BINOP(mod, { return Value::real(float_mod(I, a, b)); })
FLOAT_BINOP(pow, { return float_pow_d(I, a, b); })
FLOAT_BINOP(divmod, {
  if (b == 0) raise(I, I.exc.ZeroDivisionError, "float divmod()");
  double q, m;
  float_divmod_impl(a, b, &q, &m);
  return tuple_pair(I, Value::real(q), Value::real(m));
})

static Value float_neg(Interp& I, const Value& self) { return Value::real(-self_float(self)); }
static Value float_pos(Interp& I, const Value& self) { return Value::real(self_float(self)); }
static Value float_abs(Interp& I, const Value& self) { return Value::real(std::fabs(self_float(self))); }
static Truth float_bool(Interp& I, const Value& self) { return self_float(self) != 0 ? kTrue : kFalse; }
static Value float_int(Interp& I, const Value& self) { return Value::integer(float_to_int(I, self_float(self))); }
static Value float_float(Interp& I, const Value& self) { return Value::real(self_float(self)); }
static int64_t float_hash(Interp& I, const Value& self) {
  double d = self_float(self);
  if (std::isnan(d)) return static_cast<int64_t>(reinterpret_cast<uintptr_t>(self.is_obj() ? self.obj() : nullptr) >> 4);
  return hash_double(d);
}
static Value float_repr_slot(Interp& I, const Value& self) { return I.str(float_repr(self_float(self))); }

static Value float_cmp(Interp& I, CmpOp op, const Value& self, const Value& other) {
  double a = self_float(self), b;
  if (float_value(other, &b)) {
    if (std::isnan(a) || std::isnan(b)) return Value::boolean(op == CmpOp::Ne);
    return cmp_result(op, a < b ? -1 : a > b ? 1 : 0);
  }
  int64_t i;
  if (int_value(other, &i)) {
    if (std::isnan(a)) return Value::boolean(op == CmpOp::Ne);
    return cmp_result(op, -cmp_int_float(i, a));
  }
  return I.notimplemented;
}
static Value float_eq(Interp& I, const Value& s, const Value& o) { return float_cmp(I, CmpOp::Eq, s, o); }
static Value float_ne(Interp& I, const Value& s, const Value& o) { return float_cmp(I, CmpOp::Ne, s, o); }
static Value float_lt(Interp& I, const Value& s, const Value& o) { return float_cmp(I, CmpOp::Lt, s, o); }
static Value float_le(Interp& I, const Value& s, const Value& o) { return float_cmp(I, CmpOp::Le, s, o); }
static Value float_gt(Interp& I, const Value& s, const Value& o) { return float_cmp(I, CmpOp::Gt, s, o); }
static Value float_ge(Interp& I, const Value& s, const Value& o) { return float_cmp(I, CmpOp::Ge, s, o); }

static Value float_format(Interp& I, const Value& self, const Value& spec) {
  if (!is_str(spec)) raisef(I, I.exc.TypeError, "format() argument 2 must be str, not {}", type_name(I, spec));
  const std::string& s = as_str(spec)->s;
  if (s.empty()) return to_str(I, self);
  return I.str(format_float(I, self_float(self), s));
}

static Value make_float_of_type(Interp& I, Type* cls, double d) {
  if (cls == I.t.float_) return Value::real(d);
  Value o = alloc_instance(I, cls);
  static_cast<BoxedFloat*>(o.obj())->v = d;
  return o;
}
static Value boxed_float_alloc(Interp& I, Type* cls) { return I.make<BoxedFloat>(cls).take_value(); }

static Value float_new(Interp& I, Type* cls, const Args& a) {
  if (a.nkw) raise(I, I.exc.TypeError, "float() takes no keyword arguments");
  if (a.npos > 1) raisef(I, I.exc.TypeError, "float expected at most 1 argument, got {}", a.npos);
  if (a.npos == 0) return make_float_of_type(I, cls, 0.0);
  const Value& x = a[0];
  if (is_poison(x)) return derive_poison(I, x, "float(" + as<Poison>(x)->what + ")");
  double d;
  if (float_value(x, &d)) return make_float_of_type(I, cls, d);
  int64_t i;
  if (int_value(x, &i)) return make_float_of_type(I, cls, static_cast<double>(i));
  if (is_str(x) || has_layout(x, Layout::Bytes)) {
    std::string s = number_text(x);
    if (!parse_float(s, &d)) raisef(I, I.exc.ValueError, "could not convert string to float: {}", repr_string(I, x));
    return make_float_of_type(I, cls, d);
  }
  if (cls == I.t.float_ && I.symbolic.to_float)
    if (Value r = I.symbolic.to_float(I, x)) return r;
  Type* t = I.type_of(x);
  if (cls == I.t.float_ && t->slots.float_ && I.symbolic.to_float) {
    // __float__ of an object that holds a value only known at run time (a numpy array of one) gives
    // what stands for it; the hook makes that the run-time float float() of it is.
    Value r = t->slots.float_(I, x);
    if (float_value(r, &d)) return make_float_of_type(I, cls, d);
    if (Value f = I.symbolic.to_float(I, r)) return f;
    raisef(I, I.exc.TypeError, "{}.__float__ returned non-float (type {})", t->name_view(), type_name(I, r));
  }
  if (t->slots.float_ || t->slots.index) return make_float_of_type(I, cls, to_double(I, x));
  raisef(I, I.exc.TypeError, "float() argument must be a string or a real number, not '{}'", t->name_view());
}

static double round_half_even(double x) {
  double r = std::round(x);
  if (std::fabs(x - std::trunc(x)) == 0.5) r = 2.0 * std::round(x / 2.0);
  return r;
}

// round(x, ndigits) for floats: correctly rounded in decimal, as CPython's dtoa-based rounding.
static double float_round_digits(double x, int64_t nd) {
  if (!std::isfinite(x) || x == 0) return x;
  if (nd > 323) return x;
  if (nd < -308) return std::copysign(0.0, x);
  char buf[512];
  if (nd >= 0) {
    auto r = std::to_chars(buf, buf + sizeof(buf), x, std::chars_format::fixed, static_cast<int>(nd));
    *r.ptr = 0;
    return std::strtod(buf, nullptr);
  }
  // Negative ndigits: keep (decpt + nd) significant digits.
  auto r = std::to_chars(buf, buf + sizeof(buf), std::fabs(x), std::chars_format::scientific);
  *r.ptr = 0;
  int exp = std::atoi(std::strchr(buf, 'e') + 1);
  int64_t sig = exp + 1 + nd;  // significant digits to keep
  double unit = std::pow(10.0, static_cast<double>(-nd));
  if (sig <= 0) {
    if (sig < 0) return std::copysign(0.0, x);
    // Compare |x| with half a unit.
    double half = unit / 2;
    if (std::fabs(x) > half) return std::copysign(unit, x);
    return std::copysign(0.0, x);
  }
  r = std::to_chars(buf, buf + sizeof(buf), x, std::chars_format::scientific, static_cast<int>(sig - 1));
  *r.ptr = 0;
  return std::strtod(buf, nullptr);
}

static Value float_round(Interp& I, const Value& self, const Args& a) {
  check_nargs(I, a, "__round__", 0, 1);
  double x = self_float(self);
  if (a.npos == 0 || a[0].is_none()) {
    if (std::isnan(x)) raise(I, I.exc.ValueError, "cannot convert float NaN to integer");
    if (std::isinf(x)) raise(I, I.exc.OverflowError, "cannot convert float infinity to integer");
    return Value::integer(float_to_int(I, round_half_even(x)));
  }
  int64_t nd = index(I, a[0]);
  return Value::real(float_round_digits(x, nd));
}
static Value float_trunc(Interp& I, const Value& self, const Args& a) {
  return Value::integer(float_to_int(I, self_float(self)));
}
static Value float_floor(Interp& I, const Value& self, const Args& a) {
  return Value::integer(float_to_int(I, std::floor(self_float(self))));
}
static Value float_ceil(Interp& I, const Value& self, const Args& a) {
  return Value::integer(float_to_int(I, std::ceil(self_float(self))));
}
static Value float_is_integer(Interp& I, const Value& self, const Args& a) {
  double d = self_float(self);
  return Value::boolean(std::isfinite(d) && d == std::floor(d));
}
static Value float_conjugate(Interp& I, const Value& self, const Args& a) { return Value::real(self_float(self)); }
static Value float_as_integer_ratio(Interp& I, const Value& self, const Args& a) {
  double d = self_float(self);
  if (std::isinf(d)) raise(I, I.exc.OverflowError, "cannot convert Infinity to integer ratio");
  if (std::isnan(d)) raise(I, I.exc.ValueError, "cannot convert NaN to integer ratio");
  int e;
  double m = std::frexp(d, &e);
  for (int k = 0; k < 300 && m != std::floor(m); ++k) {
    m *= 2.0;
    --e;
  }
  int64_t num, den = 1;
  if (std::fabs(m) >= 9.2e18) int_overflow(I, "as_integer_ratio()");
  num = static_cast<int64_t>(m);
  if (e > 0) {
    for (int k = 0; k < e; ++k)
      if (__builtin_mul_overflow(num, 2, &num)) int_overflow(I, "as_integer_ratio()");
  } else {
    for (int k = 0; k < -e; ++k)
      if (__builtin_mul_overflow(den, 2, &den)) int_overflow(I, "as_integer_ratio()");
  }
  return tuple_pair(I, Value::integer(num), Value::integer(den));
}
static Value float_hex(Interp& I, const Value& self, const Args& a) {
  check_nargs(I, a, "float.hex", 0, 0);
  double d = self_float(self);
  if (std::isnan(d)) return I.str("nan");
  if (std::isinf(d)) return I.str(d > 0 ? "inf" : "-inf");
  if (d == 0) return I.str(std::signbit(d) ? "-0x0.0p+0" : "0x0.0p+0");
  int e;
  double m = std::frexp(std::fabs(d), &e);  // m in [0.5, 1)
  m *= 2;
  e -= 1;
  if (std::fabs(d) < 2.2250738585072014e-308) {  // subnormal: CPython prints 0x0.xxxp-1022
    m = std::ldexp(std::fabs(d), 1022);
    e = -1022;
  }
  std::string s = std::signbit(d) ? "-0x" : "0x";
  int lead = static_cast<int>(m);
  s += static_cast<char>('0' + lead);
  s += '.';
  m -= lead;
  std::string frac;
  for (int k = 0; k < 13; ++k) {
    m *= 16;
    int dg = static_cast<int>(m);
    frac += "0123456789abcdef"[dg];
    m -= dg;
  }
  s += frac;
  s += fmt::format("p{}{}", e < 0 ? "-" : "+", e < 0 ? -e : e);
  return I.str(s);
}
static Value float_fromhex(Interp& I, const Value& cls, const Args& a) {
  check_nargs(I, a, "fromhex", 1, 1);
  std::string s = str_string(I, a[0]);
  std::string t;
  for (char c : s)
    if (!std::isspace(static_cast<unsigned char>(c))) t += c;
  char* end = nullptr;
  double d = std::strtod(t.c_str(), &end);
  bool hex = t.find("0x") != std::string::npos || t.find("0X") != std::string::npos;
  if (!hex) {
    std::string u = "0x" + t;
    if (!t.empty() && (t[0] == '-' || t[0] == '+')) u = std::string(1, t[0]) + "0x" + t.substr(1);
    d = std::strtod(u.c_str(), &end);
    if (t.empty() || *end) raise(I, I.exc.ValueError, "invalid hexadecimal floating-point string");
  } else if (t.empty() || *end) {
    raise(I, I.exc.ValueError, "invalid hexadecimal floating-point string");
  }
  return Value::real(d);
}
static Value float_real(Interp& I, const Value& self) { return Value::real(self_float(self)); }
static Value float_imag(Interp& I, const Value& self) { return Value::real(0.0); }
static Value float_getnewargs(Interp& I, const Value& self, const Args& a) {
  return new_tuple(I, {Value::real(self_float(self))});
}

// ---- complex -------------------------------------------------------------------------------------------

static Value complex_value(Interp& I, double re, double im) {
  auto c = I.make<Complex>(I.t.complex);
  c->re = re;
  c->im = im;
  return c.take_value();
}

static bool to_complex(const Value& v, double* re, double* im) {
  if (has_layout(v, Layout::Complex)) {
    *re = as<Complex>(v)->re;
    *im = as<Complex>(v)->im;
    return true;
  }
  *im = 0;
  return num_to_double(v, re);
}

static void c_quot(Interp& I, double ar, double ai, double br, double bi, double* rr, double* ri) {
  double abr = std::fabs(br), abi = std::fabs(bi);
  if (abr >= abi) {
    if (abr == 0.0) raise(I, I.exc.ZeroDivisionError, "complex division by zero");
    double ratio = bi / br, denom = br + bi * ratio;
    *rr = (ar + ai * ratio) / denom;
    *ri = (ai - ar * ratio) / denom;
  } else if (abi >= abr) {
    double ratio = br / bi, denom = br * ratio + bi;
    *rr = (ar * ratio + ai) / denom;
    *ri = (ai * ratio - ar) / denom;
  } else {
    *rr = *ri = NAN;
  }
}

static Value complex_pow_values(Interp& I, double ar, double ai, double br, double bi) {
  double rr, ri;
  int64_t n = static_cast<int64_t>(br);
  if (bi == 0.0 && br == static_cast<double>(n) && n >= -100 && n <= 100) {
    // Integer powers by repeated multiplication, as CPython does.
    auto powu = [](double xr, double xi, int64_t e, double* outr, double* outi) {
      double r_r = 1, r_i = 0, p_r = xr, p_i = xi;
      int64_t mask = 1;
      while (mask > 0 && e >= mask) {
        if (e & mask) {
          double t = r_r * p_r - r_i * p_i;
          r_i = r_r * p_i + r_i * p_r;
          r_r = t;
        }
        mask <<= 1;
        double t = p_r * p_r - p_i * p_i;
        p_i = 2 * p_r * p_i;
        p_r = t;
      }
      *outr = r_r;
      *outi = r_i;
    };
    if (n >= 0) {
      powu(ar, ai, n, &rr, &ri);
    } else {
      double pr, pi;
      powu(ar, ai, -n, &pr, &pi);
      c_quot(I, 1.0, 0.0, pr, pi, &rr, &ri);
    }
  } else if (br == 0 && bi == 0) {
    rr = 1;
    ri = 0;
  } else if (ar == 0 && ai == 0) {
    if (bi != 0 || br < 0) raise(I, I.exc.ZeroDivisionError, "0.0 to a negative or complex power");
    rr = ri = 0;
  } else {
    double vabs = std::hypot(ar, ai);
    double len = std::pow(vabs, br);
    double at = std::atan2(ai, ar);
    double phase = at * br;
    if (bi != 0.0) {
      len /= std::exp(at * bi);
      phase += bi * std::log(vabs);
    }
    rr = len * std::cos(phase);
    ri = len * std::sin(phase);
  }
  if (std::isinf(rr) || std::isinf(ri)) raise(I, I.exc.OverflowError, "complex exponentiation");
  return complex_value(I, rr, ri);
}

#define COMPLEX_BINOP(name, ...)                                                       \
  static Value complex_##name(Interp& I, const Value& self, const Value& other) {       \
    double ar, ai, br, bi;                                                              \
    if (!to_complex(self, &ar, &ai) || !to_complex(other, &br, &bi)) return I.notimplemented; \
    __VA_ARGS__;                                                                               \
  }                                                                                     \
  static Value complex_r##name(Interp& I, const Value& self, const Value& other) {      \
    return complex_##name(I, other, self);                                              \
  }

COMPLEX_BINOP(add, { return complex_value(I, ar + br, ai + bi); })
COMPLEX_BINOP(sub, { return complex_value(I, ar - br, ai - bi); })
COMPLEX_BINOP(mul, { return complex_value(I, ar * br - ai * bi, ar * bi + ai * br); })
COMPLEX_BINOP(truediv, {
  double rr, ri;
  c_quot(I, ar, ai, br, bi, &rr, &ri);
  return complex_value(I, rr, ri);
})
COMPLEX_BINOP(pow, { return complex_pow_values(I, ar, ai, br, bi); })

static Value complex_neg(Interp& I, const Value& self) {
  auto* c = as<Complex>(self);
  return complex_value(I, -c->re, -c->im);
}
static Value complex_pos(Interp& I, const Value& self) {
  auto* c = as<Complex>(self);
  return complex_value(I, c->re, c->im);
}
static Value complex_abs(Interp& I, const Value& self) {
  auto* c = as<Complex>(self);
  double r = std::hypot(c->re, c->im);
  if (std::isinf(r) && std::isfinite(c->re) && std::isfinite(c->im))
    raise(I, I.exc.OverflowError, "absolute value too large");
  return Value::real(r);
}
static Truth complex_bool(Interp& I, const Value& self) {
  auto* c = as<Complex>(self);
  return (c->re != 0 || c->im != 0) ? kTrue : kFalse;
}
static int64_t complex_hash(Interp& I, const Value& self) {
  auto* c = as<Complex>(self);
  uint64_t hr = static_cast<uint64_t>(hash_double(c->re));
  uint64_t hi = static_cast<uint64_t>(hash_double(c->im));
  int64_t h = static_cast<int64_t>(hr + 1000003ull * hi);
  return h == -1 ? -2 : h;
}
static Value complex_eq_impl(Interp& I, const Value& self, const Value& other, bool ne) {
  auto* c = as<Complex>(self);
  double br, bi;
  if (!to_complex(other, &br, &bi)) return I.notimplemented;
  int64_t iv;
  bool equal;
  if (int_value(other, &iv))
    equal = c->im == 0 && cmp_int_float(iv, c->re) == 0;
  else
    equal = c->re == br && c->im == bi;
  return Value::boolean(ne ? !equal : equal);
}
static Value complex_eq(Interp& I, const Value& s, const Value& o) { return complex_eq_impl(I, s, o, false); }
static Value complex_ne(Interp& I, const Value& s, const Value& o) { return complex_eq_impl(I, s, o, true); }

std::string complex_repr_str(double re, double im) {
  auto part = [](double v) {
    std::string s = float_repr(v);
    if (s.size() > 2 && s.compare(s.size() - 2, 2, ".0") == 0) s.resize(s.size() - 2);
    return s;
  };
  if (re == 0 && !std::signbit(re)) return part(im) + "j";
  std::string ims = part(im);
  if (ims[0] != '-') ims = "+" + ims;
  return "(" + part(re) + ims + "j)";
}
static Value complex_repr(Interp& I, const Value& self) {
  auto* c = as<Complex>(self);
  return I.str(complex_repr_str(c->re, c->im));
}
static Value complex_format(Interp& I, const Value& self, const Value& spec) {
  auto* c = as<Complex>(self);
  std::string s = str_string(I, spec);
  if (s.empty()) return complex_repr(I, self);
  return I.str(format_complex(I, c->re, c->im, s));
}

static bool parse_complex(std::string_view s, double* re, double* im) {
  std::string t;
  for (char c : s)
    if (!std::isspace(static_cast<unsigned char>(c))) t += c;
  if (t.size() >= 2 && t.front() == '(' && t.back() == ')') t = t.substr(1, t.size() - 2);
  if (t.empty()) return false;
  if (t.back() != 'j' && t.back() != 'J') {
    *im = 0;
    return parse_float(t, re);
  }
  t.pop_back();
  // Split at the last sign that is not part of an exponent.
  size_t split = std::string::npos;
  for (size_t k = t.size(); k-- > 1;) {
    if ((t[k] == '+' || t[k] == '-') && t[k - 1] != 'e' && t[k - 1] != 'E') {
      split = k;
      break;
    }
  }
  std::string rs = split == std::string::npos ? "" : t.substr(0, split);
  std::string is = split == std::string::npos ? t : t.substr(split);
  if (is == "+" || is == "" ) is += "1";
  if (is == "-") is = "-1";
  *re = 0;
  if (!rs.empty() && !parse_float(rs, re)) return false;
  return parse_float(is, im);
}

static Value complex_new(Interp& I, Type* cls, const Args& a) {
  static const Signature sig("complex", "real=, imag=");
  Value v[2];
  sig.bind(I, a, v);
  double re = 0, im = 0;
  bool real_is_complex = false;  // CPython adds parts only of arguments that are complex
  if (v[0]) {
    if (is_str(v[0])) {
      if (v[1]) raise(I, I.exc.TypeError, "complex() can't take second arg if first is a string");
      if (!parse_complex(as_str(v[0])->s, &re, &im))
        raise(I, I.exc.ValueError, "complex() arg is a malformed string");
    } else {
      double r2, i2;
      if (!to_complex(v[0], &r2, &i2)) {
        Value cf = type_lookup(I.type_of(v[0]), I.names.complex_dunder);
        if (cf) {
          Value r = call_unbound(I, cf, v[0]);
          if (!to_complex(r, &r2, &i2)) raise(I, I.exc.TypeError, "__complex__ returned non-complex");
        } else if (I.type_of(v[0])->slots.float_ || I.type_of(v[0])->slots.index) {
          r2 = to_double(I, v[0]);
          i2 = 0;
        } else {
          raisef(I, I.exc.TypeError, "complex() first argument must be a string or a number, not '{}'", type_name(I, v[0]));
        }
      }
      re = r2;
      im = i2;
      real_is_complex = has_layout(v[0], Layout::Complex) || !to_complex(v[0], &r2, &i2);
    }
  }
  if (v[1]) {
    double r2, i2;
    if (is_str(v[1]) || !to_complex(v[1], &r2, &i2))
      raisef(I, I.exc.TypeError, "complex() second argument must be a number, not '{}'", type_name(I, v[1]));
    if (has_layout(v[1], Layout::Complex)) re -= i2;
    // complex(0, -0.0) keeps the sign of the zero: the imaginary part is the argument itself.
    im = real_is_complex ? im + r2 : r2;
  }
  Value c = complex_value(I, re, im);
  if (cls != I.t.complex) {
    Value o = alloc_instance(I, cls);
    as<Complex>(o)->re = re;
    as<Complex>(o)->im = im;
    return o;
  }
  return c;
}
static Value complex_alloc(Interp& I, Type* cls) { return I.make<Complex>(cls).take_value(); }
static Value complex_conjugate(Interp& I, const Value& self, const Args& a) {
  auto* c = as<Complex>(self);
  return complex_value(I, c->re, -c->im);
}
static Value complex_real(Interp& I, const Value& self) { return Value::real(as<Complex>(self)->re); }
static Value complex_imag(Interp& I, const Value& self) { return Value::real(as<Complex>(self)->im); }

// ---- None, NotImplemented, Ellipsis ---------------------------------------------------------------------

static Value none_repr(Interp& I, const Value& self) { return I.str("None"); }
static Truth none_bool(Interp& I, const Value& self) { return kFalse; }
static Value none_new(Interp& I, Type* cls, const Args& a) {
  if (a.npos || a.nkw) raise(I, I.exc.TypeError, "NoneType takes no arguments");
  return Value::none();
}
static Value ni_repr(Interp& I, const Value& self) { return I.str("NotImplemented"); }
static Value ellipsis_repr(Interp& I, const Value& self) { return I.str("Ellipsis"); }
static Value ni_new(Interp& I, Type* cls, const Args& a) { return I.notimplemented; }
static Value ellipsis_new(Interp& I, Type* cls, const Args& a) { return I.ellipsis; }
static Value singleton_alloc(Interp& I, Type* cls) { return I.make<Object>(cls).take_value(); }

void init_number_types(Interp& I) {
  {
    TypeSpec s;
    s.name = "int";
    s.layout = Layout::Int;
    s.alloc = &boxed_int_alloc;
    Slots& sl = s.slots;
    sl.repr = &int_repr;
    sl.hash = &int_hash;
    sl.eq = &int_eq;
    sl.ne = &int_ne;
    sl.lt = &int_lt;
    sl.le = &int_le;
    sl.gt = &int_gt;
    sl.ge = &int_ge;
    sl.add = &int_add;
    sl.radd = &int_radd;
    sl.sub = &int_sub;
    sl.rsub = &int_rsub;
    sl.mul = &int_mul;
    sl.rmul = &int_rmul;
    sl.truediv = &int_truediv;
    sl.rtruediv = &int_rtruediv;
    sl.floordiv = &int_floordiv;
    sl.rfloordiv = &int_rfloordiv;
    sl.mod = &int_mod;
    sl.rmod = &int_rmod;
    sl.pow = &int_pow;
    sl.rpow = &int_rpow;
    sl.lshift = &int_lshift;
    sl.rlshift = &int_rlshift;
    sl.rshift = &int_rshift;
    sl.rrshift = &int_rrshift;
    sl.and_ = &int_and;
    sl.rand = &int_rand;
    sl.or_ = &int_or;
    sl.ror = &int_ror;
    sl.xor_ = &int_xor;
    sl.rxor = &int_rxor;
    sl.divmod = &int_divmod;
    sl.rdivmod = &int_rdivmod;
    sl.neg = &int_neg;
    sl.pos = &int_pos;
    sl.invert = &int_invert;
    sl.abs = &int_abs;
    sl.bool_ = &int_bool;
    sl.index = &int_index;
    sl.int_ = &int_index;
    sl.float_ = &int_float;
    sl.format = &int_format;
    sl.new_ = &int_new;
    s.methods = {
        {"bit_length", &int_bit_length},
        {"bit_count", &int_bit_count},
        {"conjugate", &int_conjugate},
        {"as_integer_ratio", &int_as_integer_ratio},
        {"__round__", &int_round},
        {"__trunc__", &int_trunc},
        {"__floor__", &int_trunc},
        {"__ceil__", &int_trunc},
        {"to_bytes", &int_to_bytes},
        {"from_bytes", &int_from_bytes, kNativeClass},
        {"__getnewargs__", &int_getnewargs},
    };
    s.getsets = {{"real", &int_real}, {"imag", &int_imag}, {"numerator", &int_real}, {"denominator", &int_denominator}};
    init_native_type(I, I.t.int_, s);
  }
  {
    TypeSpec s;
    s.name = "bool";
    s.base = I.t.int_;
    s.layout = Layout::Int;
    s.flags = 0;  // bool cannot be subclassed
    s.slots.repr = &bool_repr;
    s.slots.and_ = &bool_and;
    s.slots.rand = &bool_rand;
    s.slots.or_ = &bool_or;
    s.slots.ror = &bool_ror;
    s.slots.xor_ = &bool_xor;
    s.slots.rxor = &bool_rxor;
    s.slots.new_ = &bool_new;
    init_native_type(I, I.t.bool_, s);
  }
  {
    TypeSpec s;
    s.name = "float";
    s.layout = Layout::Float;
    s.alloc = &boxed_float_alloc;
    Slots& sl = s.slots;
    sl.repr = &float_repr_slot;
    sl.hash = &float_hash;
    sl.eq = &float_eq;
    sl.ne = &float_ne;
    sl.lt = &float_lt;
    sl.le = &float_le;
    sl.gt = &float_gt;
    sl.ge = &float_ge;
    sl.add = &float_add;
    sl.radd = &float_radd;
    sl.sub = &float_sub;
    sl.rsub = &float_rsub;
    sl.mul = &float_mul;
    sl.rmul = &float_rmul;
    sl.truediv = &float_truediv;
    sl.rtruediv = &float_rtruediv;
    sl.floordiv = &float_floordiv;
    sl.rfloordiv = &float_rfloordiv;
    sl.mod = &float_mod;
    sl.rmod = &float_rmod;
    sl.pow = &float_pow;
    sl.rpow = &float_rpow;
    sl.divmod = &float_divmod;
    sl.rdivmod = &float_rdivmod;
    sl.neg = &float_neg;
    sl.pos = &float_pos;
    sl.abs = &float_abs;
    sl.bool_ = &float_bool;
    sl.int_ = &float_int;
    sl.float_ = &float_float;
    sl.format = &float_format;
    sl.new_ = &float_new;
    s.methods = {
        {"__round__", &float_round},
        {"__trunc__", &float_trunc},
        {"__floor__", &float_floor},
        {"__ceil__", &float_ceil},
        {"is_integer", &float_is_integer},
        {"conjugate", &float_conjugate},
        {"as_integer_ratio", &float_as_integer_ratio},
        {"hex", &float_hex},
        {"fromhex", &float_fromhex, kNativeClass},
        {"__getnewargs__", &float_getnewargs},
    };
    s.getsets = {{"real", &float_real}, {"imag", &float_imag}};
    init_native_type(I, I.t.float_, s);
  }
  {
    TypeSpec s;
    s.name = "complex";
    s.layout = Layout::Complex;
    s.alloc = &complex_alloc;
    Slots& sl = s.slots;
    sl.repr = &complex_repr;
    sl.hash = &complex_hash;
    sl.eq = &complex_eq;
    sl.ne = &complex_ne;
    sl.add = &complex_add;
    sl.radd = &complex_radd;
    sl.sub = &complex_sub;
    sl.rsub = &complex_rsub;
    sl.mul = &complex_mul;
    sl.rmul = &complex_rmul;
    sl.truediv = &complex_truediv;
    sl.rtruediv = &complex_rtruediv;
    sl.pow = &complex_pow;
    sl.rpow = &complex_rpow;
    sl.neg = &complex_neg;
    sl.pos = &complex_pos;
    sl.abs = &complex_abs;
    sl.bool_ = &complex_bool;
    sl.format = &complex_format;
    sl.new_ = &complex_new;
    s.methods = {{"conjugate", &complex_conjugate}};
    s.getsets = {{"real", &complex_real}, {"imag", &complex_imag}};
    init_native_type(I, I.t.complex, s);
  }
  {
    TypeSpec s;
    s.name = "NoneType";
    s.flags = 0;
    s.slots.repr = &none_repr;
    s.slots.bool_ = &none_bool;
    s.slots.new_ = &none_new;
    init_native_type(I, I.t.none, s);
  }
  {
    TypeSpec s;
    s.name = "NotImplementedType";
    s.flags = 0;
    s.alloc = &singleton_alloc;
    s.slots.repr = &ni_repr;
    s.slots.new_ = &ni_new;
    init_native_type(I, I.t.notimplemented, s);
  }
  {
    TypeSpec s;
    s.name = "ellipsis";
    s.flags = 0;
    s.alloc = &singleton_alloc;
    s.slots.repr = &ellipsis_repr;
    s.slots.new_ = &ellipsis_new;
    init_native_type(I, I.t.ellipsis, s);
  }
  I.notimplemented = singleton_alloc(I, I.t.notimplemented);
  I.ellipsis = singleton_alloc(I, I.t.ellipsis);
}

Value new_complex(Interp& I, double re, double im) { return complex_value(I, re, im); }

}  // namespace onnxify::eval
