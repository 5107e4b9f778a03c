#include "weights/value.h"

#include <fmt/core.h>

#include <charconv>
#include <cmath>
#include <cstring>
#include <unordered_set>

#include "support/diagnostic.h"

namespace onnxify::weights {

std::string_view kind_name(Kind k) {
  switch (k) {
#define X(e, py) \
  case Kind::e:  \
    return py;
    ONNXIFY_WEIGHTS_VALUE_KINDS(X)
#undef X
  }
  return "object";
}

const std::string& Value::as_str() const { return static_cast<StrObject*>(p_)->text; }
const Bytes& Value::as_bytes() const { return static_cast<BytesObject*>(p_)->data; }
SeqObject& Value::seq() const { return *static_cast<SeqObject*>(p_); }
DictObject& Value::dict() const { return *static_cast<DictObject*>(p_); }
GlobalObject& Value::global() const { return *static_cast<GlobalObject*>(p_); }
StorageObject& Value::storage() const { return *static_cast<StorageObject*>(p_); }
TensorObject& Value::tensor() const { return *static_cast<TensorObject*>(p_); }
InstanceObject& Value::instance() const { return *static_cast<InstanceObject*>(p_); }
BigIntObject& Value::bigint() const { return *static_cast<BigIntObject*>(p_); }

std::string Value::type_name() const {
  switch (kind_) {
    case Kind::Dict:
      return dict().type;
    case Kind::Set:
      return static_cast<SeqObject*>(p_)->frozen ? "frozenset" : "set";
    case Kind::Bytes:
      return static_cast<BytesObject*>(p_)->bytearray ? "bytearray" : "bytes";
    case Kind::Instance:
      return instance().cls->qualified();
    case Kind::Global:
      return global().qualified();
    default:
      return std::string(kind_name(kind_));
  }
}

// ---- big ints ---------------------------------------------------------------------------------

std::string BigIntObject::decimal() const {
  // Magnitude of the two's complement number, then repeated division by 10^9.
  bool negative = !le.empty() && (le.back() & 0x80);
  std::vector<uint32_t> mag((le.size() + 3) / 4, 0);
  for (size_t i = 0; i < le.size(); ++i) {
    uint8_t b = negative ? static_cast<uint8_t>(~le[i]) : le[i];
    mag[i / 4] |= static_cast<uint32_t>(b) << (8 * (i % 4));
  }
  if (negative) {  // ~x + 1
    for (uint32_t& w : mag)
      if (++w != 0) break;
  }
  std::string digits;
  auto is_zero = [&] {
    for (uint32_t w : mag)
      if (w) return false;
    return true;
  };
  while (!is_zero()) {
    uint64_t rem = 0;
    for (size_t i = mag.size(); i-- > 0;) {
      uint64_t cur = (rem << 32) | mag[i];
      mag[i] = static_cast<uint32_t>(cur / 1000000000u);
      rem = cur % 1000000000u;
    }
    for (int k = 0; k < 9; ++k) {
      digits += static_cast<char>('0' + rem % 10);
      rem /= 10;
    }
  }
  while (digits.size() > 1 && digits.back() == '0') digits.pop_back();
  if (digits.empty()) digits.push_back('0');
  if (negative) digits += '-';
  return std::string(digits.rbegin(), digits.rend());
}

// ---- heap -------------------------------------------------------------------------------------

Value Heap::str(std::string s) {
  auto* o = make<StrObject>();
  o->text = std::move(s);
  return Value::object(Kind::Str, o);
}

Value Heap::bytes(Bytes b, bool bytearray) {
  auto* o = make<BytesObject>();
  o->data = std::move(b);
  o->bytearray = bytearray;
  return Value::object(Kind::Bytes, o);
}

Value Heap::tuple(std::vector<Value> items) {
  auto* o = make<SeqObject>();
  o->items = std::move(items);
  return Value::object(Kind::Tuple, o);
}

Value Heap::list(std::vector<Value> items) {
  auto* o = make<SeqObject>();
  o->items = std::move(items);
  return Value::object(Kind::List, o);
}

Value Heap::set(std::vector<Value> items, bool frozen) {
  auto* o = make<SeqObject>();
  o->items = std::move(items);
  o->frozen = frozen;
  return Value::object(Kind::Set, o);
}

Value Heap::dict(std::string type) {
  auto* o = make<DictObject>();
  o->type = std::move(type);
  return Value::object(Kind::Dict, o);
}

Value Heap::bigint(std::vector<uint8_t> le) {
  // Drop redundant sign bytes, then use a plain Int when the value fits.
  while (le.size() > 1) {
    uint8_t last = le.back(), prev = le[le.size() - 2];
    if ((last == 0x00 && !(prev & 0x80)) || (last == 0xff && (prev & 0x80)))
      le.pop_back();
    else
      break;
  }
  if (le.empty()) return Value::integer(0);
  if (le.size() <= 8) {
    uint64_t u = 0;
    for (size_t i = 0; i < le.size(); ++i) u |= static_cast<uint64_t>(le[i]) << (8 * i);
    if (le.size() < 8 && (le.back() & 0x80)) u |= ~uint64_t{0} << (8 * le.size());
    return Value::integer(static_cast<int64_t>(u));
  }
  auto* o = make<BigIntObject>();
  o->le = std::move(le);
  return Value::object(Kind::BigInt, o);
}

// ---- dict keys --------------------------------------------------------------------------------

namespace {

constexpr int kMaxDepth = 200;
constexpr size_t kMaxKeyBytes = size_t{1} << 16;

// A string equal for keys Python considers equal (1 == 1.0 == True), used to index dicts.
bool canonical_key(const Value& v, std::string& out, int depth) {
  switch (v.kind()) {
    case Kind::None:
      out += 'N';
      return true;
    case Kind::Bool:
    case Kind::Int:
      out += 'i';
      out += std::to_string(v.as_int());
      return true;
    case Kind::BigInt:
      out += 'i';
      out += v.bigint().decimal();
      return true;
    case Kind::Float: {
      double f = v.as_float();
      if (std::isfinite(f) && f == std::trunc(f) && std::fabs(f) < 9.2e18) {
        out += 'i';
        out += std::to_string(static_cast<int64_t>(f));
      } else {
        uint64_t bits;
        std::memcpy(&bits, &f, 8);
        out += fmt::format("f{:x}", bits);
      }
      return true;
    }
    case Kind::Str:
      out += 's';
      out += std::to_string(v.as_str().size());
      out += ':';
      out += v.as_str();
      return true;
    case Kind::Bytes:
      out += 'b';
      out += std::to_string(v.as_bytes().size());
      out += ':';
      out += v.as_bytes().view();
      return true;
    case Kind::Tuple:
      // Identity for absurd keys (very deep, or huge through shared sub-tuples): no real file has
      // them, and a pickle could make their full form exponentially large.
      if (depth > kMaxDepth || out.size() > kMaxKeyBytes) break;
      out += '(';
      for (const Value& item : v.seq().items)
        if (!canonical_key(item, out, depth + 1)) return false;
      out += ')';
      return true;
    case Kind::Set:
      if (!v.seq().frozen) return false;
      break;
    case Kind::List:
    case Kind::Dict:
      return false;
    case Kind::DType:
      out += 'd';
      out += name(v.as_dtype());
      return true;
    case Kind::Global:
      out += 'g';
      out += v.global().qualified();
      return true;
    default:
      break;
  }
  out += fmt::format("p{}", static_cast<const void*>(v.pointer()));
  return true;
}

}  // namespace

void DictObject::set(const Value& key, const Value& value) {
  std::string k;
  if (!canonical_key(key, k, 0))
    throw Diagnostic::error(fmt::format("unhashable type: '{}'", key.type_name()));
  auto [it, inserted] = index_.emplace(std::move(k), items.size());
  if (inserted)
    items.emplace_back(key, value);
  else
    items[it->second].second = value;  // Python keeps the first key object and the last value
}

const Value* DictObject::get(const Value& key) const {
  std::string k;
  if (!canonical_key(key, k, 0)) return nullptr;
  auto it = index_.find(k);
  return it == index_.end() ? nullptr : &items[it->second].second;
}

// ---- repr -------------------------------------------------------------------------------------

namespace {

// CPython's float repr: the shortest string that round-trips, in fixed notation when the decimal
// exponent is in [-4, 16), else scientific with a signed two-digit exponent.
std::string float_repr(double f) {
  if (std::isnan(f)) return "nan";
  if (std::isinf(f)) return f < 0 ? "-inf" : "inf";
  char buf[64];
  auto res = std::to_chars(buf, buf + sizeof buf, f, std::chars_format::scientific);
  std::string s(buf, res.ptr);
  bool negative = s[0] == '-';
  if (negative) s.erase(0, 1);
  size_t e = s.find('e');
  int exp10 = std::stoi(s.substr(e + 1));
  std::string digits;
  for (size_t i = 0; i < e; ++i)
    if (s[i] != '.') digits += s[i];
  int decpt = exp10 + 1;  // value = 0.digits * 10^decpt
  // Appends rather than operator+: GCC 12 warns falsely (-Wrestrict) on chained string sums.
  std::string out;
  if (negative) out += '-';
  if (decpt > -4 && decpt <= 16) {
    if (decpt <= 0) {
      out.append("0.").append(static_cast<size_t>(-decpt), '0').append(digits);
    } else if (static_cast<size_t>(decpt) >= digits.size()) {
      out.append(digits).append(decpt - digits.size(), '0').append(".0");
    } else {
      out.append(digits, 0, decpt).append(".").append(digits, decpt);
    }
  } else {
    out.append(digits, 0, 1);
    if (digits.size() > 1) out.append(".").append(digits, 1);
    out += fmt::format("e{}{:02d}", exp10 < 0 ? '-' : '+', std::abs(exp10));
  }
  return out;
}

// Decodes one UTF-8 sequence (surrogates allowed); returns the code point or -1.
int32_t next_code_point(std::string_view s, size_t& i) {
  unsigned char c = static_cast<unsigned char>(s[i]);
  int len = c < 0x80 ? 1 : (c >> 5) == 6 ? 2 : (c >> 4) == 14 ? 3 : (c >> 3) == 30 ? 4 : 0;
  if (len == 0 || i + len > s.size()) {
    ++i;
    return -1;
  }
  int32_t cp = len == 1 ? c : c & (0x7f >> len);
  for (int k = 1; k < len; ++k) cp = (cp << 6) | (static_cast<unsigned char>(s[i + k]) & 0x3f);
  i += len;
  return cp;
}

// Python's str.isprintable() for the code points that commonly occur: control characters,
// separators other than ' ', format characters, surrogates and private use are not printable.
// (Unassigned code points are not distinguished; repr is for tests and messages.)
bool printable(int32_t cp) {
  struct Range {
    int32_t lo, hi;
  };
  static constexpr Range kNot[] = {
      {0x00, 0x1f},     {0x7f, 0xa0},     {0xad, 0xad},       {0x600, 0x605},     {0x61c, 0x61c},
      {0x6dd, 0x6dd},   {0x70f, 0x70f},   {0x1680, 0x1680},   {0x180e, 0x180e},   {0x2000, 0x200f},
      {0x2028, 0x202f}, {0x205f, 0x2064}, {0x2066, 0x206f},   {0x3000, 0x3000},   {0xd800, 0xf8ff},
      {0xfeff, 0xfeff}, {0xfff9, 0xfffb}, {0xe0001, 0xe0001}, {0xe0020, 0xe007f}, {0xf0000, 0x10ffff},
  };
  for (const Range& r : kNot)
    if (cp >= r.lo && cp <= r.hi) return false;
  return true;
}

void quote(std::string& out, std::string_view s, bool is_bytes) {
  bool has_single = s.find('\'') != std::string_view::npos;
  bool has_double = s.find('"') != std::string_view::npos;
  char q = has_single && !has_double ? '"' : '\'';
  out += q;
  for (size_t i = 0; i < s.size();) {
    int32_t cp;
    if (is_bytes) {
      cp = static_cast<unsigned char>(s[i++]);
    } else {
      cp = next_code_point(s, i);
    }
    if (cp == q || cp == '\\') {
      out += '\\';
      out += static_cast<char>(cp);
    } else if (cp == '\n') {
      out += "\\n";
    } else if (cp == '\r') {
      out += "\\r";
    } else if (cp == '\t') {
      out += "\\t";
    } else if (cp < 0) {
      out += "\\ufffd";
    } else if (is_bytes ? (cp < 0x20 || cp >= 0x7f) : !printable(cp)) {
      out += cp < 0x100     ? fmt::format("\\x{:02x}", cp)
             : cp < 0x10000 ? fmt::format("\\u{:04x}", cp)
                            : fmt::format("\\U{:08x}", cp);
    } else if (cp < 0x80) {
      out += static_cast<char>(cp);
    } else {
      // Printable non-ASCII: copy the UTF-8 bytes back out.
      char buf[4];
      int n = cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
      if (n == 2) {
        buf[0] = static_cast<char>(0xc0 | (cp >> 6));
      } else if (n == 3) {
        buf[0] = static_cast<char>(0xe0 | (cp >> 12));
      } else {
        buf[0] = static_cast<char>(0xf0 | (cp >> 18));
      }
      for (int k = 1; k < n; ++k) buf[k] = static_cast<char>(0x80 | ((cp >> (6 * (n - 1 - k))) & 0x3f));
      out.append(buf, n);
    }
  }
  out += q;
}

class Printer {
 public:
  explicit Printer(size_t max_bytes) : max_bytes_(max_bytes) {}
  std::string out;

  void print(const Value& v, int depth) {
    if (out.size() > max_bytes_) return;
    if (depth > kMaxDepth) {
      out += "...";
      return;
    }
    switch (v.kind()) {
      case Kind::None:
        out += "None";
        return;
      case Kind::Bool:
        out += v.as_bool() ? "True" : "False";
        return;
      case Kind::Int:
        out += std::to_string(v.as_int());
        return;
      case Kind::BigInt:
        out += v.bigint().decimal();
        return;
      case Kind::Float:
        out += float_repr(v.as_float());
        return;
      case Kind::Str:
        quote(out, v.as_str(), false);
        return;
      case Kind::Bytes: {
        bool ba = static_cast<const BytesObject*>(v.pointer())->bytearray;
        out += ba ? "bytearray(b" : "b";
        quote(out, v.as_bytes().view(), true);
        if (ba) out += ')';
        return;
      }
      case Kind::Tuple:
        sequence(v, "(", v.seq().items.size() == 1 ? ",)" : ")", "(...)", depth);
        return;
      case Kind::List:
        sequence(v, "[", "]", "[...]", depth);
        return;
      case Kind::Set: {
        bool frozen = v.seq().frozen;
        if (v.seq().items.empty()) {
          out += frozen ? "frozenset()" : "set()";
          return;
        }
        if (frozen) out += "frozenset(";
        sequence(v, "{", "}", "{...}", depth);
        if (frozen) out += ')';
        return;
      }
      case Kind::Dict:
        dict(v, depth);
        return;
      case Kind::Global:
        out.append("<global ").append(v.global().qualified()).append(">");
        return;
      case Kind::DType:
        out += "torch.";
        out += name(v.as_dtype());
        return;
      case Kind::Storage:
        out += fmt::format("<storage {} '{}'>", name(v.storage().dtype), v.storage().key);
        return;
      case Kind::Tensor: {
        const Tensor& t = v.tensor().tensor;
        out += fmt::format("tensor({}[", name(t.dtype));
        for (size_t i = 0; i < t.shape.size(); ++i) out += (i ? ", " : "") + std::to_string(t.shape[i]);
        out += "])";
        return;
      }
      case Kind::Instance:
        out.append("<").append(v.instance().cls->qualified()).append(">");
        return;
    }
  }

 private:
  size_t max_bytes_;
  std::unordered_set<const void*> active_;

  bool enter(const Value& v, const char* cycle) {
    if (!active_.insert(v.pointer()).second) {
      out += cycle;
      return false;
    }
    return true;
  }

  void sequence(const Value& v, const char* open, const char* close, const char* cycle, int depth) {
    if (!enter(v, cycle)) return;
    out += open;
    const auto& items = v.seq().items;
    for (size_t i = 0; i < items.size(); ++i) {
      if (i) out += ", ";
      print(items[i], depth + 1);
    }
    out += close;
    active_.erase(v.pointer());
  }

  void dict(const Value& v, int depth) {
    const DictObject& d = v.dict();
    bool ordered = d.type == "collections.OrderedDict";
    if (ordered && d.items.empty()) {
      out += "OrderedDict()";
      return;
    }
    if (!enter(v, ordered ? "..." : "{...}")) return;
    out += ordered ? "OrderedDict([" : "{";
    for (size_t i = 0; i < d.items.size(); ++i) {
      if (i) out += ", ";
      if (ordered) out += '(';
      print(d.items[i].first, depth + 1);
      out += ordered ? ", " : ": ";
      print(d.items[i].second, depth + 1);
      if (ordered) out += ')';
    }
    out += ordered ? "])" : "}";
    active_.erase(v.pointer());
  }
};

}  // namespace

std::string repr(const Value& v, size_t max_bytes) {
  Printer p(max_bytes);
  p.print(v, 0);
  if (p.out.size() > max_bytes) {
    p.out.resize(max_bytes);
    p.out += "...";
  }
  return std::move(p.out);
}

std::string key_name(const Value& v) {
  switch (v.kind()) {
    case Kind::Str:
      return v.as_str();
    case Kind::Int:
      return std::to_string(v.as_int());
    default:
      return repr(v, 200);  // a name, not a dump
  }
}

}  // namespace onnxify::weights
