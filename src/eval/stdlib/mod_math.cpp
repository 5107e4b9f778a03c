// The math module, all of it, with CPython's error rules ("math domain error" for invalid
// arguments, OverflowError "math range error" for results too large).
#include <cerrno>
#include <cfloat>
#include <cmath>
#include <numeric>

#include "eval/internal.h"

namespace onnxify::eval {

namespace {

[[noreturn]] void domain_error(Interp& I) { raise(I, I.exc.ValueError, "math domain error"); }
[[noreturn]] void range_error(Interp& I) { raise(I, I.exc.OverflowError, "math range error"); }

double arg_double(Interp& I, const Value& v) {
  double d;
  if (float_value(v, &d)) return d;
  int64_t i;
  if (int_value(v, &i)) return static_cast<double>(i);
  Type* t = I.type_of(v);
  if (t->slots.float_ || t->slots.index) return to_double(I, v);
  raisef(I, I.exc.TypeError, "must be real number, not {}", t->name_view());
}

// The run-time form of math.NAME when an argument is not a Python number (Interp::SymbolicHooks).
Value run_time_math(Interp& I, const char* name, const Args& a) {
  if (!I.symbolic.math) return Value();
  for (uint32_t k = 0; k < a.npos; ++k) {
    const Value& v = a[k];
    int64_t i;
    double d;
    if (!int_value(v, &i) && !float_value(v, &d)) return I.symbolic.math(I, name, a);
  }
  return Value();
}

// A one-argument function of doubles with CPython's checks: NaN in -> NaN out; an infinite result
// from a finite argument is an overflow (or a domain error when `can_overflow` is false); NaN from
// a non-NaN argument is a domain error.
Value unary(Interp& I, const Args& a, const char* name, double (*f)(double), bool can_overflow) {
  check_nargs(I, a, name, 1, 1);
  if (Value r = run_time_math(I, name, a)) return r;
  double x = arg_double(I, a[0]);
  errno = 0;
  double r = f(x);
  if (std::isnan(r) && !std::isnan(x)) domain_error(I);
  if (std::isinf(r) && std::isfinite(x)) {
    if (can_overflow) range_error(I);
    domain_error(I);
  }
  return Value::real(r);
}

#define MATH1(name, fn, ovf)                                                         \
  Value m_##name(Interp& I, const Value&, const Args& a) { return unary(I, a, #name, fn, ovf); }

double d_sqrt(double x) { return std::sqrt(x); }
double d_exp(double x) { return std::exp(x); }
double d_exp2(double x) { return std::exp2(x); }
double d_expm1(double x) { return std::expm1(x); }
double d_sin(double x) { return std::sin(x); }
double d_cos(double x) { return std::cos(x); }
double d_tan(double x) { return std::tan(x); }
double d_asin(double x) { return std::asin(x); }
double d_acos(double x) { return std::acos(x); }
double d_atan(double x) { return std::atan(x); }
double d_sinh(double x) { return std::sinh(x); }
double d_cosh(double x) { return std::cosh(x); }
double d_tanh(double x) { return std::tanh(x); }
double d_asinh(double x) { return std::asinh(x); }
double d_acosh(double x) { return std::acosh(x); }
double d_atanh(double x) { return std::atanh(x); }
double d_fabs(double x) { return std::fabs(x); }
double d_erf(double x) { return std::erf(x); }
double d_erfc(double x) { return std::erfc(x); }
double d_cbrt(double x) { return std::cbrt(x); }
double d_degrees(double x) { return x * (180.0 / M_PI); }
double d_radians(double x) { return x * (M_PI / 180.0); }

MATH1(sqrt, d_sqrt, false)
MATH1(exp, d_exp, true)
MATH1(exp2, d_exp2, true)
MATH1(expm1, d_expm1, true)
MATH1(sin, d_sin, false)
MATH1(cos, d_cos, false)
MATH1(tan, d_tan, false)
MATH1(asin, d_asin, false)
MATH1(acos, d_acos, false)
MATH1(atan, d_atan, false)
MATH1(sinh, d_sinh, true)
MATH1(cosh, d_cosh, true)
MATH1(tanh, d_tanh, false)
MATH1(asinh, d_asinh, false)
MATH1(acosh, d_acosh, false)
MATH1(atanh, d_atanh, false)
MATH1(fabs, d_fabs, false)
MATH1(erf, d_erf, false)
MATH1(erfc, d_erfc, false)
MATH1(cbrt, d_cbrt, false)
MATH1(degrees, d_degrees, true)
MATH1(radians, d_radians, false)

Value m_gamma(Interp& I, const Value&, const Args& a) {
  check_nargs(I, a, "gamma", 1, 1);
  double x = arg_double(I, a[0]);
  if (std::isnan(x)) return Value::real(x);
  if (x == -INFINITY || (x <= 0 && x == std::floor(x))) domain_error(I);
  double r = std::tgamma(x);
  if (std::isinf(r)) range_error(I);
  return Value::real(r);
}

Value m_lgamma(Interp& I, const Value&, const Args& a) {
  check_nargs(I, a, "lgamma", 1, 1);
  double x = arg_double(I, a[0]);
  if (std::isnan(x)) return Value::real(x);
  if (x <= 0 && x == std::floor(x) && std::isfinite(x)) domain_error(I);
  double r = std::lgamma(x);
  if (std::isinf(r) && std::isfinite(x)) range_error(I);
  return Value::real(r);
}

double log_of(Interp& I, const Value& v) {
  int64_t i;
  if (int_value(v, &i)) {
    if (i <= 0) domain_error(I);
    return std::log(static_cast<double>(i));
  }
  double x = arg_double(I, v);
  if (std::isnan(x)) return x;
  if (x <= 0) domain_error(I);
  return std::log(x);
}

Value m_log(Interp& I, const Value&, const Args& a) {
  check_nargs(I, a, "log", 1, 2);
  if (Value r = run_time_math(I, "log", a)) return r;
  double num = log_of(I, a[0]);
  if (a.npos == 1) return Value::real(num);
  double den = log_of(I, a[1]);
  if (den == 0) raise(I, I.exc.ZeroDivisionError, "float division by zero");
  return Value::real(num / den);
}
Value m_log2(Interp& I, const Value&, const Args& a) {
  check_nargs(I, a, "log2", 1, 1);
  if (Value r = run_time_math(I, "log2", a)) return r;
  int64_t i;
  if (int_value(a[0], &i)) {
    if (i <= 0) domain_error(I);
    return Value::real(std::log2(static_cast<double>(i)));
  }
  double x = arg_double(I, a[0]);
  if (std::isnan(x)) return Value::real(x);
  if (x <= 0) domain_error(I);
  return Value::real(std::log2(x));
}
Value m_log10(Interp& I, const Value&, const Args& a) {
  check_nargs(I, a, "log10", 1, 1);
  if (Value r = run_time_math(I, "log10", a)) return r;
  int64_t i;
  if (int_value(a[0], &i)) {
    if (i <= 0) domain_error(I);
    return Value::real(std::log10(static_cast<double>(i)));
  }
  double x = arg_double(I, a[0]);
  if (std::isnan(x)) return Value::real(x);
  if (x <= 0) domain_error(I);
  return Value::real(std::log10(x));
}
Value m_log1p(Interp& I, const Value&, const Args& a) {
  check_nargs(I, a, "log1p", 1, 1);
  if (Value r = run_time_math(I, "log1p", a)) return r;
  double x = arg_double(I, a[0]);
  if (std::isnan(x)) return Value::real(x);
  if (x <= -1) domain_error(I);
  return Value::real(std::log1p(x));
}

Value m_pow(Interp& I, const Value&, const Args& a) {
  check_nargs(I, a, "pow", 2, 2);
  if (Value r = run_time_math(I, "pow", a)) return r;
  double x = arg_double(I, a[0]), y = arg_double(I, a[1]);
  if (std::isfinite(x) && std::isfinite(y)) {
    if (x == 0 && y < 0) domain_error(I);
    if (x < 0 && y != std::floor(y)) domain_error(I);
  }
  double r = std::pow(x, y);
  if (std::isinf(r) && std::isfinite(x) && std::isfinite(y)) range_error(I);
  return Value::real(r);
}

Value rounding(Interp& I, const Args& a, const char* name, Str* dunder, double (*f)(double)) {
  check_nargs(I, a, name, 1, 1);
  if (Value r = run_time_math(I, name, a)) return r;
  int64_t i;
  if (int_value(a[0], &i)) return Value::integer(i);
  double d;
  if (!float_value(a[0], &d)) {
    Value m = type_lookup(I.type_of(a[0]), dunder);
    if (m) return call_unbound(I, m, a[0]);
    d = arg_double(I, a[0]);
  }
  if (std::isnan(d)) raise(I, I.exc.ValueError, "cannot convert float NaN to integer");
  if (std::isinf(d)) raise(I, I.exc.OverflowError, "cannot convert float infinity to integer");
  double r = f(d);
  if (r >= 9223372036854775808.0 || r < -9223372036854775808.0) int_overflow(I, name);
  return Value::integer(static_cast<int64_t>(r));
}
double d_floor(double x) { return std::floor(x); }
double d_ceil(double x) { return std::ceil(x); }
double d_trunc(double x) { return std::trunc(x); }
Value m_floor(Interp& I, const Value&, const Args& a) { return rounding(I, a, "floor", I.names.__floor__, d_floor); }
Value m_ceil(Interp& I, const Value&, const Args& a) { return rounding(I, a, "ceil", I.names.__ceil__, d_ceil); }
Value m_trunc(Interp& I, const Value&, const Args& a) { return rounding(I, a, "trunc", I.names.__trunc__, d_trunc); }

Value m_atan2(Interp& I, const Value&, const Args& a) {
  check_nargs(I, a, "atan2", 2, 2);
  return Value::real(std::atan2(arg_double(I, a[0]), arg_double(I, a[1])));
}
Value m_fmod(Interp& I, const Value&, const Args& a) {
  check_nargs(I, a, "fmod", 2, 2);
  double x = arg_double(I, a[0]), y = arg_double(I, a[1]);
  if (std::isinf(y) && std::isfinite(x)) return Value::real(x);
  double r = std::fmod(x, y);
  if (std::isnan(r) && !std::isnan(x) && !std::isnan(y)) domain_error(I);
  return Value::real(r);
}
Value m_remainder(Interp& I, const Value&, const Args& a) {
  check_nargs(I, a, "remainder", 2, 2);
  double x = arg_double(I, a[0]), y = arg_double(I, a[1]);
  double r = std::remainder(x, y);
  if (std::isnan(r) && !std::isnan(x) && !std::isnan(y)) domain_error(I);
  return Value::real(r);
}
Value m_copysign(Interp& I, const Value&, const Args& a) {
  check_nargs(I, a, "copysign", 2, 2);
  return Value::real(std::copysign(arg_double(I, a[0]), arg_double(I, a[1])));
}
Value m_ldexp(Interp& I, const Value&, const Args& a) {
  check_nargs(I, a, "ldexp", 2, 2);
  double x = arg_double(I, a[0]);
  int64_t e;
  if (!int_value(a[1], &e)) raise(I, I.exc.TypeError, "Expected an int as second argument to ldexp.");
  if (e > 100000) e = 100000;
  if (e < -100000) e = -100000;
  double r = std::ldexp(x, static_cast<int>(e));
  if (std::isinf(r) && std::isfinite(x)) range_error(I);
  return Value::real(r);
}
Value m_frexp(Interp& I, const Value&, const Args& a) {
  check_nargs(I, a, "frexp", 1, 1);
  double x = arg_double(I, a[0]);
  int e = 0;
  double m = (std::isnan(x) || std::isinf(x) || x == 0) ? x : std::frexp(x, &e);
  return tuple_pair(I, Value::real(m), Value::integer(e));
}
Value m_modf(Interp& I, const Value&, const Args& a) {
  check_nargs(I, a, "modf", 1, 1);
  double x = arg_double(I, a[0]);
  if (std::isinf(x)) return tuple_pair(I, Value::real(std::copysign(0.0, x)), Value::real(x));
  double ip;
  double fp = std::modf(x, &ip);
  return tuple_pair(I, Value::real(fp), Value::real(ip));
}
Value m_isfinite(Interp& I, const Value&, const Args& a) {
  check_nargs(I, a, "isfinite", 1, 1);
  return Value::boolean(std::isfinite(arg_double(I, a[0])));
}
Value m_isinf(Interp& I, const Value&, const Args& a) {
  check_nargs(I, a, "isinf", 1, 1);
  return Value::boolean(std::isinf(arg_double(I, a[0])));
}
Value m_isnan(Interp& I, const Value&, const Args& a) {
  check_nargs(I, a, "isnan", 1, 1);
  return Value::boolean(std::isnan(arg_double(I, a[0])));
}
Value m_isclose(Interp& I, const Value&, const Args& a) {
  static const Signature sig("isclose", "a, b, /, *, rel_tol=1e-09, abs_tol=0.0");
  Value v[4];
  sig.bind(I, a, v);
  double x = arg_double(I, v[0]), y = arg_double(I, v[1]);
  double rel = v[2] ? arg_double(I, v[2]) : 1e-9, abs_tol = v[3] ? arg_double(I, v[3]) : 0.0;
  if (rel < 0 || abs_tol < 0) raise(I, I.exc.ValueError, "tolerances must be non-negative");
  if (x == y) return Value::boolean(true);
  if (std::isinf(x) || std::isinf(y)) return Value::boolean(false);
  double diff = std::fabs(y - x);
  return Value::boolean((diff <= std::fabs(rel * y)) || (diff <= std::fabs(rel * x)) || (diff <= abs_tol));
}
int64_t arg_int(Interp& I, const Value& v) {
  int64_t i;
  if (int_value(v, &i)) return i;
  return index(I, v);
}
Value m_gcd(Interp& I, const Value&, const Args& a) {
  if (a.nkw) raise(I, I.exc.TypeError, "gcd() takes no keyword arguments");
  int64_t g = 0;
  for (uint32_t k = 0; k < a.npos; ++k) {
    int64_t x = arg_int(I, a[k]);
    g = std::gcd(g, x < 0 ? -x : x);
  }
  return Value::integer(g);
}
Value m_lcm(Interp& I, const Value&, const Args& a) {
  if (a.nkw) raise(I, I.exc.TypeError, "lcm() takes no keyword arguments");
  int64_t l = 1;
  for (uint32_t k = 0; k < a.npos; ++k) {
    int64_t x = arg_int(I, a[k]);
    if (x < 0) x = -x;
    if (x == 0 || l == 0) {
      l = 0;
      continue;
    }
    int64_t g = std::gcd(l, x);
    int64_t r;
    if (__builtin_mul_overflow(l / g, x, &r)) int_overflow(I, "lcm()");
    l = r;
  }
  return Value::integer(l);
}
Value m_factorial(Interp& I, const Value&, const Args& a) {
  check_nargs(I, a, "factorial", 1, 1);
  double d;
  if (float_value(a[0], &d)) raise(I, I.exc.TypeError, "'float' object cannot be interpreted as an integer");
  int64_t n = arg_int(I, a[0]);
  if (n < 0) raise(I, I.exc.ValueError, "factorial() not defined for negative values");
  int64_t r = 1;
  for (int64_t k = 2; k <= n; ++k)
    if (__builtin_mul_overflow(r, k, &r)) int_overflow(I, "factorial()");
  return Value::integer(r);
}
Value m_comb(Interp& I, const Value&, const Args& a) {
  check_nargs(I, a, "comb", 2, 2);
  int64_t n = arg_int(I, a[0]), k = arg_int(I, a[1]);
  if (n < 0) raise(I, I.exc.ValueError, "n must be a non-negative integer");
  if (k < 0) raise(I, I.exc.ValueError, "k must be a non-negative integer");
  if (k > n) return Value::integer(0);
  if (k > n - k) k = n - k;
  __int128 r = 1;
  for (int64_t i = 1; i <= k; ++i) {
    r = r * (n - k + i) / i;
    if (r > INT64_MAX) int_overflow(I, "comb()");
  }
  return Value::integer(static_cast<int64_t>(r));
}
Value m_perm(Interp& I, const Value&, const Args& a) {
  check_nargs(I, a, "perm", 1, 2);
  int64_t n = arg_int(I, a[0]);
  int64_t k = a.npos > 1 && !a[1].is_none() ? arg_int(I, a[1]) : n;
  if (n < 0) raise(I, I.exc.ValueError, "n must be a non-negative integer");
  if (k < 0) raise(I, I.exc.ValueError, "k must be a non-negative integer");
  if (k > n) return Value::integer(0);
  int64_t r = 1;
  for (int64_t i = 0; i < k; ++i)
    if (__builtin_mul_overflow(r, n - i, &r)) int_overflow(I, "perm()");
  return Value::integer(r);
}
Value m_isqrt(Interp& I, const Value&, const Args& a) {
  check_nargs(I, a, "isqrt", 1, 1);
  int64_t n = arg_int(I, a[0]);
  if (n < 0) raise(I, I.exc.ValueError, "isqrt() argument must be nonnegative");
  int64_t r = static_cast<int64_t>(std::sqrt(static_cast<double>(n)));
  while (r > 0 && static_cast<__int128>(r) * r > n) --r;
  while (static_cast<__int128>(r + 1) * (r + 1) <= n) ++r;
  return Value::integer(r);
}
Value m_prod(Interp& I, const Value&, const Args& a) {
  static const Signature sig("prod", "iterable, /, *, start=1");
  Value v[2];
  sig.bind(I, a, v);
  Value acc = v[1] ? v[1] : Value::integer(1);
  for_each(I, v[0], [&](const Value& x) { acc = binary_op(I, BinOp::Mul, acc, x); });
  return acc;
}
// Exact summation (Shewchuk's algorithm, as in CPython's math.fsum).
Value m_fsum(Interp& I, const Value&, const Args& a) {
  check_nargs(I, a, "fsum", 1, 1);
  std::vector<double> partials;
  double special = 0;
  bool inf_seen = false, nan_seen = false;
  for_each(I, a[0], [&](const Value& v) {
    double x = arg_double(I, v);
    if (!std::isfinite(x)) {
      if (std::isinf(x)) inf_seen = true;
      if (std::isnan(x)) nan_seen = true;
      special += x;
      return;
    }
    size_t i = 0;
    for (double y : partials) {
      if (std::fabs(x) < std::fabs(y)) std::swap(x, y);
      double hi = x + y;
      double lo = y - (hi - x);
      if (lo != 0.0) partials[i++] = lo;
      x = hi;
    }
    partials.resize(i);
    partials.push_back(x);
  });
  if (nan_seen || inf_seen) {
    if (std::isnan(special)) {
      if (!nan_seen) raise(I, I.exc.ValueError, "-inf + inf in fsum");
    }
    return Value::real(special);
  }
  double hi = 0;
  if (!partials.empty()) {
    size_t n = partials.size();
    hi = partials[--n];
    double lo = 0;
    while (n > 0) {
      double x = hi;
      double y = partials[--n];
      hi = x + y;
      double yr = hi - x;
      lo = y - yr;
      if (lo != 0.0) break;
    }
    if (n > 0 && ((lo < 0 && partials[n - 1] < 0) || (lo > 0 && partials[n - 1] > 0))) {
      double y = lo * 2;
      double x = hi + y;
      double yr = x - hi;
      if (y == yr) hi = x;
    }
  }
  if (std::isinf(hi)) raise(I, I.exc.OverflowError, "intermediate overflow in fsum");
  return Value::real(hi);
}
Value m_hypot(Interp& I, const Value&, const Args& a) {
  if (a.nkw) raise(I, I.exc.TypeError, "hypot() takes no keyword arguments");
  double r = 0;
  bool inf = false, nan = false;
  std::vector<double> xs;
  for (uint32_t k = 0; k < a.npos; ++k) {
    double x = std::fabs(arg_double(I, a[k]));
    if (std::isinf(x)) inf = true;
    if (std::isnan(x)) nan = true;
    xs.push_back(x);
  }
  if (inf) return Value::real(INFINITY);
  if (nan) return Value::real(NAN);
  if (xs.size() == 2) return Value::real(std::hypot(xs[0], xs[1]));
  double mx = 0;
  for (double x : xs) mx = std::max(mx, x);
  if (mx == 0) return Value::real(0.0);
  for (double x : xs) r += (x / mx) * (x / mx);
  return Value::real(mx * std::sqrt(r));
}
Value m_dist(Interp& I, const Value&, const Args& a) {
  check_nargs(I, a, "dist", 2, 2);
  std::vector<Value> p = to_vector(I, a[0]), q = to_vector(I, a[1]);
  if (p.size() != q.size()) raise(I, I.exc.ValueError, "both points must have the same number of dimensions");
  std::vector<Value> diffs;
  for (size_t k = 0; k < p.size(); ++k) diffs.push_back(Value::real(arg_double(I, p[k]) - arg_double(I, q[k])));
  return m_hypot(I, Value(), Args(diffs));
}
Value m_nextafter(Interp& I, const Value&, const Args& a) {
  check_nargs(I, a, "nextafter", 2, 2);
  return Value::real(std::nextafter(arg_double(I, a[0]), arg_double(I, a[1])));
}
Value m_ulp(Interp& I, const Value&, const Args& a) {
  check_nargs(I, a, "ulp", 1, 1);
  double x = std::fabs(arg_double(I, a[0]));
  if (std::isnan(x) || std::isinf(x)) return Value::real(x);
  double y = std::nextafter(x, INFINITY);
  if (std::isinf(y)) return Value::real(x - std::nextafter(x, -INFINITY));
  return Value::real(y - x);
}

}  // namespace

void init_math_module(Interp& I, Module* m) {
  struct {
    const char* name;
    NativeFn fn;
  } fns[] = {
      {"sqrt", m_sqrt},     {"exp", m_exp},         {"exp2", m_exp2},       {"expm1", m_expm1},
      {"sin", m_sin},       {"cos", m_cos},         {"tan", m_tan},         {"asin", m_asin},
      {"acos", m_acos},     {"atan", m_atan},       {"sinh", m_sinh},       {"cosh", m_cosh},
      {"tanh", m_tanh},     {"asinh", m_asinh},     {"acosh", m_acosh},     {"atanh", m_atanh},
      {"fabs", m_fabs},     {"erf", m_erf},         {"erfc", m_erfc},       {"cbrt", m_cbrt},
      {"degrees", m_degrees}, {"radians", m_radians}, {"gamma", m_gamma},   {"lgamma", m_lgamma},
      {"log", m_log},       {"log2", m_log2},       {"log10", m_log10},     {"log1p", m_log1p},
      {"pow", m_pow},       {"floor", m_floor},     {"ceil", m_ceil},       {"trunc", m_trunc},
      {"atan2", m_atan2},   {"fmod", m_fmod},       {"remainder", m_remainder}, {"copysign", m_copysign},
      {"ldexp", m_ldexp},   {"frexp", m_frexp},     {"modf", m_modf},       {"isfinite", m_isfinite},
      {"isinf", m_isinf},   {"isnan", m_isnan},     {"isclose", m_isclose}, {"gcd", m_gcd},
      {"lcm", m_lcm},       {"factorial", m_factorial}, {"comb", m_comb},   {"perm", m_perm},
      {"isqrt", m_isqrt},   {"prod", m_prod},       {"fsum", m_fsum},       {"hypot", m_hypot},
      {"dist", m_dist},     {"nextafter", m_nextafter}, {"ulp", m_ulp},
  };
  for (auto& f : fns) {
    add_function(I, m, f.name, f.fn);
    // Pure functions: math.sqrt of an unknown value is unknown, not an error.
    as<NativeFunc>(dict_get(I, m->dict, f.name))->flags |= kNativePoisonTransparent;
  }
  module_set(I, m, "pi", Value::real(M_PI));
  module_set(I, m, "e", Value::real(M_E));
  module_set(I, m, "tau", Value::real(2 * M_PI));
  module_set(I, m, "inf", Value::real(INFINITY));
  module_set(I, m, "nan", Value::real(NAN));
}

}  // namespace onnxify::eval
