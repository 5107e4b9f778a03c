// The pickle machine, opcode by opcode, after CPython's Lib/pickle.py (the reference semantics):
// a stack split into frames by MARK (Python's metastack), a memo, and one handler per opcode.
// Lengths read from the data are checked against the bytes that remain before anything is
// allocated, so a claimed size cannot make us allocate it.
#include "weights/unpickler.h"

#include <fmt/core.h>

#include <array>
#include <charconv>
#include <cstring>
#include <iterator>
#include <unordered_map>

#include "support/diagnostic.h"
#include "weights/globals.h"
#include "weights/pickle_ops.h"

namespace onnxify::weights {

namespace {

constexpr OpcodeInfo kOpcodes[] = {
#define X(name, code, proto) {#name, code, proto},
    ONNXIFY_PICKLE_OPCODES(X)
#undef X
};

// Valid UTF-8, allowing encoded surrogates as Python's 'surrogatepass' does.
bool valid_utf8(std::string_view s) {
  for (size_t i = 0; i < s.size();) {
    unsigned char c = static_cast<unsigned char>(s[i]);
    size_t len;
    uint32_t cp;
    if (c < 0x80) {
      ++i;
      continue;
    } else if (c >= 0xc2 && c <= 0xdf) {
      len = 2, cp = c & 0x1f;
    } else if (c >= 0xe0 && c <= 0xef) {
      len = 3, cp = c & 0x0f;
    } else if (c >= 0xf0 && c <= 0xf4) {
      len = 4, cp = c & 0x07;
    } else {
      return false;
    }
    if (i + len > s.size()) return false;
    for (size_t k = 1; k < len; ++k) {
      unsigned char cc = static_cast<unsigned char>(s[i + k]);
      if ((cc & 0xc0) != 0x80) return false;
      cp = cp << 6 | (cc & 0x3f);
    }
    if ((len == 3 && cp < 0x800) || (len == 4 && (cp < 0x10000 || cp > 0x10ffff))) return false;
    i += len;
  }
  return true;
}

void append_utf8(std::string& out, uint32_t cp) {
  if (cp < 0x80) {
    out += static_cast<char>(cp);
  } else if (cp < 0x800) {
    out += static_cast<char>(0xc0 | cp >> 6);
    out += static_cast<char>(0x80 | (cp & 0x3f));
  } else if (cp < 0x10000) {
    out += static_cast<char>(0xe0 | cp >> 12);
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3f));
    out += static_cast<char>(0x80 | (cp & 0x3f));
  } else {
    out += static_cast<char>(0xf0 | cp >> 18);
    out += static_cast<char>(0x80 | ((cp >> 12) & 0x3f));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3f));
    out += static_cast<char>(0x80 | (cp & 0x3f));
  }
}

int hex_digit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

class Unpickler {
 public:
  Unpickler(const Bytes& data, size_t offset, Heap& heap, const UnpickleOptions& options)
      : data_(data), d_(data.data()), pos_(offset), heap_(heap), options_(options) {}

  UnpickleResult run() {
    while (!stopped_) {
      op_pos_ = pos_;
      if (pos_ >= data_.size())
        throw Diagnostic::error(fmt::format(
            "truncated pickle in {}: it ends at byte {} without a STOP opcode", options_.name, pos_));
      uint8_t code = d_[pos_++];
      Handler h = dispatch()[code];
      if (!h) bad(fmt::format("unknown opcode 0x{:02x}", code));
      current_ = code;
      (this->*h)();
    }
    return {result_, pos_};
  }

 private:
  using Handler = void (Unpickler::*)();

  static const Handler* dispatch() {
    static const auto table = [] {
      std::array<Handler, 256> t{};
#define X(name, code, proto) t[code] = &Unpickler::op_##name;
      ONNXIFY_PICKLE_OPCODES(X)
#undef X
      return t;
    }();
    return table.data();
  }

  static std::string_view opname(uint8_t code) {
    for (const OpcodeInfo& o : kOpcodes)
      if (o.code == code) return o.name;
    return "?";
  }

  [[noreturn]] void bad(const std::string& what) const {
    throw Diagnostic::error(fmt::format("bad pickle in {} at byte {}: {}", options_.name, op_pos_, what));
  }

  // ---- reading the argument bytes ----
  const uint8_t* need(uint64_t n) {
    if (n > data_.size() - pos_)
      throw Diagnostic::error(fmt::format("truncated pickle in {}: {} at byte {} needs {} bytes, {} remain",
                                          options_.name, opname(current_), op_pos_, n, data_.size() - pos_));
    const uint8_t* p = d_ + pos_;
    pos_ += n;
    return p;
  }
  uint64_t read_le(int n) {
    const uint8_t* p = need(n);
    uint64_t v = 0;
    for (int i = n - 1; i >= 0; --i) v = v << 8 | p[i];
    return v;
  }
  std::string_view line() {
    const void* nl = std::memchr(d_ + pos_, '\n', data_.size() - pos_);
    if (!nl)
      throw Diagnostic::error(fmt::format("truncated pickle in {}: {} at byte {} has no end of line",
                                          options_.name, opname(current_), op_pos_));
    size_t len = static_cast<const uint8_t*>(nl) - (d_ + pos_);
    std::string_view s(reinterpret_cast<const char*>(d_ + pos_), len);
    pos_ += len + 1;
    return s;
  }

  // ---- the stack ----
  size_t base() const { return marks_.empty() ? 0 : marks_.back(); }
  void push(Value v) { stack_.push_back(v); }
  Value pop() {
    if (stack_.size() <= base()) bad(fmt::format("{} pops from an empty stack", opname(current_)));
    Value v = stack_.back();
    stack_.pop_back();
    return v;
  }
  Value& top() {
    if (stack_.size() <= base()) bad(fmt::format("{} needs a value on the stack", opname(current_)));
    return stack_.back();
  }
  std::vector<Value> pop_mark() {
    if (marks_.empty()) bad(fmt::format("{} without a MARK", opname(current_)));
    size_t m = marks_.back();
    marks_.pop_back();
    std::vector<Value> items(std::make_move_iterator(stack_.begin() + m),
                             std::make_move_iterator(stack_.end()));
    stack_.resize(m);
    return items;
  }

  // ---- values ----
  Value text(std::string_view s, const char* what) {
    if (!valid_utf8(s)) bad(fmt::format("{} is not valid UTF-8", what));
    return heap_.str(std::string(s));
  }
  // Python 2 str (STRING, BINSTRING): torch.load decodes it as UTF-8; keep bytes that are not.
  Value py2_str(std::string_view s) {
    if (valid_utf8(s)) return heap_.str(std::string(s));
    return heap_.bytes(Bytes::copy_of(s.data(), s.size()));
  }
  Value decimal_int(std::string_view s) {
    std::string_view digits = s;
    bool negative = false;
    if (!digits.empty() && (digits[0] == '-' || digits[0] == '+')) {
      negative = digits[0] == '-';
      digits.remove_prefix(1);
    }
    if (digits.empty() || digits.find_first_not_of("0123456789") != std::string_view::npos)
      bad(fmt::format("'{}' is not an integer", s));
    int64_t v;
    auto [p, ec] = std::from_chars(s.data() + (s[0] == '+'), s.data() + s.size(), v);
    if (ec == std::errc() && p == s.data() + s.size()) return Value::integer(v);
    // Too big for 64 bits: build the two's complement bytes by schoolbook multiply-add.
    std::vector<uint8_t> mag;
    for (char c : digits) {
      unsigned carry = static_cast<unsigned>(c - '0');
      for (uint8_t& b : mag) {
        unsigned x = b * 10u + carry;
        b = static_cast<uint8_t>(x);
        carry = x >> 8;
      }
      while (carry) {
        mag.push_back(static_cast<uint8_t>(carry));
        carry >>= 8;
      }
    }
    mag.push_back(0);  // sign byte
    if (negative) {
      unsigned carry = 1;
      for (uint8_t& b : mag) {
        unsigned x = static_cast<uint8_t>(~b) + carry;
        b = static_cast<uint8_t>(x);
        carry = x >> 8;
      }
    }
    return heap_.bigint(std::move(mag));
  }
  Value call(const Value& callable, const Value& args, bool new_object) {
    if (!callable.is(Kind::Global))
      bad(fmt::format("{} calls a {}, which is not callable", opname(current_), callable.type_name()));
    return call_global(callable.global(), args, heap_, new_object);
  }
  // INST / OBJ: Python's _instantiate: klass(*args), or klass.__new__(klass) for a class without args.
  void instantiate(const Value& klass, std::vector<Value> args) {
    bool is_class = klass.is(Kind::Global) && klass.global().id >= 0 && args.empty();
    push(call(klass, heap_.tuple(std::move(args)), is_class));
  }
  Value memo_get(uint64_t key) {
    auto it = memo_.find(key);
    if (it == memo_.end()) bad(fmt::format("memo key {} is not defined", key));
    return it->second;
  }
  void memo_put(uint64_t key) { memo_[key] = top(); }
  uint64_t line_index() {
    std::string_view s = line();
    uint64_t v;
    auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (ec != std::errc() || p != s.data() + s.size()) bad(fmt::format("'{}' is not a memo index", s));
    return v;
  }
  void persistent(const Value& pid) {
    if (!options_.persistent_load) bad("a persistent id, but this pickle cannot refer to outside data");
    push(options_.persistent_load(pid));
  }

  // ---- one handler per opcode (pickle_ops.h) ----
  void op_MARK() { marks_.push_back(stack_.size()); }
  void op_STOP() {
    result_ = pop();
    stopped_ = true;
  }
  void op_POP() {
    if (stack_.size() > base())
      stack_.pop_back();
    else
      pop_mark();
  }
  void op_POP_MARK() { pop_mark(); }
  void op_DUP() { push(top()); }
  void op_FLOAT() {
    std::string_view s = line();
    double v;
    auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (ec != std::errc() || p != s.data() + s.size()) bad(fmt::format("'{}' is not a float", s));
    push(Value::real(v));
  }
  void op_INT() {
    std::string_view s = line();
    if (s == "00") return push(Value::boolean(false));
    if (s == "01") return push(Value::boolean(true));
    push(decimal_int(s));
  }
  void op_BININT() { push(Value::integer(static_cast<int32_t>(read_le(4)))); }
  void op_BININT1() { push(Value::integer(static_cast<int64_t>(read_le(1)))); }
  void op_LONG() {
    std::string_view s = line();
    if (!s.empty() && s.back() == 'L') s.remove_suffix(1);
    push(decimal_int(s));
  }
  void op_BININT2() { push(Value::integer(static_cast<int64_t>(read_le(2)))); }
  void op_NONE() { push(Value::none()); }
  void op_PERSID() { persistent(text(line(), "a persistent id")); }
  void op_BINPERSID() { persistent(pop()); }
  void op_REDUCE() {
    Value args = pop();
    Value f = pop();
    push(call(f, args, false));
  }
  void op_STRING() {
    // A quoted Python bytes literal; its escapes are those of codecs.escape_decode.
    std::string_view s = line();
    if (s.size() < 2 || s.front() != s.back() || (s.front() != '\'' && s.front() != '"'))
      bad("the STRING opcode argument must be quoted");
    s = s.substr(1, s.size() - 2);
    std::string out;
    for (size_t i = 0; i < s.size(); ++i) {
      if (s[i] != '\\' || i + 1 == s.size()) {
        out += s[i];
        continue;
      }
      char c = s[++i];
      switch (c) {
        case 'n':
          out += '\n';
          break;
        case 't':
          out += '\t';
          break;
        case 'r':
          out += '\r';
          break;
        case 'a':
          out += '\a';
          break;
        case 'b':
          out += '\b';
          break;
        case 'f':
          out += '\f';
          break;
        case 'v':
          out += '\v';
          break;
        case '\\':
        case '\'':
        case '"':
          out += c;
          break;
        case '\n':
          break;
        case 'x': {
          int hi = i + 1 < s.size() ? hex_digit(s[i + 1]) : -1,
              lo = i + 2 < s.size() ? hex_digit(s[i + 2]) : -1;
          if (hi < 0 || lo < 0) bad("invalid \\x escape in a STRING");
          out += static_cast<char>(hi * 16 + lo);
          i += 2;
          break;
        }
        default:
          if (c >= '0' && c <= '7') {
            int v = c - '0';
            for (int k = 0; k < 2 && i + 1 < s.size() && s[i + 1] >= '0' && s[i + 1] <= '7'; ++k)
              v = v * 8 + (s[++i] - '0');
            out += static_cast<char>(v & 0xff);
          } else {
            out += '\\';
            out += c;
          }
      }
    }
    push(py2_str(out));
  }
  void op_BINSTRING() {
    int32_t n = static_cast<int32_t>(read_le(4));
    if (n < 0) bad("BINSTRING with a negative length");
    push(py2_str(std::string_view(reinterpret_cast<const char*>(need(n)), n)));
  }
  void op_SHORT_BINSTRING() {
    uint64_t n = read_le(1);
    push(py2_str(std::string_view(reinterpret_cast<const char*>(need(n)), n)));
  }
  void op_UNICODE() {
    // raw-unicode-escape: bytes are latin-1 code points, except \uXXXX and \UXXXXXXXX.
    std::string_view s = line();
    std::string out;
    for (size_t i = 0; i < s.size(); ++i) {
      if (s[i] == '\\' && i + 1 < s.size() && (s[i + 1] == 'u' || s[i + 1] == 'U')) {
        size_t digits = s[i + 1] == 'u' ? 4 : 8;
        if (i + 2 + digits > s.size()) bad("truncated \\u escape in a UNICODE string");
        uint32_t cp = 0;
        for (size_t k = 0; k < digits; ++k) {
          int h = hex_digit(s[i + 2 + k]);
          if (h < 0) bad("invalid \\u escape in a UNICODE string");
          cp = cp << 4 | static_cast<uint32_t>(h);
        }
        if (cp > 0x10ffff) bad("\\U escape beyond U+10FFFF in a UNICODE string");
        append_utf8(out, cp);
        i += 1 + digits;
      } else {
        append_utf8(out, static_cast<unsigned char>(s[i]));
      }
    }
    push(heap_.str(std::move(out)));
  }
  void unicode(uint64_t n) {
    push(text(std::string_view(reinterpret_cast<const char*>(need(n)), n), "a string"));
  }
  void op_BINUNICODE() { unicode(read_le(4)); }
  void op_SHORT_BINUNICODE() { unicode(read_le(1)); }
  void op_BINUNICODE8() { unicode(read_le(8)); }
  void binbytes(uint64_t n, bool bytearray = false) {
    need(n);
    push(heap_.bytes(data_.slice(pos_ - n, n), bytearray));
  }
  void op_BINBYTES() { binbytes(read_le(4)); }
  void op_SHORT_BINBYTES() { binbytes(read_le(1)); }
  void op_BINBYTES8() { binbytes(read_le(8)); }
  void op_BYTEARRAY8() { binbytes(read_le(8), true); }
  void op_APPEND() {
    Value v = pop();
    Value& list = top();
    if (!list.is(Kind::List)) bad(fmt::format("APPEND to a {}", list.type_name()));
    list.seq().items.push_back(v);
  }
  void op_APPENDS() {
    std::vector<Value> items = pop_mark();
    Value& list = top();
    if (!list.is(Kind::List)) bad(fmt::format("APPENDS to a {}", list.type_name()));
    auto& dst = list.seq().items;
    dst.insert(dst.end(), items.begin(), items.end());
  }
  void op_BUILD() {
    Value state = pop();
    build(top(), state, heap_);
  }
  void op_GLOBAL() {
    std::string_view module = line();
    std::string_view name = line();
    push(resolve_global(module, name, heap_));
  }
  void op_STACK_GLOBAL() {
    Value name = pop();
    Value module = pop();
    if (!module.is(Kind::Str) || !name.is(Kind::Str)) bad("STACK_GLOBAL needs two strings");
    push(resolve_global(module.as_str(), name.as_str(), heap_));
  }
  void set_items(Value& dict, const std::vector<Value>& items) {
    if (items.size() % 2) bad(fmt::format("{} with an odd number of items", opname(current_)));
    for (size_t i = 0; i < items.size(); i += 2) dict.dict().set(items[i], items[i + 1]);
  }
  void op_DICT() {
    std::vector<Value> items = pop_mark();
    Value d = heap_.dict();
    set_items(d, items);
    push(d);
  }
  void op_EMPTY_DICT() { push(heap_.dict()); }
  void op_SETITEM() {
    Value v = pop();
    Value k = pop();
    Value& d = top();
    if (!d.is(Kind::Dict)) bad(fmt::format("SETITEM on a {}", d.type_name()));
    d.dict().set(k, v);
  }
  void op_SETITEMS() {
    std::vector<Value> items = pop_mark();
    Value& d = top();
    if (!d.is(Kind::Dict)) bad(fmt::format("SETITEMS on a {}", d.type_name()));
    set_items(d, items);
  }
  void op_GET() { push(memo_get(line_index())); }
  void op_BINGET() { push(memo_get(read_le(1))); }
  void op_LONG_BINGET() { push(memo_get(read_le(4))); }
  void op_PUT() { memo_put(line_index()); }
  void op_BINPUT() { memo_put(read_le(1)); }
  void op_LONG_BINPUT() { memo_put(read_le(4)); }
  void op_MEMOIZE() { memo_put(memo_.size()); }
  void op_INST() {
    std::string_view module = line();
    std::string_view name = line();
    Value klass = resolve_global(module, name, heap_);
    instantiate(klass, pop_mark());
  }
  void op_OBJ() {
    std::vector<Value> args = pop_mark();
    if (args.empty()) bad("OBJ without a class");
    Value klass = args.front();
    args.erase(args.begin());
    instantiate(klass, std::move(args));
  }
  void op_LIST() { push(heap_.list(pop_mark())); }
  void op_EMPTY_LIST() { push(heap_.list()); }
  void op_TUPLE() { push(heap_.tuple(pop_mark())); }
  void op_EMPTY_TUPLE() { push(heap_.tuple()); }
  void tuple_n(size_t n) {
    if (stack_.size() < base() + n) bad(fmt::format("{} needs {} values on the stack", opname(current_), n));
    std::vector<Value> items(stack_.end() - n, stack_.end());
    stack_.resize(stack_.size() - n);
    push(heap_.tuple(std::move(items)));
  }
  void op_TUPLE1() { tuple_n(1); }
  void op_TUPLE2() { tuple_n(2); }
  void op_TUPLE3() { tuple_n(3); }
  void op_EMPTY_SET() { push(heap_.set()); }
  void op_ADDITEMS() {
    std::vector<Value> items = pop_mark();
    Value& s = top();
    if (!s.is(Kind::Set) || s.seq().frozen) bad(fmt::format("ADDITEMS to a {}", s.type_name()));
    auto& dst = s.seq().items;
    dst.insert(dst.end(), items.begin(), items.end());
  }
  void op_FROZENSET() { push(heap_.set(pop_mark(), true)); }
  void op_BINFLOAT() {
    uint64_t bits = 0;
    const uint8_t* p = need(8);
    for (int i = 0; i < 8; ++i) bits = bits << 8 | p[i];  // big-endian
    double v;
    std::memcpy(&v, &bits, 8);
    push(Value::real(v));
  }
  void op_PROTO() {
    uint64_t v = read_le(1);
    if (v > kMaxPickleProtocol) bad(fmt::format("unsupported pickle protocol {}", v));
  }
  void op_NEWOBJ() {
    Value args = pop();
    Value cls = pop();
    push(call(cls, args, true));
  }
  void op_NEWOBJ_EX() {
    Value kwargs = pop();
    Value args = pop();
    Value cls = pop();
    if (!kwargs.is(Kind::Dict)) bad("NEWOBJ_EX keyword arguments are not a dict");
    push(call(cls, args, true));
  }
  void ext(uint64_t code) {
    bad(fmt::format("extension code {}: the copyreg extension registry is not supported", code));
  }
  void op_EXT1() { ext(read_le(1)); }
  void op_EXT2() { ext(read_le(2)); }
  void op_EXT4() { ext(read_le(4)); }
  void op_NEWTRUE() { push(Value::boolean(true)); }
  void op_NEWFALSE() { push(Value::boolean(false)); }
  void long_bytes(uint64_t n) {
    const uint8_t* p = need(n);
    push(heap_.bigint(std::vector<uint8_t>(p, p + n)));
  }
  void op_LONG1() { long_bytes(read_le(1)); }
  void op_LONG4() {
    int32_t n = static_cast<int32_t>(read_le(4));
    if (n < 0) bad("LONG4 with a negative byte count");
    long_bytes(static_cast<uint64_t>(n));
  }
  void op_FRAME() {
    // Frames only group opcodes for buffered reading; check the length and read on.
    uint64_t n = read_le(8);
    if (n > data_.size() - pos_)
      throw Diagnostic::error(
          fmt::format("truncated pickle in {}: a frame at byte {} claims {} bytes, {} remain", options_.name,
                      op_pos_, n, data_.size() - pos_));
  }
  void op_NEXT_BUFFER() { bad("an out-of-band buffer (pickle protocol 5), which a file cannot carry"); }
  void op_READONLY_BUFFER() { top(); }

  const Bytes& data_;
  const uint8_t* d_;
  size_t pos_;
  size_t op_pos_ = 0;
  uint8_t current_ = 0;
  Heap& heap_;
  const UnpickleOptions& options_;
  std::vector<Value> stack_;
  std::vector<size_t> marks_;
  std::unordered_map<uint64_t, Value> memo_;
  bool stopped_ = false;
  Value result_;
};

}  // namespace

const OpcodeInfo* all_opcodes(size_t* count) {
  *count = std::size(kOpcodes);
  return kOpcodes;
}

UnpickleResult unpickle(const Bytes& data, size_t offset, Heap& heap, const UnpickleOptions& options) {
  if (offset > data.size()) offset = data.size();
  return Unpickler(data, offset, heap, options).run();
}

}  // namespace onnxify::weights
