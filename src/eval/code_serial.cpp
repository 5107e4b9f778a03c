// The program form as bytes (code_serial.h). Each struct of code.h has one `io` function listing
// its fields; the writer and the reader both walk it, so a field cannot be written and not read.
// A field added to code.h must be added to its `io` here (tests/eval: every conformance program
// runs once compiled and once rebuilt from these bytes).
//
// Layout: the string table (count, then each name's bytes); the node tags (expression kind, or
// 0x80 | statement kind); the counts of codes, parameter descriptions and patterns; then the
// fields of every node, code, description and pattern in table order; the module's code index.
// Integers are LEB128 varints (signed ones zigzag-coded); a pointer is its index + 1 (0: null).
#include "eval/code_serial.h"

#include <cstring>
#include <type_traits>
#include <unordered_map>

#include "eval/compile.h"
#include "eval/internal.h"

namespace onnxify::eval {

Value new_complex(Interp& I, double re, double im);
Value new_bytes(Interp& I, std::string s);

namespace {

// ---- the node classes of each kind (code.h): one table for writing, reading and checking -------

#define ONNXIFY_EXPR_CLASSES(X)                                                                     \
  X(Const, ConstExpr) X(BigInt, BigIntExpr) X(Local, NameExpr) X(Cell, NameExpr) X(Global, NameExpr) \
  X(Name, NameExpr) X(ClassDeref, NameExpr) X(Attr, AttrExpr) X(Subscript, SubscriptExpr)              \
  X(Slice, SliceExpr) X(Call, CallExpr) X(BinOp, BinOpExpr) X(Unary, UnaryExpr) X(And, BoolOpExpr)     \
  X(Or, BoolOpExpr) X(Compare, CompareExpr) X(IfExp, IfExpExpr) X(Lambda, LambdaExpr)                  \
  X(Tuple, SeqExpr) X(List, SeqExpr) X(Set, SeqExpr) X(Dict, DictExpr) X(ListComp, CompExpr)           \
  X(SetComp, CompExpr) X(DictComp, CompExpr) X(GenExp, CompExpr) X(Yield, YieldExpr)                   \
  X(YieldFrom, YieldExpr) X(Await, YieldExpr) X(JoinedStr, JoinedStrExpr) X(Formatted, FormattedExpr)  \
  X(Starred, StarredExpr) X(NamedExpr, NamedExprExpr)

#define ONNXIFY_STMT_CLASSES(X)                                                                         \
  X(Expr, ExprStmt) X(Assign, AssignStmt) X(AugAssign, AugAssignStmt) X(AnnAssign, AnnAssignStmt)       \
  X(For, ForStmt) X(While, WhileStmt) X(If, IfStmt) X(With, WithStmt) X(Try, TryStmt) X(Raise, RaiseStmt) \
  X(Return, ReturnStmt) X(Break, Stmt) X(Continue, Stmt) X(Pass, Stmt) X(Delete, DeleteStmt)             \
  X(Import, ImportStmt) X(ImportFrom, ImportFromStmt) X(FunctionDef, FunctionDefStmt)                    \
  X(ClassDef, ClassDefStmt) X(Assert, AssertStmt) X(Match, MatchStmt) X(Unsupported, UnsupportedStmt)

constexpr uint8_t kStmtTag = 0x80;

// Constants (ConstExpr, Pattern singletons): the types lowering folds to.
enum class ConstTag : uint8_t { Null, None, False, True, Int, Float, Complex, Interned, Str, Bytes, Ellipsis, Tuple };

// ---- fields -------------------------------------------------------------------------------------------

template <class A> void io(A& a, ConstExpr& x) { a(x.value); }
template <class A> void io(A& a, BigIntExpr& x) { a(x.digits); }
template <class A> void io(A& a, NameExpr& x) { a(x.name), a(x.slot); }
template <class A> void io(A& a, AttrExpr& x) { a(x.obj), a(x.name); }
template <class A> void io(A& a, SubscriptExpr& x) { a(x.obj), a(x.index); }
template <class A> void io(A& a, SliceExpr& x) { a(x.lower), a(x.upper), a(x.step); }
template <class A> void io(A& a, Keyword& x) { a(x.name), a(x.value); }
template <class A> void io(A& a, CallExpr& x) { a(x.func), a(x.args), a(x.keywords), a(x.simple), a(x.kwnames); }
template <class A> void io(A& a, BinOpExpr& x) { a(x.left), a(x.right); }
template <class A> void io(A& a, UnaryExpr& x) { a(x.operand); }
template <class A> void io(A& a, BoolOpExpr& x) { a(x.values); }
template <class A> void io(A& a, CompareExpr& x) { a(x.left), a(x.ops), a(x.comparators); }
template <class A> void io(A& a, IfExpExpr& x) { a(x.test), a(x.body), a(x.orelse); }
template <class A> void io(A& a, FuncDef& x) {
  a(x.code), a(x.defaults), a(x.kw_defaults), a(x.annotations), a(x.string_annotations), a(x.doc);
}
template <class A> void io(A& a, LambdaExpr& x) { a(x.def); }
// const_set is computed again from the elements (constant_frozenset); only whether there is one.
template <class A> void io(A& a, SeqExpr& x) {
  a(x.elts), a(x.has_star);
  bool const_set = !x.const_set.is_null();
  a(const_set);
  if (const_set && x.const_set.is_null()) a.frozenset_later(x);
}
template <class A> void io(A& a, DictExpr& x) { a(x.keys), a(x.values); }
template <class A> void io(A& a, CompExpr& x) { a(x.code), a(x.first_iter); }
template <class A> void io(A& a, YieldExpr& x) { a(x.value); }
template <class A> void io(A& a, JoinedStrExpr& x) { a(x.values); }
template <class A> void io(A& a, FormattedExpr& x) { a(x.value), a(x.conversion), a(x.spec); }
template <class A> void io(A& a, StarredExpr& x) { a(x.value); }
template <class A> void io(A& a, NamedExprExpr& x) { a(x.target), a(x.value); }

// Block summaries are computed again (summarize_blocks).
template <class A> void io(A& a, Stmt&) { (void)a; }
template <class A> void io(A& a, ExprStmt& x) { a(x.value); }
template <class A> void io(A& a, AssignStmt& x) { a(x.targets), a(x.value); }
template <class A> void io(A& a, AugAssignStmt& x) { a(x.target), a(x.op), a(x.value); }
template <class A> void io(A& a, AnnAssignStmt& x) {
  a(x.target), a(x.annotation), a(x.annotation_text), a(x.store_annotation), a(x.name), a(x.value);
}
template <class A> void io(A& a, ForStmt& x) { a(x.target), a(x.iter), a(x.body), a(x.orelse); }
template <class A> void io(A& a, WhileStmt& x) { a(x.test), a(x.body), a(x.orelse); }
template <class A> void io(A& a, IfStmt& x) { a(x.test), a(x.body), a(x.orelse); }
template <class A> void io(A& a, WithItem& x) { a(x.context), a(x.vars); }
template <class A> void io(A& a, WithStmt& x) { a(x.items), a(x.body); }
template <class A> void io(A& a, Handler& x) { a.pos(x), a(x.type), a(x.target), a(x.body); }
template <class A> void io(A& a, TryStmt& x) { a(x.body), a(x.handlers), a(x.orelse), a(x.finalbody); }
template <class A> void io(A& a, RaiseStmt& x) { a(x.exc), a(x.cause); }
template <class A> void io(A& a, ReturnStmt& x) { a(x.value); }
template <class A> void io(A& a, DeleteStmt& x) { a(x.targets); }
template <class A> void io(A& a, ImportName& x) { a(x.dotted), a(x.asname), a(x.target), a.pos(x.where); }
template <class A> void io(A& a, ImportStmt& x) { a(x.names), a(x.guarded); }
template <class A> void io(A& a, ImportFromStmt& x) { a(x.module), a(x.level), a(x.names), a(x.star), a(x.guarded); }
template <class A> void io(A& a, FunctionDefStmt& x) { a(x.def), a(x.decorators), a(x.target); }
template <class A> void io(A& a, ClassDefStmt& x) {
  a(x.name), a(x.bases), a(x.keywords), a(x.body), a(x.decorators), a(x.target);
}
template <class A> void io(A& a, AssertStmt& x) { a(x.test), a(x.msg); }
template <class A> void io(A& a, Pattern& x) {
  a.pos(x), a(x.kind), a(x.value), a(x.constant), a(x.patterns), a(x.keys), a(x.rest), a(x.kwd_attrs),
      a(x.kwd_patterns), a(x.sub), a(x.target);
}
template <class A> void io(A& a, MatchCase& x) { a(x.pattern), a(x.guard), a(x.body); }
template <class A> void io(A& a, MatchStmt& x) { a(x.subject), a(x.cases); }
template <class A> void io(A& a, UnsupportedStmt& x) { a(x.what), a(x.target); }

template <class A> void io(A& a, CompGen& x) { a(x.target), a(x.iter), a(x.ifs); }
template <class A> void io(A& a, Code& x) {
  a(x.kind), a(x.name), a(x.qualname), a.pos(x.where), a(x.nslots), a(x.slot_names), a(x.cell_slots),
      a(x.free_slots), a(x.free_source_slots), a(x.argcount), a(x.posonlycount), a(x.kwonlycount), a(x.varargs),
      a(x.varkw), a(x.generator), a(x.is_async), a(x.class_cell_slot), a(x.classcell_slot), a(x.body),
      a(x.body_expr), a(x.comp_kind), a(x.gens), a(x.elt), a(x.value), a(x.loop_form), a(x.acc_slot),
      a(x.future_annotations);
}

// A node's own fields (after its position and, for expressions, its op byte).
template <class A> void io_node(A& a, Node& n, uint8_t tag) {
  if (tag & kStmtTag) {
    switch (static_cast<SK>(tag & ~kStmtTag)) {
#define X(k, C) \
  case SK::k: return io(a, static_cast<C&>(n));
      ONNXIFY_STMT_CLASSES(X)
#undef X
    }
  } else {
    switch (static_cast<EK>(tag)) {
#define X(k, C) \
  case EK::k: return io(a, static_cast<C&>(n));
      ONNXIFY_EXPR_CLASSES(X)
#undef X
    }
  }
}

uint8_t node_tag(const Node& n) {
  if (auto* e = dynamic_cast<const Expr*>(&n)) return static_cast<uint8_t>(e->kind);
  return kStmtTag | static_cast<uint8_t>(static_cast<const Stmt&>(n).kind);
}

template <class C, class K>
C* make_node(CodeUnit& u, K kind) {
  if constexpr (std::is_constructible_v<C, K>) return u.make<C>(kind);
  else return u.make<C>();
}

Node* new_node(CodeUnit& u, uint8_t tag) {
  if (tag & kStmtTag) {
    switch (static_cast<SK>(tag & ~kStmtTag)) {
#define X(k, C) \
  case SK::k: return make_node<C>(u, SK::k);
      ONNXIFY_STMT_CLASSES(X)
#undef X
    }
  } else {
    switch (static_cast<EK>(tag)) {
#define X(k, C) \
  case EK::k: return make_node<C>(u, EK::k);
      ONNXIFY_EXPR_CLASSES(X)
#undef X
    }
  }
  throw CodeBytesError("unknown node kind");
}

// What the writer and the reader walk alike: a pair field by field, a struct through its io().
template <class A>
struct Archive {
  template <class X, class Y>
  void operator()(std::pair<X, Y>& p) {
    self()(p.first), self()(p.second);
  }
  template <class T>
    requires std::is_class_v<T>
  void operator()(T& x) {
    io(self(), x);
  }
  A& self() { return static_cast<A&>(*this); }
};

// ---- writing ------------------------------------------------------------------------------------------

class Writer : public Archive<Writer> {
 public:
  using Archive<Writer>::operator();
  Writer(Interp& I, CodeUnit& u) : I(I), u(u) {
    for (size_t i = 0; i < u.nodes_owned.size(); ++i) node_index_[u.nodes_owned[i]] = i;
    for (size_t i = 0; i < u.codes.size(); ++i) code_index_[u.codes[i].get()] = i;
    for (size_t i = 0; i < u.funcdefs.size(); ++i) funcdef_index_[u.funcdefs[i].get()] = i;
    for (size_t i = 0; i < u.patterns.size(); ++i) pattern_index_[u.patterns[i].get()] = i;
  }

  std::string run() {
    for (auto& n : u.nodes_owned) {
      uint8_t tag = node_tag(*n);
      tags_.push_back(static_cast<char>(tag));
      pos(*n);
      if (!(tag & kStmtTag)) (*this)(static_cast<Expr&>(*n).op);
      io_node(*this, *n, tag);
    }
    for (auto& c : u.codes) io(*this, *c);
    for (auto& d : u.funcdefs) io(*this, *d);
    for (auto& p : u.patterns) io(*this, *p);
    (*this)(u.module);
    std::string fields = std::move(out_);
    out_.clear();
    // The head: strings, tags and table sizes, then the fields.
    uint(strings_.size());
    for (Str* s : strings_) bytes(s->s);
    uint(tags_.size());
    out_ += tags_;
    uint(u.codes.size());
    uint(u.funcdefs.size());
    uint(u.patterns.size());
    out_ += fields;
    return std::move(out_);
  }

  void pos(Node& n) { uint(n.line), uint(n.col), uint(n.end_line), uint(n.end_col); }
  void frozenset_later(SeqExpr&) {}

  void operator()(bool& b) { out_ += static_cast<char>(b); }
  void operator()(uint8_t& v) { out_ += static_cast<char>(v); }
  void operator()(uint32_t& v) { uint(v); }
  void operator()(int32_t& v) { sint(v); }  // int too
  template <class E>
    requires std::is_enum_v<E>
  void operator()(E& e) {
    out_ += static_cast<char>(static_cast<uint8_t>(e));
  }
  void operator()(std::string& s) { bytes(s); }
  void operator()(Str*& s) {
    if (!s) return uint(0);
    auto [it, added] = string_index_.try_emplace(s, strings_.size());
    if (added) strings_.push_back(s);
    uint(it->second + 1);
  }
  void operator()(Expr*& e) { ref(node_index_, e); }
  void operator()(Stmt*& s) { ref(node_index_, s); }
  void operator()(ForStmt*& s) { ref(node_index_, s); }
  void operator()(Code*& c) { ref(code_index_, c); }
  void operator()(FuncDef*& d) { ref(funcdef_index_, d); }
  void operator()(Pattern*& p) { ref(pattern_index_, p); }
  void operator()(Value& v) { value(v); }
  template <class T>
  void operator()(std::vector<T>& v) {
    uint(v.size());
    for (T& x : v) (*this)(x);
  }

 private:
  void uint(uint64_t v) {
    while (v >= 0x80) {
      out_ += static_cast<char>(v | 0x80);
      v >>= 7;
    }
    out_ += static_cast<char>(v);
  }
  void sint(int64_t v) { uint((static_cast<uint64_t>(v) << 1) ^ static_cast<uint64_t>(v >> 63)); }
  void bytes(std::string_view s) {
    uint(s.size());
    out_ += s;
  }
  void raw_double(double d) {
    char b[8];
    std::memcpy(b, &d, 8);
    out_.append(b, 8);
  }
  template <class M, class P>
  void ref(const M& index, P* p) {
    if (!p) return uint(0);
    auto it = index.find(p);
    if (it == index.end()) throw CodeBytesError("a pointer outside the unit's tables");
    uint(it->second + 1);
  }
  void tag(ConstTag t) { out_ += static_cast<char>(t); }

  void value(const Value& v) {
    if (v.is_null()) return tag(ConstTag::Null);
    if (v.is_none()) return tag(ConstTag::None);
    if (v.is_bool()) return tag(v.i() ? ConstTag::True : ConstTag::False);
    if (v.is_int()) return tag(ConstTag::Int), sint(v.i());
    if (v.is_float()) return tag(ConstTag::Float), raw_double(v.f());
    if (!v.is_obj()) throw CodeBytesError("a constant of an unknown kind");
    Type* t = v.obj()->type;
    if (v.obj() == I.ellipsis.obj()) return tag(ConstTag::Ellipsis);
    if (t == I.t.str) {
      Str* s = as_str(v);
      if (!s->interned) return tag(ConstTag::Str), bytes(s->s);
      tag(ConstTag::Interned);
      return (*this)(s);
    }
    if (t == I.t.bytes) return tag(ConstTag::Bytes), bytes(as<Bytes>(v)->s);
    if (t == I.t.complex) {
      auto* c = as<Complex>(v);
      return tag(ConstTag::Complex), raw_double(c->re), raw_double(c->im);
    }
    if (t == I.t.tuple) {
      tag(ConstTag::Tuple);
      uint(as_tuple(v)->items.size());
      for (const Value& x : as_tuple(v)->items) value(x);
      return;
    }
    throw CodeBytesError("a constant of type " + std::string(t->name_view()));
  }

  Interp& I;
  CodeUnit& u;
  std::string out_, tags_;
  std::vector<Str*> strings_;
  std::unordered_map<Str*, size_t> string_index_;
  std::unordered_map<const Node*, size_t> node_index_;
  std::unordered_map<const Code*, size_t> code_index_;
  std::unordered_map<const FuncDef*, size_t> funcdef_index_;
  std::unordered_map<const Pattern*, size_t> pattern_index_;
};

// ---- reading ------------------------------------------------------------------------------------------

class Reader : public Archive<Reader> {
 public:
  using Archive<Reader>::operator();
  Reader(Interp& I, std::string_view in, CodeUnit& u) : I(I), in_(in), u(u) {}

  void run() {
    strings_.resize(count());
    for (Str*& s : strings_) s = I.intern(bytes());
    std::string_view tags = tags_ = take(count());
    nodes_.reserve(tags.size());
    u.nodes_owned.reserve(tags.size());
    for (char t : tags) {
      Node* n = new_node(u, static_cast<uint8_t>(t));  // adds it to u.nodes_owned (and flow_stmts)
      nodes_.push_back(n);
    }
    for (size_t i = count(); i > 0; --i) u.make_code();
    for (size_t i = count(); i > 0; --i) u.funcdefs.push_back(std::make_unique<FuncDef>());
    for (size_t i = count(); i > 0; --i) u.patterns.push_back(std::make_unique<Pattern>());
    for (size_t i = 0; i < nodes_.size(); ++i) {
      uint8_t tag = static_cast<uint8_t>(tags[i]);
      pos(*nodes_[i]);
      if (!(tag & kStmtTag)) (*this)(static_cast<Expr&>(*nodes_[i]).op);
      io_node(*this, *nodes_[i], tag);
    }
    for (auto& c : u.codes) io(*this, *c);
    for (auto& d : u.funcdefs) io(*this, *d);
    for (auto& p : u.patterns) io(*this, *p);
    (*this)(u.module);
    if (!u.module) throw CodeBytesError("no module code");
    if (pos_ != in_.size()) throw CodeBytesError("bytes after the unit");
    for (SeqExpr* s : frozensets_) {
      for (Expr* e : s->elts)
        if (e->kind != EK::Const) throw CodeBytesError("a constant set of non-constants");
      s->const_set = constant_frozenset(I, s->elts);
    }
  }

  void pos(Node& n) { n.line = u32(), n.col = u32(), n.end_line = u32(), n.end_col = u32(); }
  void frozenset_later(SeqExpr& s) { frozensets_.push_back(&s); }

  void operator()(bool& b) { b = byte() != 0; }
  void operator()(uint8_t& v) { v = byte(); }
  void operator()(uint32_t& v) { v = u32(); }
  void operator()(int32_t& v) { v = static_cast<int32_t>(sint()); }
  template <class E>
    requires std::is_enum_v<E>
  void operator()(E& e) {
    e = static_cast<E>(byte());
  }
  void operator()(std::string& s) { s = std::string(bytes()); }
  void operator()(Str*& s) { s = pick(strings_); }
  void operator()(Expr*& e) { e = static_cast<Expr*>(node(false)); }
  void operator()(Stmt*& s) { s = static_cast<Stmt*>(node(true)); }
  void operator()(ForStmt*& s) {
    Stmt* n = nullptr;
    (*this)(n);
    if (n && n->kind != SK::For) throw CodeBytesError("a statement where a for loop belongs");
    s = static_cast<ForStmt*>(n);
  }
  void operator()(Code*& c) { c = pick(u.codes); }
  void operator()(FuncDef*& d) { d = pick(u.funcdefs); }
  void operator()(Pattern*& p) { p = pick(u.patterns); }
  void operator()(Value& v) { v = value(); }
  template <class T>
  void operator()(std::vector<T>& v) {
    v.resize(count());
    for (T& x : v) (*this)(x);
  }

 private:
  uint8_t byte() {
    if (pos_ >= in_.size()) throw CodeBytesError("truncated");
    return static_cast<uint8_t>(in_[pos_++]);
  }
  // Most varints are one or two bytes (kinds, flags, indices into a unit's tables): those inline,
  // the rest in uint_long.
  [[gnu::always_inline]] uint64_t uint() {
    if (pos_ + 2 <= in_.size()) {
      auto b = static_cast<uint8_t>(in_[pos_]);
      if (b < 0x80) {
        ++pos_;
        return b;
      }
      auto c = static_cast<uint8_t>(in_[pos_ + 1]);
      if (c < 0x80) {
        pos_ += 2;
        return (b & 0x7fu) | (static_cast<uint64_t>(c) << 7);
      }
    }
    return uint_long();
  }
  [[gnu::noinline]] uint64_t uint_long() {
    uint64_t v = 0;
    for (int shift = 0; shift < 64; shift += 7) {
      uint8_t b = byte();
      v |= static_cast<uint64_t>(b & 0x7f) << shift;
      if (!(b & 0x80)) return v;
    }
    throw CodeBytesError("a varint too long");
  }
  uint32_t u32() {
    uint64_t v = uint();
    if (v > UINT32_MAX) throw CodeBytesError("a number out of range");
    return static_cast<uint32_t>(v);
  }
  int64_t sint() {
    uint64_t z = uint();
    return static_cast<int64_t>(z >> 1) ^ -static_cast<int64_t>(z & 1);
  }
  // A count of items that take at least a byte each: never more than the bytes left.
  size_t count() {
    uint64_t n = uint();
    if (n > in_.size() - pos_) throw CodeBytesError("a count beyond the end");
    return static_cast<size_t>(n);
  }
  std::string_view take(size_t n) {
    std::string_view s = in_.substr(pos_, n);
    pos_ += n;
    return s;
  }
  std::string_view bytes() { return take(count()); }
  double raw_double() {
    std::string_view b = take(8);
    if (b.size() != 8) throw CodeBytesError("truncated");
    double d;
    std::memcpy(&d, b.data(), 8);
    return d;
  }
  size_t index(size_t size) {
    uint64_t i = uint();
    if (i > size) throw CodeBytesError("an index out of range");
    return static_cast<size_t>(i);
  }
  // A node reference: null, or a node of the class the field holds (by its tag).
  Node* node(bool stmt) {
    size_t i = index(nodes_.size());
    if (!i) return nullptr;
    if (((static_cast<uint8_t>(tags_[i - 1]) & kStmtTag) != 0) != stmt) throw CodeBytesError("a node of the wrong class");
    return nodes_[i - 1];
  }
  template <class T>
  T* pick(const std::vector<T*>& table) {
    size_t i = index(table.size());
    return i ? table[i - 1] : nullptr;
  }
  template <class T>
  T* pick(const std::vector<std::unique_ptr<T>>& table) {
    size_t i = index(table.size());
    return i ? table[i - 1].get() : nullptr;
  }

  Value value() {
    switch (static_cast<ConstTag>(byte())) {
      case ConstTag::Null: return Value();
      case ConstTag::None: return Value::none();
      case ConstTag::False: return Value::boolean(false);
      case ConstTag::True: return Value::boolean(true);
      case ConstTag::Int: return Value::integer(sint());
      case ConstTag::Float: return Value::real(raw_double());
      case ConstTag::Complex: {
        double re = raw_double();
        return new_complex(I, re, raw_double());
      }
      case ConstTag::Interned: {
        Str* s = pick(strings_);
        if (!s) throw CodeBytesError("a null string constant");
        return Value::borrow(s);
      }
      case ConstTag::Str: return I.str(bytes());
      case ConstTag::Bytes: return new_bytes(I, std::string(bytes()));
      case ConstTag::Ellipsis: return I.ellipsis;
      case ConstTag::Tuple: {
        std::vector<Value> items(count());
        for (Value& x : items) x = value();
        return new_tuple(I, std::move(items));
      }
    }
    throw CodeBytesError("an unknown constant kind");
  }

  Interp& I;
  std::string_view in_;
  size_t pos_ = 0;
  CodeUnit& u;
  std::vector<Str*> strings_;
  std::vector<Node*> nodes_;
  std::string_view tags_;
  std::vector<SeqExpr*> frozensets_;
};

}  // namespace

std::string serialize_code(Interp& I, CodeUnit& unit) { return Writer(I, unit).run(); }

std::unique_ptr<CodeUnit> deserialize_code(Interp& I, std::string_view bytes, std::shared_ptr<const SourceFile> file,
                                           const std::string& module_name) {
  auto unit = std::make_unique<CodeUnit>();
  unit->file = std::move(file);
  unit->module_name = module_name;
  Reader(I, bytes, *unit).run();
  summarize_blocks(*unit);
  return unit;
}

}  // namespace onnxify::eval
