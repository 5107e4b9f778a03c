// Schema parsing and argument binding (the grammar is in schema.h).
#include "torch/schema.h"

#include <fmt/core.h>

#include <cctype>
#include <stdexcept>

#include "torch/core.h"

namespace onnxify::torch {

using eval::Interp;
using eval::Value;
using ir::DimExpr;

// ---- parsing ----------------------------------------------------------------------------------------

namespace {

struct Lexer {
  const std::string& s;
  size_t pos = 0;
  [[noreturn]] void fail(const std::string& what) const {
    throw std::invalid_argument(fmt::format("bad schema '{}' at column {}: {}", s, pos + 1, what));
  }
  void ws() {
    while (pos < s.size() && s[pos] == ' ') ++pos;
  }
  bool eat(char c) {
    ws();
    if (pos < s.size() && s[pos] == c) {
      ++pos;
      return true;
    }
    return false;
  }
  void expect(char c) {
    if (!eat(c)) fail(fmt::format("expected '{}'", c));
  }
  bool eat_word(std::string_view w) {
    ws();
    if (s.compare(pos, w.size(), w) == 0) {
      size_t e = pos + w.size();
      if (e >= s.size() || !(std::isalnum(static_cast<unsigned char>(s[e])) || s[e] == '_')) {
        pos = e;
        return true;
      }
    }
    return false;
  }
  std::string ident() {
    ws();
    size_t b = pos;
    while (pos < s.size() && (std::isalnum(static_cast<unsigned char>(s[pos])) || s[pos] == '_')) ++pos;
    if (b == pos) fail("expected a name");
    return s.substr(b, pos - b);
  }
};

const struct {
  const char* name;
  BaseType t;
} kBaseTypes[] = {
    {"Tensor", BaseType::Tensor},         {"int", BaseType::Int},          {"SymInt", BaseType::SymInt},
    {"float", BaseType::Float},           {"bool", BaseType::Bool},        {"str", BaseType::Str},
    {"Scalar", BaseType::Scalar},         {"ScalarType", BaseType::ScalarType}, {"Device", BaseType::Device},
    {"Layout", BaseType::Layout},         {"MemoryFormat", BaseType::MemoryFormat},
    {"Generator", BaseType::Generator},   {"Any", BaseType::Any},
};

// type := BASE ('(' alias ')')? ('[' INT? ']')? '?'?
void parse_type(Lexer& L, Param& p) {
  L.ws();
  size_t begin = L.pos;
  std::string base = L.ident();
  bool found = false;
  for (const auto& b : kBaseTypes)
    if (base == b.name) p.base = b.t, found = true;
  if (!found) L.fail(fmt::format("unknown type '{}'", base));
  if (L.eat('(')) {  // alias annotation, e.g. Tensor(a!): informational only
    while (L.pos < L.s.size() && L.s[L.pos] != ')') ++L.pos;
    L.expect(')');
  }
  if (L.eat('?')) p.optional = true;  // Tensor?[] : optional elements; treated as a list of Tensor?
  if (L.eat('[')) {
    p.is_list = true;
    L.ws();
    if (L.pos < L.s.size() && std::isdigit(static_cast<unsigned char>(L.s[L.pos]))) {
      p.list_size = std::stoi(L.s.substr(L.pos));
      while (L.pos < L.s.size() && std::isdigit(static_cast<unsigned char>(L.s[L.pos]))) ++L.pos;
    }
    L.expect(']');
    if (L.eat('?')) p.optional = true;
  }
  p.type_text = L.s.substr(begin, L.pos - begin);
  while (!p.type_text.empty() && p.type_text.back() == ' ') p.type_text.pop_back();  // eat() skipped spaces
}

// default := None | True | False | INT | FLOAT | STRING | '[' INT,... ']' | NAME
Default parse_default(Lexer& L) {
  Default d;
  L.ws();
  if (L.eat_word("None")) return d;
  if (L.eat_word("True") || L.eat_word("False")) {
    d.kind = Default::Kind::Bool;
    d.i = L.s.compare(L.pos - 4, 4, "True") == 0;
    return d;
  }
  if (L.eat('[')) {
    d.kind = Default::Kind::Ints;
    if (L.eat(']')) return d;
    do {
      L.ws();
      size_t used = 0;
      d.ints.push_back(std::stoll(L.s.substr(L.pos), &used));
      L.pos += used;
    } while (L.eat(','));
    L.expect(']');
    return d;
  }
  L.ws();
  if (L.pos < L.s.size() && (L.s[L.pos] == '"' || L.s[L.pos] == '\'')) {
    char q = L.s[L.pos++];
    size_t b = L.pos;
    while (L.pos < L.s.size() && L.s[L.pos] != q) ++L.pos;
    d.kind = Default::Kind::Str;
    d.s = L.s.substr(b, L.pos - b);
    L.expect(q);
    return d;
  }
  L.ws();
  size_t b = L.pos;
  if (L.pos < L.s.size() && (std::isdigit(static_cast<unsigned char>(L.s[L.pos])) || L.s[L.pos] == '-')) {
    std::string rest = L.s.substr(b);
    size_t used = 0;
    bool is_float = false;
    for (size_t k = 0; k < rest.size() && rest[k] != ',' && rest[k] != ')'; ++k)
      if (rest[k] == '.' || rest[k] == 'e') is_float = true;
    if (is_float) {
      d.kind = Default::Kind::Float;
      d.f = std::stod(rest, &used);
    } else {
      d.kind = Default::Kind::Int;
      d.i = std::stoll(rest, &used);
    }
    L.pos += used;
    return d;
  }
  // A named constant (contiguous_format, Mean, ...): kept as a string.
  d.kind = Default::Kind::Str;
  d.s = L.ident();
  return d;
}

}  // namespace

Schema parse_schema(const std::string& text) {
  Schema s;
  s.text = text;
  Lexer L{text};
  s.name = L.ident();
  if (L.eat('.')) s.overload = L.ident();
  L.expect('(');
  bool kwonly = false;
  if (!L.eat(')')) {
    do {
      if (L.eat('*')) {
        kwonly = true;
        continue;
      }
      Param p;
      parse_type(L, p);
      p.name = L.ident();
      p.kwonly = kwonly;
      if (L.eat('=')) {
        p.has_default = true;
        p.dflt = parse_default(L);
      }
      for (const Param& q : s.params)
        if (q.name == p.name) L.fail(fmt::format("duplicate parameter '{}'", p.name));
      s.params.push_back(std::move(p));
    } while (L.eat(','));
    L.expect(')');
  }
  L.ws();
  if (text.compare(L.pos, 2, "->") != 0) L.fail("expected '->'");
  L.pos += 2;
  auto one_return = [&] {
    Param r;
    parse_type(L, r);
    L.ws();
    if (L.pos < text.size() && (std::isalpha(static_cast<unsigned char>(text[L.pos])) || text[L.pos] == '_')) L.ident();
    s.returns.push_back(r.type_text);
  };
  if (L.eat('(')) {
    if (!L.eat(')')) {
      do one_return();
      while (L.eat(','));
      L.expect(')');
    }
  } else {
    one_return();
  }
  L.ws();
  if (L.pos != text.size()) L.fail("unexpected text after the return type");
  return s;
}

std::string Schema::signature() const {
  std::string out = name + "(";
  bool star = false;
  for (size_t i = 0; i < params.size(); ++i) {
    const Param& p = params[i];
    if (i) out += ", ";
    if (p.kwonly && !star) {
      out += "*, ";
      star = true;
    }
    out += p.type_text + " " + p.name;
    if (p.has_default) {
      out += "=";
      switch (p.dflt.kind) {
        case Default::Kind::None: out += "None"; break;
        case Default::Kind::Bool: out += p.dflt.i ? "True" : "False"; break;
        case Default::Kind::Int: out += std::to_string(p.dflt.i); break;
        case Default::Kind::Float: out += fmt::format("{}", p.dflt.f); break;
        case Default::Kind::Str: out += "\"" + p.dflt.s + "\""; break;
        case Default::Kind::Ints: {
          out += "[";
          for (size_t k = 0; k < p.dflt.ints.size(); ++k) out += (k ? ", " : "") + std::to_string(p.dflt.ints[k]);
          out += "]";
        }
      }
    }
  }
  return out + ")";
}

// ---- converters -----------------------------------------------------------------------------------------

bool is_int_like(Interp& I, const Value& v) {
  int64_t i;
  return eval::int_value(v, &i) || is_symint(v);
}

// A one-element integer tensor, which PyTorch takes where an int or a size is expected.
static bool is_size_tensor(const Value& v) {
  if (!is_tensor(v)) return false;
  TensorObj* t = as_tensor(v);
  return is_integral(t->dtype, false) && (t->rank() == 0 || (t->rank() == 1 && t->shape[0] == DimExpr(1)));
}

// An int, a SymInt or a one-element integer tensor whose value is known at conversion time; with
// `run_time`, also such a tensor computed at run time (a size merged from the branches of an If,
// t.sum()): a size read from its value when the model runs, as PyTorch reads the tensor's value.
static bool dim_of(Interp& I, const Value& v, DimExpr* out, bool run_time) {
  int64_t i;
  if (eval::int_value(v, &i)) {
    if (out) *out = DimExpr(i);
    return true;
  }
  if (is_symint(v)) {
    if (out) *out = eval::as<SymIntObj>(v)->expr;
    return true;
  }
  if (!is_tensor(v) && v.is_obj() && I.type_of(v)->slots.index) {
    // An object with __index__ (numpy's np.int64 from np.sum(channels)), as PyTorch's parser takes it.
    int64_t k = eval::index(I, v);
    if (out) *out = DimExpr(k);
    return true;
  }
  if (!is_size_tensor(v)) return false;
  TensorObj* t = as_tensor(v);
  if (auto known = known_values(torch_state(), t)) {
    if (out) *out = DimExpr(known->int_at(0));
    return true;
  }
  if (!run_time || t->random || t->uninitialized) return false;
  if (out) *out = size_from_tensor(torch_state(), t);
  return true;
}

bool to_dim(Interp& I, const Value& v, DimExpr* out) { return dim_of(I, v, out, false); }
// Where an op takes an int or a size (the binder, slice bounds): run-time values too.
bool to_run_time_dim(Interp& I, const Value& v, DimExpr* out) { return dim_of(I, v, out, true); }

std::optional<DType> to_dtype(Interp& I, const Value& v) {
  Torch* T = torch_state_opt();
  if (T && v.is_obj() && v.obj()->type == T->dtype_type) return eval::as<DTypeObj>(v)->dtype;
  if (v.is(Value::borrow(I.t.float_))) return T ? T->default_dtype : DType::Float32;
  if (v.is(Value::borrow(I.t.int_))) return DType::Int64;
  if (v.is(Value::borrow(I.t.bool_))) return DType::Bool;
  return std::nullopt;
}

// ---- binding ----------------------------------------------------------------------------------------------

namespace {

bool is_seq(const Value& v) { return eval::is_tuple(v) || eval::is_list(v); }
const std::vector<Value>& seq_items(const Value& v) {
  return eval::is_tuple(v) ? eval::as_tuple(v)->items : eval::as_list(v)->items;
}

bool is_number(Interp& I, const Value& v) {
  double d;
  return is_int_like(I, v) || eval::float_value(v, &d);
}

// A zero-dim tensor that can stand for a Scalar here: its value known at conversion time, or an
// integer only known at run time (a run-time size). A run-time float has no Scalar form, so the
// overloads that take it as a tensor are tried instead (clamp(x, 0, t) is clamp.Tensor).
bool scalar_tensor(const Value& v) {
  if (!is_tensor(v)) return false;
  TensorObj* t = as_tensor(v);
  if (t->rank() != 0 || is_complex(t->dtype) || t->random || t->uninitialized) return false;
  return is_integral(t->dtype, false) || known_values(torch_state(), t) != nullptr;
}

// Whether `v` can be passed for parameter p (types only; values are checked when read).
bool accepts(Interp& I, const Param& p, const Value& v) {
  if (v.is_none()) return p.optional || p.base == BaseType::Any || (p.has_default && p.dflt.kind == Default::Kind::None);
  if (p.is_list) {
    switch (p.base) {
      case BaseType::Int:
      case BaseType::SymInt:
        if (is_int_like(I, v)) return p.list_size > 0;  // int[2] x = 3
        if (is_size_tensor(v)) return to_run_time_dim(I, v, nullptr);
        if (!is_seq(v)) return false;
        for (const Value& e : seq_items(v))
          if (!to_run_time_dim(I, e, nullptr)) return false;
        return true;
      case BaseType::Tensor:
        if (!is_seq(v)) return false;
        for (const Value& e : seq_items(v))
          if (!is_tensor(e) && !(p.optional && e.is_none())) return false;
        return true;
      case BaseType::Float:
        if (is_number(I, v)) return p.list_size > 0;
        if (!is_seq(v)) return false;
        for (const Value& e : seq_items(v))
          if (!is_number(I, e)) return false;
        return true;
      case BaseType::Bool:
        if (v.is_bool()) return p.list_size > 0;
        return is_seq(v);
      default: return is_seq(v);
    }
  }
  switch (p.base) {
    case BaseType::Tensor: return is_tensor(v);
    case BaseType::Int:
    case BaseType::SymInt: return to_run_time_dim(I, v, nullptr);
    case BaseType::Float: return is_number(I, v);
    case BaseType::Bool:
      return v.is_bool() || (is_int_like(I, v) && !is_symint(v)) || (is_tensor(v) && as_tensor(v)->symbolic_bool);
    case BaseType::Str: return eval::is_str(v);
    case BaseType::Scalar:  // PyTorch's parser also takes a zero-dim tensor for a Scalar (not [1]).
      return is_number(I, v) || scalar_tensor(v);
    case BaseType::ScalarType: return to_dtype(I, v).has_value();
    case BaseType::Device: {
      Torch* T = torch_state_opt();
      return eval::is_str(v) || (T && v.is_obj() && v.obj()->type == T->device_type) || is_int_like(I, v);
    }
    default: return true;  // Layout, MemoryFormat, Generator, Any: accepted and ignored
  }
}

std::string python_type_name(Interp& I, const Value& v) {
  if (is_tensor(v)) return "Tensor";
  return std::string(eval::type_name(I, v));
}

}  // namespace

bool bind(Interp& I, const Schema& s, const Value& self, const eval::Args& a, Bound& out, std::string* why,
          bool tensors_as_tensors) {
  size_t n = s.params.size();
  size_t k = 0;  // next parameter to fill positionally
  auto fail = [&](std::string msg) {
    if (why) *why = std::move(msg);
    return false;
  };
  if (self) {
    if (n == 0) return fail("takes no arguments");
    out.vals[k++] = self;
  }
  for (uint32_t i = 0; i < a.npos; ++i) {
    if (k >= n || s.params[k].kwonly) {
      // PyTorch's python_arg_parser wording: "takes from MIN to MAX" when some have defaults.
      size_t npos = 0, nreq = 0;
      for (const Param& p : s.params) npos += !p.kwonly, nreq += !p.kwonly && !p.has_default;
      std::string takes = nreq == npos ? std::to_string(npos) : fmt::format("from {} to {}", nreq, npos);
      return fail(fmt::format("{}() takes {} positional argument{} but {} were given", s.name, takes,
                              npos == 1 ? "" : "s", a.npos + (self ? 1 : 0)));
    }
    const Param& p = s.params[k];
    auto size_item = [&](const Value& v) { return is_int_like(I, v) || is_size_tensor(v); };
    if (p.is_list && p.list_size == 0 && (p.base == BaseType::Int || p.base == BaseType::SymInt) &&
        size_item(a.pos[i])) {
      // PyTorch's varargs form of a size list: x.view(2, 3), torch.zeros(2, 3), torch.ones(n) with n
      // an integer tensor of one element.
      std::vector<Value> items;
      while (i < a.npos && size_item(a.pos[i])) items.push_back(a.pos[i++]);
      --i;
      out.vals[k++] = eval::new_tuple(I, std::move(items));
      continue;
    }
    out.vals[k++] = a.pos[i];
  }
  for (uint32_t i = 0; i < a.nkw; ++i) {
    std::string_view kw = a.kwnames[i]->view();
    size_t j = 0;
    while (j < n && s.params[j].name != kw) ++j;
    if (j == n && (kw == "axis" || kw == "keepdims" || kw == "input")) {
      // PyTorch's numpy-compatible spellings of `dim` and `keepdim`, and `input`, the Python name of
      // a function's `self` (python_arg_parser.cpp: F.avg_pool2d(input=x, ...), torch.relu(input=x))
      std::string_view alias = kw == "axis" ? "dim" : kw == "keepdims" ? "keepdim" : "self";
      j = 0;
      while (j < n && s.params[j].name != alias) ++j;
    }
    if (j == n) return fail(fmt::format("{}() got an unexpected keyword argument '{}'", s.name, kw));
    if (out.vals[j]) return fail(fmt::format("{}() got multiple values for argument '{}'", s.name, kw));
    out.vals[j] = a.kwvals[i];
  }
  for (size_t j = 0; j < n; ++j) {
    const Param& p = s.params[j];
    if (!out.vals[j]) {
      if (!p.has_default && !p.optional)
        return fail(fmt::format("{}() missing required argument '{}' (pos {})", s.name, p.name, j + 1));
      continue;
    }
    // PyTorch's parser takes None for a list whose default is empty (`F.avg_pool2d(x, 2, stride=None)`):
    // the default then.
    if (out.vals[j].is_none() && p.is_list && p.has_default && p.dflt.kind == Default::Kind::Ints &&
        p.dflt.ints.empty()) {
      out.vals[j] = Value();
      continue;
    }
    if (!accepts(I, p, out.vals[j]))
      return fail(fmt::format("{}(): argument '{}' (position {}) must be {}, not {}", s.name, p.name, j + 1, p.type_text,
                              python_type_name(I, out.vals[j])));
    if (tensors_as_tensors && is_tensor(out.vals[j]) && p.base != BaseType::Tensor && p.base != BaseType::Any)
      return fail("a tensor for a non-Tensor parameter");
  }
  return true;
}

// ---- reading bound arguments --------------------------------------------------------------------------

size_t Bound::index(std::string_view name) const {
  for (size_t i = 0; i < schema->params.size(); ++i)
    if (schema->params[i].name == name) return i;
  throw std::logic_error("no parameter " + std::string(name) + " in " + schema->text);
}

void Bound::error(size_t i, std::string_view what) const {
  eval::raisef(I, I.exc.TypeError, "{}(): argument '{}' {}", schema->name, schema->params[i].name, what);
}

Value Bound::get(size_t i) const {
  if (vals[i]) return vals[i];
  const Default& d = schema->params[i].dflt;
  switch (d.kind) {
    case Default::Kind::None: return Value::none();
    case Default::Kind::Bool: return Value::boolean(d.i != 0);
    case Default::Kind::Int: return Value::integer(d.i);
    case Default::Kind::Float: return Value::real(d.f);
    case Default::Kind::Str: return I.str(d.s);
    case Default::Kind::Ints: {
      std::vector<Value> v;
      for (int64_t x : d.ints) v.push_back(Value::integer(x));
      return eval::new_list(I, std::move(v));
    }
  }
  return Value::none();
}

bool Bound::is_none(size_t i) const { return get(i).is_none(); }

TensorObj* Bound::tensor(size_t i) const {
  TensorObj* t = opt_tensor(i);
  if (!t) error(i, "must be Tensor, not None");
  return t;
}

TensorObj* Bound::opt_tensor(size_t i) const {
  const Value& v = vals[i];
  if (!v || v.is_none()) return nullptr;
  return as_tensor(v);
}

std::vector<TensorObj*> Bound::tensors(size_t i) const {
  std::vector<TensorObj*> out;
  Value v = get(i);
  if (v.is_none()) return out;
  for (const Value& e : seq_items(v)) out.push_back(e.is_none() ? nullptr : as_tensor(e));
  return out;
}

DimExpr Bound::dim(size_t i) const {
  DimExpr d;
  if (!to_run_time_dim(I, get(i), &d)) error(i, "must be int");
  return d;
}

int64_t Bound::int_(size_t i) const {
  DimExpr d = dim(i);
  if (!d.is_const())
    need_concrete(torch_state(), fmt::format("the size '{}'", d.str()),
                  fmt::format("argument '{}' of {}()", schema->params[i].name, schema->name));
  return d.value();
}

std::optional<int64_t> Bound::opt_int(size_t i) const {
  if (get(i).is_none()) return std::nullopt;
  return int_(i);
}

std::vector<DimExpr> Bound::dims(size_t i) const {
  const Param& p = schema->params[i];
  Value v = get(i);
  std::vector<DimExpr> out;
  DimExpr d;
  if (to_run_time_dim(I, v, &d) && !is_seq(v)) {
    out.assign(p.list_size > 0 ? p.list_size : 1, d);
    return out;
  }
  for (const Value& e : seq_items(v)) {
    if (!to_run_time_dim(I, e, &d)) error(i, fmt::format("must be {}, but found element of type {}", p.type_text, python_type_name(I, e)));
    out.push_back(d);
  }
  // int[N]: one value is repeated N times; N > 1 also fixes the length (conv strides), while int[1]
  // (reduction dims) takes any number of values, as PyTorch's parser does.
  if (p.list_size > 0 && out.size() == 1) out.assign(p.list_size, out[0]);
  if (p.list_size > 1 && static_cast<int>(out.size()) != p.list_size)
    eval::raisef(I, I.exc.RuntimeError, "{}(): argument '{}' expected {} elements, got {}", schema->name, p.name,
                 p.list_size, out.size());
  return out;
}

std::vector<int64_t> Bound::ints(size_t i) const {
  std::vector<int64_t> out;
  for (DimExpr d : dims(i)) {
    if (!d.is_const())
      need_concrete(torch_state(), fmt::format("the size '{}'", d.str()),
                    fmt::format("argument '{}' of {}()", schema->params[i].name, schema->name));
    out.push_back(d.value());
  }
  return out;
}

std::optional<std::vector<int64_t>> Bound::opt_ints(size_t i) const {
  if (get(i).is_none()) return std::nullopt;
  return ints(i);
}

double Bound::real(size_t i) const {
  Value v = get(i);
  double d;
  if (eval::float_value(v, &d)) return d;
  int64_t k;
  if (eval::int_value(v, &k)) return static_cast<double>(k);
  if (is_symint(v)) return static_cast<double>(int_(i));
  error(i, fmt::format("must be float, not {}", python_type_name(I, v)));
}

std::optional<double> Bound::opt_real(size_t i) const {
  if (get(i).is_none()) return std::nullopt;
  return real(i);
}

std::vector<double> Bound::reals(size_t i) const {
  Value v = get(i);
  std::vector<double> out;
  auto one = [&](const Value& e) {
    double d;
    int64_t k;
    if (eval::float_value(e, &d)) return out.push_back(d);
    if (eval::int_value(e, &k)) return out.push_back(static_cast<double>(k));
    error(i, fmt::format("must be {}, but found element of type {}", schema->params[i].type_text, python_type_name(I, e)));
  };
  if (is_seq(v)) {
    for (const Value& e : seq_items(v)) one(e);
  } else {
    one(v);
  }
  return out;
}

bool Bound::boolean(size_t i) const {
  Value v = get(i);
  int64_t k;
  if (eval::int_value(v, &k)) return k != 0;
  error(i, fmt::format("must be bool, not {}", python_type_name(I, v)));
}

std::optional<bool> Bound::opt_bool(size_t i) const {
  if (get(i).is_none()) return std::nullopt;
  return boolean(i);
}

void symbolic_scalar_error(const ir::DimExpr& size) {
  need_concrete(torch_state(), fmt::format("the size '{}'", size.str()),
                "this argument of the operation (a number it takes as an attribute)");
}

Scalar Bound::scalar(size_t i) const {
  Value v = get(i);
  Scalar s;
  double d;
  if (v.is_bool()) {
    s.kind = Scalar::Kind::Bool;
    s.i = v.b();
  } else if (eval::int_value(v, &s.i)) {
    s.kind = Scalar::Kind::Int;
  } else if (eval::float_value(v, &d)) {
    s.kind = Scalar::Kind::Float;
    s.f = d;
  } else if (is_symint(v)) {
    s.kind = Scalar::Kind::SymInt;
    s.sym = eval::as<SymIntObj>(v)->expr;
  } else if (is_tensor(v) && as_tensor(v)->rank() == 0) {
    // A zero-dim tensor: its value as item() gives it; an integer one only known when the model
    // runs is a run-time size (as int(t)), a float or bool one has no conversion-time form here.
    TensorObj* t = as_tensor(v);
    if (auto known = known_values(torch_state(), t)) {
      if (t->dtype == DType::Bool) {
        s.kind = Scalar::Kind::Bool;
        s.i = known->int_at(0) != 0;
      } else if (is_floating(t->dtype)) {
        s.kind = Scalar::Kind::Float;
        s.f = known->float_at(0);
      } else {
        s.kind = Scalar::Kind::Int;
        s.i = known->int_at(0);
      }
    } else if (is_integral(t->dtype, false) && !t->random && !t->uninitialized) {
      s.kind = Scalar::Kind::SymInt;
      s.sym = size_from_tensor(torch_state(), t);
    } else {
      need_concrete(torch_state(), fmt::format("the value of this zero-dim {} tensor", info(t->dtype).name),
                    fmt::format("argument '{}' (a number)", schema->params[i].name));
    }
  } else {
    error(i, fmt::format("must be Number, not {}", python_type_name(I, v)));
  }
  return s;
}

std::optional<Scalar> Bound::opt_scalar(size_t i) const {
  if (get(i).is_none()) return std::nullopt;
  return scalar(i);
}

std::optional<DType> Bound::dtype(size_t i) const {
  Value v = get(i);
  if (v.is_none()) return std::nullopt;
  auto d = to_dtype(I, v);
  if (!d) error(i, fmt::format("must be torch.dtype, not {}", python_type_name(I, v)));
  return d;
}

std::string Bound::str(size_t i) const {
  Value v = get(i);
  if (!eval::is_str(v)) error(i, fmt::format("must be str, not {}", python_type_name(I, v)));
  return eval::as_str(v)->s;
}

std::optional<std::string> Bound::opt_str(size_t i) const {
  if (get(i).is_none()) return std::nullopt;
  return str(i);
}

}  // namespace onnxify::torch
