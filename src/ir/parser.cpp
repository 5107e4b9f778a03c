// The IR parser: recursive descent over the text form (grammar in text.h; each parse function
// carries its rule). Errors throw a Diagnostic pointing into the IR file.
#include <fmt/core.h>
#include <sys/stat.h>

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <map>
#include <unordered_map>

#include "ir/text.h"
#include "ir/text_util.h"
#include "support/diagnostic.h"

namespace onnxify::ir {

namespace {

struct RawAttr {
  std::string name;
  Attribute value;
};

class IrParser {
 public:
  IrParser(std::shared_ptr<const SourceFile> file, const ParseOptions& opts)
      : file_(std::move(file)), s_(file_->text()), opts_(opts) {
    line_starts_.push_back(0);
    for (size_t i = 0; i < s_.size(); ++i)
      if (s_[i] == '\n') line_starts_.push_back(i + 1);
  }

  // file := graph
  std::unique_ptr<Graph> parse_file() {
    auto g = parse_graph();
    skip();
    if (p_ != s_.size()) throw error_at(p_, "expected the end of the file after the graph");
    return g;
  }

 private:
  struct Scope {
    Graph* graph;
    Scope* parent;
  };

  // ---------------------------------------------------------------- lexing helpers

  Diagnostic error_at(size_t pos, std::string msg) const {
    pos = std::min(pos, s_.size());
    auto it = std::upper_bound(line_starts_.begin(), line_starts_.end(), pos);
    uint32_t line = static_cast<uint32_t>(it - line_starts_.begin());
    uint32_t col = static_cast<uint32_t>(pos - line_starts_[line - 1]);
    return Diagnostic::error(std::move(msg), SourceRange{file_, {line, col}, {line, col + 1}});
  }

  // Whitespace and `//` comments.
  void skip() {
    for (;;) {
      while (p_ < s_.size() && (s_[p_] == ' ' || s_[p_] == '\t' || s_[p_] == '\n' || s_[p_] == '\r')) ++p_;
      if (p_ + 1 < s_.size() && s_[p_] == '/' && s_[p_ + 1] == '/') {
        while (p_ < s_.size() && s_[p_] != '\n') ++p_;
        continue;
      }
      return;
    }
  }

  char peek() {
    skip();
    return p_ < s_.size() ? s_[p_] : '\0';
  }
  bool eat(char c) {
    if (peek() != c) return false;
    ++p_;
    return true;
  }
  void expect(char c, std::string_view context) {
    if (!eat(c)) {
      char got = peek();
      throw error_at(p_, fmt::format("expected '{}' {}, found {}", c, context,
                                     got ? fmt::format("'{}'", got) : std::string("the end of the file")));
    }
  }

  static bool word_char(char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.';
  }

  // The word ([A-Za-z0-9_.]+) at the cursor, without consuming it.
  std::string_view peek_word() {
    skip();
    size_t e = p_;
    while (e < s_.size() && word_char(s_[e])) ++e;
    return s_.substr(p_, e - p_);
  }
  std::string word(std::string_view what) {
    std::string_view w = peek_word();
    if (w.empty()) throw error_at(p_, fmt::format("expected {}", what));
    p_ += w.size();
    return std::string(w);
  }
  bool eat_keyword(std::string_view kw) {
    if (peek_word() != kw) return false;
    p_ += kw.size();
    return true;
  }

  // STRING := '"' (char | escape)* '"'
  std::string string_lit(std::string_view what) {
    if (peek() != '"') throw error_at(p_, fmt::format("expected {} (a quoted string)", what));
    size_t start = p_++;
    std::string out;
    for (;;) {
      if (p_ >= s_.size() || s_[p_] == '\n') throw error_at(start, "unterminated string");
      char c = s_[p_++];
      if (c == '"') return out;
      if (c != '\\') {
        out += c;
        continue;
      }
      if (p_ >= s_.size()) throw error_at(start, "unterminated string");
      char e = s_[p_++];
      switch (e) {
        case 'n':
          out += '\n';
          break;
        case 't':
          out += '\t';
          break;
        case 'r':
          out += '\r';
          break;
        case '"':
          out += '"';
          break;
        case '\\':
          out += '\\';
          break;
        case 'x': {
          auto hex = [&](char h) -> int {
            if (h >= '0' && h <= '9') return h - '0';
            if (h >= 'a' && h <= 'f') return h - 'a' + 10;
            if (h >= 'A' && h <= 'F') return h - 'A' + 10;
            return -1;
          };
          int hi = p_ < s_.size() ? hex(s_[p_]) : -1;
          int lo = p_ + 1 < s_.size() ? hex(s_[p_ + 1]) : -1;
          if (hi < 0 || lo < 0) throw error_at(p_ - 2, "\\x needs two hex digits");
          out += static_cast<char>(hi * 16 + lo);
          p_ += 2;
          break;
        }
        default:
          throw error_at(p_ - 2, fmt::format("unknown escape '\\{}'", e));
      }
    }
  }

  // A number token: [-]digits[.digits][e[+-]digits] | [-]nan | [-]inf. Sets *is_float.
  std::string_view number(bool* is_float) {
    skip();
    size_t start = p_, e = p_;
    if (e < s_.size() && (s_[e] == '-' || s_[e] == '+')) ++e;
    if (s_.substr(e, 3) == "nan" || s_.substr(e, 3) == "inf") {
      p_ = e + 3;
      *is_float = true;
      return s_.substr(start, p_ - start);
    }
    size_t digits = e;
    *is_float = false;
    while (e < s_.size() && std::isdigit(static_cast<unsigned char>(s_[e]))) ++e;
    if (e < s_.size() && s_[e] == '.') {
      *is_float = true;
      ++e;
      while (e < s_.size() && std::isdigit(static_cast<unsigned char>(s_[e]))) ++e;
    }
    if (e == digits) throw error_at(start, "expected a number");
    if (e < s_.size() && (s_[e] == 'e' || s_[e] == 'E')) {
      size_t x = e + 1;
      if (x < s_.size() && (s_[x] == '-' || s_[x] == '+')) ++x;
      if (x < s_.size() && std::isdigit(static_cast<unsigned char>(s_[x]))) {
        *is_float = true;
        e = x;
        while (e < s_.size() && std::isdigit(static_cast<unsigned char>(s_[e]))) ++e;
      }
    }
    p_ = e;
    return s_.substr(start, e - start);
  }

  int64_t to_int(std::string_view tok, size_t pos) const {
    std::string t(tok);
    errno = 0;
    char* end = nullptr;
    long long v = std::strtoll(t.c_str(), &end, 10);
    if (errno == ERANGE || *end) throw error_at(pos, fmt::format("integer {} does not fit in int64", tok));
    return v;
  }
  double to_double(std::string_view tok) const { return std::strtod(std::string(tok).c_str(), nullptr); }
  int64_t integer(std::string_view what) {
    size_t pos = (skip(), p_);
    bool is_float;
    std::string_view tok = number(&is_float);
    if (is_float) throw error_at(pos, fmt::format("expected {} (an integer)", what));
    return to_int(tok, pos);
  }

  Type type() {
    skip();
    std::string msg;
    auto t = Type::parse_prefix(s_, &p_, &msg);
    if (!t) throw error_at(p_, msg);
    return *t;
  }

  // VALUE := '%' [A-Za-z0-9_.]+ | '%' STRING
  std::string value_name() {
    if (!eat('%')) throw error_at(p_, "expected a value name (%name)");
    if (p_ < s_.size() && s_[p_] == '"') return string_lit("a value name");
    size_t e = p_;
    while (e < s_.size() && word_char(s_[e])) ++e;
    if (e == p_) throw error_at(p_, "expected a value name after '%'");
    std::string name(s_.substr(p_, e - p_));
    p_ = e;
    return name;
  }

  // ---------------------------------------------------------------- scopes

  void define(const std::string& name, Value* v, size_t pos) {
    auto [it, fresh] = defs_.emplace(name, Def{v, pos});
    if (!fresh) {
      throw error_at(pos, fmt::format("redefinition of %{}", name))
          .with_note(Diagnostic::note("previous definition is here", error_at(it->second.pos, "").range()));
    }
    v->set_name(name);
  }

  Value* lookup(const std::string& name, size_t pos) {
    auto it = defs_.find(name);
    if (it == defs_.end()) {
      std::vector<std::string> visible;
      for (const auto& [k, d] : defs_)
        if (in_scope(d.value)) visible.push_back(k);
      Diagnostic d = error_at(pos, fmt::format("use of undefined value %{}", name));
      std::string guess = closest_spelling(name, visible);
      if (!guess.empty()) d.with_help(fmt::format("did you mean %{}?", guess));
      throw d;
    }
    if (!in_scope(it->second.value)) {
      throw error_at(pos, fmt::format("%{} is not visible here: it is defined inside another region", name))
          .with_note(Diagnostic::note("defined here", error_at(it->second.pos, "").range()));
    }
    return it->second.value;
  }

  bool in_scope(const Value* v) const {
    for (const Scope* s = scope_; s; s = s->parent)
      if (s->graph == v->graph()) return true;
    return false;
  }

  // ---------------------------------------------------------------- grammar

  // graph := 'graph' ('@' NAME)? '(' (VALUE ':' type (',' VALUE ':' type)*)? ')'
  //          '{' ('const' VALUE '=' tensor | node)* 'return' (VALUE (',' VALUE)*)? '}'
  std::unique_ptr<Graph> parse_graph() {
    if (++depth_ > kMaxDepth) throw error_at(p_, "graphs nested too deeply");
    if (!eat_keyword("graph")) throw error_at(p_, "expected 'graph'");
    auto g = std::make_unique<Graph>();
    if (eat('@')) g->set_name(peek() == '"' ? string_lit("a graph name") : word("a graph name"));
    Scope scope{g.get(), scope_};
    scope_ = &scope;
    expect('(', "to open the graph's inputs");
    if (!eat(')')) {
      for (;;) {
        size_t pos = (skip(), p_);
        std::string name = value_name();
        expect(':', "after an input name");
        Value* v = g->add_input(type());
        define(name, v, pos);
        if (eat(',')) continue;
        expect(')', "after the graph's inputs");
        break;
      }
    }
    expect('{', "to open the graph body");
    for (;;) {
      skip();
      if (eat_keyword("return")) break;
      if (p_ >= s_.size()) throw error_at(p_, "missing 'return' at the end of the graph");
      if (eat_keyword("const")) {
        size_t vpos = (skip(), p_);
        std::string name = value_name();
        expect('=', "after the constant's name");
        Value* v = g->add_initializer(tensor());
        define(name, v, vpos);
        continue;
      }
      parse_node(*g);
    }
    if (peek() != '}') {
      for (;;) {
        size_t pos = (skip(), p_);
        g->add_output(lookup(value_name(), pos));
        if (!eat(',')) break;
      }
    }
    expect('}', "to close the graph");
    scope_ = scope.parent;
    --depth_;
    return g;
  }

  // node := (result (',' result)* '=')? OP '(' (operand (',' operand)*)? ')'
  //         attrs? (':' type (',' type)*)? ('@' STRING)? loc?
  void parse_node(Graph& g) {
    struct Result {
      std::string name;
      size_t pos;
      bool present;
    };
    std::vector<Result> results;
    char c = peek();
    bool underscore_result = c == '_' && (p_ + 1 >= s_.size() || !word_char(s_[p_ + 1]));
    if (c == '%' || underscore_result) {
      for (;;) {
        size_t pos = (skip(), p_);
        if (peek() == '_' && (p_ + 1 >= s_.size() || !word_char(s_[p_ + 1]))) {
          ++p_;
          results.push_back({"", pos, false});
        } else {
          results.push_back({value_name(), pos, true});
        }
        if (eat(',')) continue;
        expect('=', "after the node's results");
        break;
      }
    }
    // OP := NAME | DOMAIN '::' NAME
    size_t op_pos = (skip(), p_);
    std::string domain, op = word("an op name");
    if (s_.substr(p_, 2) == "::") {
      p_ += 2;
      domain = std::move(op);
      op = word("an op name after '::'");
    }
    if (op.find('.') != std::string::npos)
      throw error_at(
          op_pos, fmt::format("'{}' is not an op name (a domain needs '::', e.g. com.microsoft::Gelu)", op));
    expect('(', fmt::format("after the op name {}", op));
    // operand := VALUE | '_'
    std::vector<Value*> inputs;
    if (!eat(')')) {
      for (;;) {
        size_t pos = (skip(), p_);
        if (eat('_'))
          inputs.push_back(nullptr);
        else
          inputs.push_back(lookup(value_name(), pos));
        if (eat(',')) continue;
        expect(')', "after the node's operands");
        break;
      }
    }
    std::vector<RawAttr> attrs;
    if (peek() == '{') attrs = attr_dict();
    size_t present = 0;
    for (const Result& r : results) present += r.present;
    std::vector<Type> types(present);
    if (eat(':')) {
      size_t tpos = p_;
      if (present == 0) throw error_at(tpos, "result types given for a node without results");
      size_t after = p_;
      for (size_t i = 0; i < present; ++i) {
        if (i && !eat(',')) {
          throw error_at(
              after, fmt::format("{} result{} need{} {} type{}, {} given", present, present == 1 ? "" : "s",
                                 present == 1 ? "s" : "", present, present == 1 ? "" : "s", i));
        }
        types[i] = type();
        after = p_;
      }
    }
    std::string module_path;
    if (eat('@')) module_path = string_lit("a module path");
    SourceRange loc;
    if (eat_keyword("loc")) loc = location();

    Node* n = g.create(std::move(domain), std::move(op), inputs, 0);
    size_t t = 0;
    for (const Result& r : results) {
      if (!r.present) {
        n->add_absent_output();
        continue;
      }
      define(r.name, n->add_output(types[t++]), r.pos);
    }
    for (RawAttr& a : attrs) n->set_attr(std::move(a.name), std::move(a.value));
    n->set_module_path(std::move(module_path));
    n->set_loc(std::move(loc));
  }

  // loc := 'loc' '(' STRING ':' LINE ':' COL ('-' LINE ':' COL)? ')'
  SourceRange location() {
    expect('(', "after 'loc'");
    SourceRange r;
    r.file = source_file(string_lit("a file name"));
    auto pos_pair = [&](SourceLoc* l) {
      l->line = static_cast<uint32_t>(bounded(integer("a line number"), UINT32_MAX));
      expect(':', "between line and column");
      l->col = static_cast<uint32_t>(bounded(integer("a column"), UINT32_MAX));
    };
    expect(':', "after the file name");
    pos_pair(&r.begin);
    if (eat('-')) pos_pair(&r.end);
    expect(')', "to close loc(...)");
    return r;
  }

  int64_t bounded(int64_t v, int64_t hi) {
    if (v < 0 || v > hi) throw error_at(p_, fmt::format("{} is out of range", v));
    return v;
  }

  std::shared_ptr<const SourceFile> source_file(const std::string& path) {
    auto it = sources_.find(path);
    if (it != sources_.end()) return it->second;
    std::shared_ptr<const SourceFile> f;
    struct stat st {};
    // Only regular files of sane size: a loc naming /dev/zero must not hang the parser.
    if (opts_.load_sources && ::stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode) &&
        st.st_size < (64 << 20)) {
      try {
        f = SourceFile::load(path);
      } catch (const Diagnostic&) {
      }
    }
    if (!f) f = std::make_shared<SourceFile>(path, "");
    sources_.emplace(path, f);
    return f;
  }

  // attrs := '{' (NAME '=' attr (',' NAME '=' attr)*)? '}'
  std::vector<RawAttr> attr_dict() {
    expect('{', "to open the attributes");
    std::vector<RawAttr> out;
    if (eat('}')) return out;
    for (;;) {
      size_t pos = (skip(), p_);
      std::string name = peek() == '"' ? string_lit("an attribute name") : word("an attribute name");
      for (const RawAttr& a : out)
        if (a.name == name) throw error_at(pos, fmt::format("attribute '{}' given twice", name));
      expect('=', fmt::format("after the attribute name '{}'", name));
      out.push_back({std::move(name), attr_value()});
      if (eat(',')) continue;
      expect('}', "after the attributes");
      return out;
    }
  }

  // attr := INT | FLOAT | STRING | tensor | graph | KIND? '[' (attr (',' attr)*)? ']'
  Attribute attr_value() {
    size_t pos = (skip(), p_);
    char c = peek();
    if (c == '"') return Attribute(string_lit("a string"));
    std::string_view w = peek_word();
    if (w == "graph") return Attribute(parse_graph());
    if (w == "dense" || w == "ref") return Attribute(tensor());
    if (c == '[' || (attr_kind_from_name(w) && s_.substr(p_ + w.size(), 1) == "[")) {
      std::optional<AttrKind> kind;
      if (c != '[') {
        kind = attr_kind_from_name(w);
        p_ += w.size();
      }
      return list(kind, pos);
    }
    if (c == '-' || c == '+' || std::isdigit(static_cast<unsigned char>(c)) || w == "nan" || w == "inf") {
      bool is_float;
      std::string_view tok = number(&is_float);
      if (is_float) return Attribute(std::strtof(std::string(tok).c_str(), nullptr));
      return Attribute(to_int(tok, pos));
    }
    throw error_at(pos, "expected an attribute value");
  }

  Attribute list(std::optional<AttrKind> kind, size_t pos) {
    expect('[', "to open a list");
    std::vector<Attribute> items;
    std::vector<size_t> positions;
    if (!eat(']')) {
      for (;;) {
        positions.push_back((skip(), p_));
        items.push_back(attr_value());
        if (eat(',')) continue;
        expect(']', "to close the list");
        break;
      }
    }
    if (!kind) {
      if (items.empty())
        throw error_at(pos,
                       "an empty list needs its kind: ints[], floats[], strings[], tensors[] or graphs[]");
      bool any_float = false;
      for (const Attribute& a : items) any_float |= a.kind() == AttrKind::Float;
      switch (items[0].kind()) {
        case AttrKind::Int:
        case AttrKind::Float:
          kind = any_float ? AttrKind::Floats : AttrKind::Ints;
          break;
        case AttrKind::String:
          kind = AttrKind::Strings;
          break;
        case AttrKind::Tensor:
          kind = AttrKind::Tensors;
          break;
        case AttrKind::Graph:
          kind = AttrKind::Graphs;
          break;
        default:
          throw error_at(pos, "lists of lists are not attributes");
      }
    }
    auto bad = [&](size_t i) {
      return error_at(positions[i], fmt::format("a list of {} cannot hold this element", to_string(*kind)));
    };
    switch (*kind) {
      case AttrKind::Ints: {
        std::vector<int64_t> v;
        for (size_t i = 0; i < items.size(); ++i) {
          if (items[i].kind() != AttrKind::Int) throw bad(i);
          v.push_back(items[i].i());
        }
        return Attribute(std::move(v));
      }
      case AttrKind::Floats: {
        std::vector<float> v;
        for (size_t i = 0; i < items.size(); ++i) {
          if (items[i].kind() == AttrKind::Int)
            v.push_back(static_cast<float>(items[i].i()));
          else if (items[i].kind() == AttrKind::Float)
            v.push_back(items[i].f());
          else
            throw bad(i);
        }
        return Attribute(std::move(v));
      }
      case AttrKind::Strings: {
        std::vector<std::string> v;
        for (size_t i = 0; i < items.size(); ++i) {
          if (items[i].kind() != AttrKind::String) throw bad(i);
          v.push_back(items[i].s());
        }
        return Attribute(std::move(v));
      }
      case AttrKind::Tensors: {
        std::vector<Tensor> v;
        for (size_t i = 0; i < items.size(); ++i) {
          if (items[i].kind() != AttrKind::Tensor) throw bad(i);
          v.push_back(items[i].t());
        }
        return Attribute(std::move(v));
      }
      case AttrKind::Graphs: {
        Attribute::GraphList v;
        for (size_t i = 0; i < items.size(); ++i) {
          if (items[i].kind() != AttrKind::Graph) throw bad(i);
          v.push_back(items[i].release_graph());
        }
        return Attribute(std::move(v));
      }
      default:
        throw error_at(pos, fmt::format("'{}' is not a list kind", to_string(*kind)));
    }
  }

  // tensor := 'dense' '<' type '>' ('[' scalar (',' scalar)* ']' | 'hex' STRING)
  //         | 'ref' '<' type '>' '(' STRING '@' INT '+' INT ')'
  Tensor tensor() {
    size_t pos = (skip(), p_);
    bool is_ref = eat_keyword("ref");
    if (!is_ref && !eat_keyword("dense")) throw error_at(pos, "expected a constant (dense<...> or ref<...>)");
    expect('<', "after dense/ref");
    size_t tpos = (skip(), p_);
    Type t = type();
    expect('>', "after the constant's type");
    if (!t.is_static())
      throw error_at(tpos, fmt::format("a constant needs a static tensor type, not {}", t.str()));
    std::vector<int64_t> shape;
    for (DimExpr d : t.dims()) {
      if (d.value() < 0) throw error_at(tpos, "negative dimension in a constant");
      shape.push_back(d.value());
    }
    ElementType dt = t.elem();
    int64_t numel = 1;
    for (int64_t d : shape)
      if (__builtin_mul_overflow(numel, d, &numel) || numel > (int64_t{1} << 40))
        throw error_at(tpos, "constant is too large");
    if (is_ref) return ref_tensor(dt, std::move(shape), numel, tpos);
    if (eat_keyword("hex")) {
      size_t hpos = (skip(), p_);
      std::string hex = string_lit("hex digits");
      if (dt == ElementType::String) throw error_at(hpos, "string constants cannot be hex");
      if (hex.size() % 2) throw error_at(hpos, "odd number of hex digits");
      std::vector<uint8_t> bytes(hex.size() / 2);
      auto nibble = [&](char h) -> uint8_t {
        if (h >= '0' && h <= '9') return static_cast<uint8_t>(h - '0');
        if (h >= 'a' && h <= 'f') return static_cast<uint8_t>(h - 'a' + 10);
        if (h >= 'A' && h <= 'F') return static_cast<uint8_t>(h - 'A' + 10);
        throw error_at(hpos, fmt::format("'{}' is not a hex digit", h));
      };
      for (size_t i = 0; i < bytes.size(); ++i)
        bytes[i] = static_cast<uint8_t>(nibble(hex[2 * i]) * 16 + nibble(hex[2 * i + 1]));
      if (bytes.size() != storage_bytes(dt, numel))
        throw error_at(hpos, fmt::format("{} needs {} bytes, hex gives {}", t.str(), storage_bytes(dt, numel),
                                         bytes.size()));
      return Tensor(dt, std::move(shape), Bytes::from_vector(std::move(bytes)));
    }
    return dense_values(dt, std::move(shape), numel, t);
  }

  Tensor ref_tensor(ElementType dt, std::vector<int64_t> shape, int64_t numel, size_t tpos) {
    if (dt == ElementType::String) throw error_at(tpos, "string constants cannot be ref");
    expect('(', "after ref<...>");
    size_t fpos = (skip(), p_);
    std::string path = string_lit("a file name");
    expect('@', "between the file name and the offset");
    size_t opos = (skip(), p_);
    int64_t offset = integer("a byte offset");
    expect('+', "between the offset and the length");
    int64_t length = integer("a byte length");
    expect(')', "to close ref(...)");
    if (offset < 0 || length < 0) throw error_at(opos, "negative offset or length");
    if (static_cast<size_t>(length) != storage_bytes(dt, numel))
      throw error_at(opos, fmt::format("{} elements of {} need {} bytes, not {}", numel, to_string(dt),
                                       storage_bytes(dt, numel), length));
    auto it = files_.find(path);
    if (it == files_.end()) {
      try {
        it = files_.emplace(path, MappedFile::open(path)).first;
      } catch (const Diagnostic& d) {
        throw error_at(fpos, fmt::format("cannot map '{}': {}", path, d.message()));
      }
    }
    const auto& f = it->second;
    if (static_cast<uint64_t>(offset) > f->size() ||
        static_cast<uint64_t>(length) > f->size() - static_cast<uint64_t>(offset))
      throw error_at(opos, fmt::format("bytes {}..{} are outside '{}' ({} bytes)", offset, offset + length,
                                       path, f->size()));
    return Tensor(dt, std::move(shape),
                  f->bytes().slice(static_cast<size_t>(offset), static_cast<size_t>(length)));
  }

  Tensor dense_values(ElementType dt, std::vector<int64_t> shape, int64_t numel, const Type& t) {
    auto cat = info(dt).category;
    if (cat == ElementCategory::Float8 || dt == ElementType::Undefined || info(dt).bits % 8 != 0)
      throw error_at(p_, fmt::format("{} constants are written as hex\"...\"", to_string(dt)));
    int64_t count = cat == ElementCategory::Complex ? numel * 2 : numel;
    // Every element takes at least one character: a literal cannot hold more than the text left.
    if (static_cast<uint64_t>(count) > s_.size() - std::min(p_, s_.size()))
      throw error_at(
          p_, fmt::format("{} needs {} elements, more than the rest of the file holds", t.str(), count));
    expect('[', "to open the constant's elements");
    std::vector<uint8_t> bytes;
    std::vector<std::string> strings;
    bytes.reserve(storage_bytes(dt, numel));
    int64_t n = 0;
    auto put = [&bytes](const auto& v) {
      const auto* b = reinterpret_cast<const uint8_t*>(&v);
      bytes.insert(bytes.end(), b, b + sizeof v);
    };
    if (peek() != ']') {
      for (;;) {
        size_t pos = (skip(), p_);
        if (n >= count)
          throw error_at(pos, fmt::format("too many elements for {} ({} expected)", t.str(), count));
        if (dt == ElementType::String) {
          strings.push_back(string_lit("a string element"));
        } else if (dt == ElementType::Bool) {
          if (eat_keyword("true"))
            put(uint8_t{1});
          else if (eat_keyword("false"))
            put(uint8_t{0});
          else
            throw error_at(pos, "expected true or false");
        } else {
          bool is_float;
          std::string_view tok = number(&is_float);
          if (cat == ElementCategory::Float || cat == ElementCategory::Complex) {
            double d = to_double(tok);
            switch (dt) {
              case ElementType::Float64:
              case ElementType::Complex128:
                put(d);
                break;
              case ElementType::Float16:
                put(float_to_half(static_cast<float>(d)));
                break;
              case ElementType::BFloat16:
                put(float_to_bfloat16(static_cast<float>(d)));
                break;
              default:
                put(static_cast<float>(d));
                break;
            }
          } else {
            if (is_float) throw error_at(pos, fmt::format("{} elements are integers", to_string(dt)));
            put_int(dt, tok, pos, put);
          }
        }
        ++n;
        if (eat(',')) continue;
        break;
      }
    }
    expect(']', "to close the constant's elements");
    if (n != count) throw error_at(p_ - 1, fmt::format("{} needs {} elements, got {}", t.str(), count, n));
    if (dt == ElementType::String) return Tensor::strings(std::move(shape), std::move(strings));
    return Tensor(dt, std::move(shape), Bytes::from_vector(std::move(bytes)));
  }

  template <class Put>
  void put_int(ElementType dt, std::string_view tok, size_t pos, Put put) {
    if (dt == ElementType::UInt64) {
      std::string s(tok);
      errno = 0;
      char* end;
      unsigned long long v = std::strtoull(s.c_str(), &end, 10);
      if (errno == ERANGE || *end || s[0] == '-') throw error_at(pos, fmt::format("{} is not a uint64", tok));
      put(static_cast<uint64_t>(v));
      return;
    }
    int64_t v = to_int(tok, pos);
    auto check = [&](int64_t lo, int64_t hi) {
      if (v < lo || v > hi) throw error_at(pos, fmt::format("{} does not fit in {}", v, to_string(dt)));
    };
    switch (dt) {
      case ElementType::Int8:
        check(INT8_MIN, INT8_MAX);
        put(static_cast<int8_t>(v));
        break;
      case ElementType::Int16:
        check(INT16_MIN, INT16_MAX);
        put(static_cast<int16_t>(v));
        break;
      case ElementType::Int32:
        check(INT32_MIN, INT32_MAX);
        put(static_cast<int32_t>(v));
        break;
      case ElementType::Int64:
        put(v);
        break;
      case ElementType::UInt8:
        check(0, UINT8_MAX);
        put(static_cast<uint8_t>(v));
        break;
      case ElementType::UInt16:
        check(0, UINT16_MAX);
        put(static_cast<uint16_t>(v));
        break;
      case ElementType::UInt32:
        check(0, UINT32_MAX);
        put(static_cast<uint32_t>(v));
        break;
      default:
        throw error_at(pos, fmt::format("{} constants are written as hex\"...\"", to_string(dt)));
    }
  }

  struct Def {
    Value* value;
    size_t pos;
  };
  static constexpr int kMaxDepth = 64;

  std::shared_ptr<const SourceFile> file_;
  std::string_view s_;
  size_t p_ = 0;
  ParseOptions opts_;
  std::vector<size_t> line_starts_;
  std::unordered_map<std::string, Def> defs_;
  std::map<std::string, std::shared_ptr<const SourceFile>> sources_;
  std::map<std::string, std::shared_ptr<MappedFile>> files_;
  Scope* scope_ = nullptr;
  int depth_ = 0;
};

}  // namespace

std::unique_ptr<Graph> parse(std::shared_ptr<const SourceFile> file, const ParseOptions& options) {
  IrParser p(std::move(file), options);
  return p.parse_file();
}

std::unique_ptr<Graph> parse(std::string_view text, const std::string& path, const ParseOptions& options) {
  return parse(std::make_shared<SourceFile>(path, std::string(text)), options);
}

}  // namespace onnxify::ir
