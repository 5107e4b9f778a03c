// DimExpr construction and canonical simplification (see dim.h for the rules).
//
// Every node is interned in one process-wide table (guarded by a mutex; nodes are immortal, which
// keeps a DimExpr a plain pointer with no reference counting). Sums are kept as a sorted list of
// (term, coefficient) pairs plus a constant; all arithmetic goes through that "polynomial" form.
#include "ir/dim.h"

#include <algorithm>
#include <mutex>
#include <numeric>
#include <unordered_set>

#include "ir/dim_node.h"

namespace onnxify::ir {

int64_t floor_div(int64_t a, int64_t b) {
  int64_t q = a / b;
  if ((a % b != 0) && ((a < 0) != (b < 0))) --q;
  return q;
}

int64_t floor_mod(int64_t a, int64_t b) {
  int64_t r = a % b;
  if (r != 0 && ((r < 0) != (b < 0))) r += b;
  return r;
}

namespace {

struct NodeHash {
  size_t operator()(const DimNode* n) const { return n->hash; }
};
struct NodeEq {
  bool operator()(const DimNode* a, const DimNode* b) const {
    return a->op == b->op && a->value == b->value && a->name == b->name && a->args == b->args &&
           a->coeffs == b->coeffs;
  }
};

size_t mix(size_t h, size_t v) { return h ^ (v + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2)); }

const DimNode* intern(DimOp op, int64_t value, std::string name, std::vector<const DimNode*> args,
                      std::vector<int64_t> coeffs) {
  DimNode probe{op, value, std::move(name), std::move(args), std::move(coeffs), 0};
  size_t h = mix(static_cast<size_t>(op), std::hash<int64_t>()(value));
  h = mix(h, std::hash<std::string>()(probe.name));
  for (const DimNode* a : probe.args) h = mix(h, a->hash);
  for (int64_t c : probe.coeffs) h = mix(h, std::hash<int64_t>()(c));
  probe.hash = h;
  static std::mutex mu;
  // Deliberately never freed: DimExprs are plain pointers into this table.
  static auto* table = new std::unordered_set<const DimNode*, NodeHash, NodeEq>();
  std::lock_guard<std::mutex> lock(mu);
  auto it = table->find(&probe);
  if (it != table->end()) return *it;
  const DimNode* n = new DimNode(std::move(probe));
  table->insert(n);
  return n;
}

const DimNode* const_node(int64_t v) {
  static const DimNode* zero = intern(DimOp::Const, 0, "", {}, {});
  static const DimNode* one = intern(DimOp::Const, 1, "", {}, {});
  if (v == 0) return zero;
  if (v == 1) return one;
  return intern(DimOp::Const, v, "", {}, {});
}

const DimNode* unknown_node() {
  static const DimNode* u = intern(DimOp::Unknown, 0, "", {}, {});
  return u;
}

int rank(DimOp op) { return static_cast<int>(op); }

int cmp_nodes(const DimNode* a, const DimNode* b) {
  if (a == b) return 0;
  if (a->op != b->op) return rank(a->op) < rank(b->op) ? -1 : 1;
  switch (a->op) {
    case DimOp::Const:
      return a->value < b->value ? -1 : 1;
    case DimOp::Symbol:
      return a->name < b->name ? -1 : (a->name > b->name ? 1 : 0);
    case DimOp::Unknown:
      return 0;
    default:
      break;
  }
  size_t n = std::min(a->args.size(), b->args.size());
  for (size_t i = 0; i < n; ++i) {
    if (int c = cmp_nodes(a->args[i], b->args[i])) return c;
    if (a->op == DimOp::Sum && a->coeffs[i] != b->coeffs[i]) return a->coeffs[i] < b->coeffs[i] ? -1 : 1;
  }
  if (a->args.size() != b->args.size()) return a->args.size() < b->args.size() ? -1 : 1;
  if (a->value != b->value) return a->value < b->value ? -1 : 1;
  return 0;
}

bool less_node(const DimNode* a, const DimNode* b) { return cmp_nodes(a, b) < 0; }

// Checked arithmetic: overflow turns the whole result into unknown.
bool add_ok(int64_t a, int64_t b, int64_t* r) { return !__builtin_add_overflow(a, b, r); }
bool mul_ok(int64_t a, int64_t b, int64_t* r) { return !__builtin_mul_overflow(a, b, r); }

}  // namespace

// The polynomial view of an expression: constant + sum(coeff * term), terms sorted and distinct.
struct DimAlgebra {
  struct Poly {
    int64_t c = 0;
    std::vector<std::pair<const DimNode*, int64_t>> terms;
    bool unknown = false;
  };

  static DimExpr wrap(const DimNode* n) { return DimExpr(n); }

  static Poly to_poly(const DimNode* n) {
    Poly p;
    switch (n->op) {
      case DimOp::Const:
        p.c = n->value;
        break;
      case DimOp::Unknown:
        p.unknown = true;
        break;
      case DimOp::Sum:
        p.c = n->value;
        for (size_t i = 0; i < n->args.size(); ++i) p.terms.emplace_back(n->args[i], n->coeffs[i]);
        break;
      default:
        p.terms.emplace_back(n, 1);
        break;
    }
    return p;
  }

  // Sorts and merges terms, dropping zero coefficients.
  static void normalize(Poly& p) {
    std::sort(p.terms.begin(), p.terms.end(),
              [](const auto& x, const auto& y) { return less_node(x.first, y.first); });
    std::vector<std::pair<const DimNode*, int64_t>> out;
    for (auto& t : p.terms) {
      if (!out.empty() && out.back().first == t.first) {
        if (!add_ok(out.back().second, t.second, &out.back().second)) p.unknown = true;
      } else {
        out.push_back(t);
      }
    }
    out.erase(std::remove_if(out.begin(), out.end(), [](const auto& t) { return t.second == 0; }), out.end());
    p.terms = std::move(out);
  }

  static const DimNode* from_poly(Poly p) {
    normalize(p);
    if (p.unknown) return unknown_node();
    if (p.terms.empty()) return const_node(p.c);
    if (p.terms.size() == 1 && p.terms[0].second == 1 && p.c == 0) return p.terms[0].first;
    std::vector<const DimNode*> args;
    std::vector<int64_t> coeffs;
    for (auto& [t, k] : p.terms) {
      args.push_back(t);
      coeffs.push_back(k);
    }
    return intern(DimOp::Sum, p.c, "", std::move(args), std::move(coeffs));
  }

  static Poly add(const Poly& a, const Poly& b, int64_t b_scale = 1) {
    Poly r = a;
    r.unknown = a.unknown || b.unknown;
    int64_t bc;
    if (!mul_ok(b.c, b_scale, &bc) || !add_ok(r.c, bc, &r.c)) r.unknown = true;
    for (auto& [t, k] : b.terms) {
      int64_t kk;
      if (!mul_ok(k, b_scale, &kk)) r.unknown = true;
      r.terms.emplace_back(t, kk);
    }
    normalize(r);
    return r;
  }

  static std::vector<const DimNode*> factors(const DimNode* n) {
    if (n->op == DimOp::Product) return n->args;
    return {n};
  }

  static const DimNode* product_of(std::vector<const DimNode*> fs) {
    std::sort(fs.begin(), fs.end(), less_node);
    if (fs.size() == 1) return fs[0];
    return intern(DimOp::Product, 0, "", std::move(fs), {});
  }

  static const DimNode* mul_terms(const DimNode* a, const DimNode* b) {
    std::vector<const DimNode*> fs = factors(a);
    std::vector<const DimNode*> fb = factors(b);
    fs.insert(fs.end(), fb.begin(), fb.end());
    return product_of(std::move(fs));
  }

  static Poly mul(const Poly& a, const Poly& b) {
    Poly r;
    r.unknown = a.unknown || b.unknown;
    if (r.unknown) return r;
    if (!mul_ok(a.c, b.c, &r.c)) r.unknown = true;
    auto push = [&](const DimNode* t, int64_t x, int64_t y) {
      int64_t k;
      if (!mul_ok(x, y, &k)) r.unknown = true;
      r.terms.emplace_back(t, k);
    };
    for (auto& [t, k] : a.terms) push(t, k, b.c);
    for (auto& [t, k] : b.terms) push(t, k, a.c);
    for (auto& [ta, ka] : a.terms)
      for (auto& [tb, kb] : b.terms) push(mul_terms(ta, tb), ka, kb);
    normalize(r);
    return r;
  }

  // If `term` contains every factor of `divisor` (as multisets), the remaining factors.
  static std::optional<std::vector<const DimNode*>> divide_factors(const DimNode* term,
                                                                   const DimNode* divisor) {
    std::vector<const DimNode*> rest = factors(term);
    for (const DimNode* f : factors(divisor)) {
      auto it = std::find(rest.begin(), rest.end(), f);
      if (it == rest.end()) return std::nullopt;
      rest.erase(it);
    }
    return rest;
  }

  // Splits a = Q*b + R where b is a monomial (coefficient kb times term tb); Q is empty when no term
  // of `a` is divisible.
  static bool split_by_monomial(const Poly& a, const DimNode* tb, int64_t kb, Poly* q, Poly* r) {
    bool any = false;
    r->c = a.c;
    for (auto& [t, k] : a.terms) {
      auto rest = divide_factors(t, tb);
      if (rest && k % kb == 0) {
        q->terms.emplace_back(rest->empty() ? nullptr : product_of(*rest), k / kb);
        any = true;
      } else {
        r->terms.emplace_back(t, k);
      }
    }
    // A quotient term with no factors left is a constant.
    auto it = std::remove_if(q->terms.begin(), q->terms.end(), [&](const auto& t) {
      if (t.first) return false;
      q->c += t.second;
      return true;
    });
    q->terms.erase(it, q->terms.end());
    normalize(*q);
    normalize(*r);
    return any;
  }

  static bool as_monomial(const DimNode* b, const DimNode** term, int64_t* coeff) {
    Poly p = to_poly(b);
    if (p.unknown || p.c != 0 || p.terms.size() != 1) return false;
    *term = p.terms[0].first;
    *coeff = p.terms[0].second;
    return true;
  }

  static const DimNode* atom(DimOp op, std::vector<const DimNode*> args) {
    return intern(op, 0, "", std::move(args), {});
  }

  static const DimNode* floor_div(const DimNode* a, const DimNode* b) {
    if (a->op == DimOp::Unknown || b->op == DimOp::Unknown) return unknown_node();
    if (b->op == DimOp::Const) {
      int64_t k = b->value;
      if (k == 0) return unknown_node();
      if (k < 0) {
        if (k == INT64_MIN) return unknown_node();
        return floor_div(neg(a), const_node(-k));
      }
      if (k == 1) return a;
      Poly p = to_poly(a);
      Poly q, r;
      for (auto& [t, coef] : p.terms) {
        int64_t qt = coef / k;  // truncation keeps the remainder's sign: floor((H - k)/2) stays put
        q.terms.emplace_back(t, qt);
        r.terms.emplace_back(t, coef - qt * k);
      }
      q.c = ir::floor_div(p.c, k);
      r.c = ir::floor_mod(p.c, k);
      normalize(q);
      normalize(r);
      if (r.terms.empty()) return from_poly(q);  // 0 <= r.c < k, so floor(r.c / k) == 0
      int64_t g = k;
      g = std::gcd(g, r.c);
      for (auto& [t, coef] : r.terms) g = std::gcd(g, coef);
      if (g > 1) {
        k /= g;
        r.c /= g;
        for (auto& t : r.terms) t.second /= g;
      }
      const DimNode* rest;
      // floor((floor(x / k2) + c) / k) == floor((x + c*k2) / (k2*k)) for positive constants.
      if (r.terms.size() == 1 && r.terms[0].second == 1 && r.terms[0].first->op == DimOp::FloorDiv &&
          r.terms[0].first->args[1]->op == DimOp::Const && r.terms[0].first->args[1]->value > 0) {
        const DimNode* inner = r.terms[0].first;
        int64_t k2 = inner->args[1]->value, ck2, kk;
        if (!mul_ok(r.c, k2, &ck2) || !mul_ok(k2, k, &kk)) return unknown_node();
        Poly x = add(to_poly(inner->args[0]), Poly{ck2, {}, false});
        rest = floor_div(from_poly(x), const_node(kk));
      } else {
        rest = atom(DimOp::FloorDiv, {from_poly(r), const_node(k)});
      }
      return from_poly(add(q, to_poly(rest)));
    }
    return divide_symbolic(DimOp::FloorDiv, a, b);
  }

  // floor/ceil division by a non-constant: exact where a term divides, an atom for the rest.
  static const DimNode* divide_symbolic(DimOp op, const DimNode* a, const DimNode* b) {
    if (a == b) return const_node(1);
    if (a->op == DimOp::Const && a->value == 0) return a;
    const DimNode* tb;
    int64_t kb;
    if (as_monomial(b, &tb, &kb)) {
      Poly q, r;
      if (split_by_monomial(to_poly(a), tb, kb, &q, &r)) {
        const DimNode* rest = from_poly(r);
        if (rest->op == DimOp::Const && rest->value == 0) return from_poly(q);
        return from_poly(add(q, to_poly(atom(op, {rest, b}))));
      }
    }
    return atom(op, {a, b});
  }

  static const DimNode* ceil_div(const DimNode* a, const DimNode* b) {
    if (a->op == DimOp::Unknown || b->op == DimOp::Unknown) return unknown_node();
    if (b->op == DimOp::Const) {
      int64_t k = b->value;
      if (k == 0 || k == INT64_MIN) return unknown_node();
      if (k < 0) return ceil_div(neg(a), const_node(-k));
      Poly p = add(to_poly(a), Poly{k - 1, {}, false});
      return floor_div(from_poly(p), b);
    }
    return divide_symbolic(DimOp::CeilDiv, a, b);
  }

  static const DimNode* mod(const DimNode* a, const DimNode* b) {
    if (a->op == DimOp::Unknown || b->op == DimOp::Unknown) return unknown_node();
    if (b->op == DimOp::Const) {
      int64_t k = b->value;
      if (k == 0 || k == INT64_MIN) return unknown_node();
      if (k < 0) return neg(mod(neg(a), const_node(-k)));  // Python: a % k == -((-a) % -k)
      if (k == 1) return const_node(0);
      Poly p = to_poly(a);
      p.c = ir::floor_mod(p.c, k);
      for (auto& t : p.terms) t.second = ir::floor_mod(t.second, k);
      normalize(p);
      if (p.terms.empty()) return const_node(p.c);
      int64_t g = std::gcd(k, p.c);
      for (auto& t : p.terms) g = std::gcd(g, t.second);
      if (g > 1) {  // mod(g*x, g*m) == g * mod(x, m)
        p.c /= g;
        for (auto& t : p.terms) t.second /= g;
        Poly r = to_poly(atom(DimOp::Mod, {from_poly(p), const_node(k / g)}));
        for (auto& t : r.terms) t.second = g;
        return from_poly(r);
      }
      return atom(DimOp::Mod, {from_poly(p), b});
    }
    if (a == b || (a->op == DimOp::Const && a->value == 0)) return const_node(0);
    const DimNode* tb;
    int64_t kb;
    if (as_monomial(b, &tb, &kb)) {
      Poly q, r;
      split_by_monomial(to_poly(a), tb, kb, &q, &r);
      const DimNode* rest = from_poly(r);
      if (rest->op == DimOp::Const && rest->value == 0) return rest;
      return atom(DimOp::Mod, {rest, b});
    }
    return atom(DimOp::Mod, {a, b});
  }

  static const DimNode* neg(const DimNode* a) {
    Poly z;
    return from_poly(add(z, to_poly(a), -1));
  }

  // min (is_min) or max of the arguments.
  static const DimNode* min_max(bool is_min, std::vector<const DimNode*> in) {
    DimOp op = is_min ? DimOp::Min : DimOp::Max;
    std::vector<const DimNode*> args;
    for (const DimNode* a : in) {
      if (a->op == DimOp::Unknown) return unknown_node();
      if (a->op == op)
        args.insert(args.end(), a->args.begin(), a->args.end());
      else
        args.push_back(a);
    }
    // Drop any argument dominated by another through a constant difference (this also folds
    // constants and removes duplicates).
    std::vector<bool> dead(args.size(), false);
    for (size_t i = 0; i < args.size(); ++i) {
      if (dead[i]) continue;
      for (size_t j = 0; j < args.size(); ++j) {
        if (i == j || dead[j]) continue;
        Poly d = add(to_poly(args[i]), to_poly(args[j]), -1);  // args[i] - args[j]
        if (d.unknown || !d.terms.empty()) continue;
        // args[i] - args[j] == d.c: drop the one that loses (ties drop the later one).
        bool i_wins = is_min ? d.c < 0 : d.c > 0;
        if (d.c == 0) i_wins = i < j;
        if (i_wins) {
          dead[j] = true;
        } else {
          dead[i] = true;
          break;
        }
      }
    }
    std::vector<const DimNode*> live;
    for (size_t i = 0; i < args.size(); ++i)
      if (!dead[i]) live.push_back(args[i]);
    if (live.size() == 1) return live[0];
    std::sort(live.begin(), live.end(), less_node);
    return atom(op, std::move(live));
  }
};

using A = DimAlgebra;

DimExpr::DimExpr() : node_(const_node(0)) {}
DimExpr::DimExpr(int64_t value) : node_(const_node(value)) {}
DimExpr DimExpr::symbol(std::string_view name) {
  return DimExpr(intern(DimOp::Symbol, 0, std::string(name), {}, {}));
}
DimExpr DimExpr::unknown() { return DimExpr(unknown_node()); }

DimOp DimExpr::op() const { return node_->op; }
int64_t DimExpr::value() const { return node_->value; }
std::string_view DimExpr::name() const { return node_->name; }
size_t DimExpr::hash() const { return node_->hash; }
int DimExpr::compare(DimExpr a, DimExpr b) { return cmp_nodes(a.node_, b.node_); }

size_t DimExpr::num_operands() const { return node_->args.size(); }
DimExpr DimExpr::operand(size_t i) const { return DimExpr(node_->args[i]); }
int64_t DimExpr::term_coefficient(size_t i) const { return node_->coeffs[i]; }
int64_t DimExpr::sum_constant() const { return node_->op == DimOp::Sum ? node_->value : 0; }

DimExpr operator+(DimExpr a, DimExpr b) {
  return A::wrap(A::from_poly(A::add(A::to_poly(a.node_), A::to_poly(b.node_))));
}
DimExpr operator-(DimExpr a, DimExpr b) {
  return A::wrap(A::from_poly(A::add(A::to_poly(a.node_), A::to_poly(b.node_), -1)));
}
DimExpr operator-(DimExpr a) { return A::wrap(A::neg(a.node_)); }
DimExpr operator*(DimExpr a, DimExpr b) {
  return A::wrap(A::from_poly(A::mul(A::to_poly(a.node_), A::to_poly(b.node_))));
}
DimExpr floor_div(DimExpr a, DimExpr b) { return A::wrap(A::floor_div(a.node(), b.node())); }
DimExpr ceil_div(DimExpr a, DimExpr b) { return A::wrap(A::ceil_div(a.node(), b.node())); }
DimExpr mod(DimExpr a, DimExpr b) { return A::wrap(A::mod(a.node(), b.node())); }
DimExpr min(DimExpr a, DimExpr b) { return A::wrap(A::min_max(true, {a.node(), b.node()})); }
DimExpr max(DimExpr a, DimExpr b) { return A::wrap(A::min_max(false, {a.node(), b.node()})); }

namespace {

std::optional<int64_t> eval_node(const DimNode* n, const DimBinding& b) {
  switch (n->op) {
    case DimOp::Const:
      return n->value;
    case DimOp::Unknown:
      return std::nullopt;
    case DimOp::Symbol: {
      auto it = b.find(n->name);
      if (it == b.end()) return std::nullopt;
      return it->second;
    }
    case DimOp::Sum: {
      int64_t acc = n->value;
      for (size_t i = 0; i < n->args.size(); ++i) {
        auto v = eval_node(n->args[i], b);
        int64_t t;
        if (!v || !mul_ok(*v, n->coeffs[i], &t) || !add_ok(acc, t, &acc)) return std::nullopt;
      }
      return acc;
    }
    case DimOp::Product: {
      int64_t acc = 1;
      for (const DimNode* f : n->args) {
        auto v = eval_node(f, b);
        if (!v || !mul_ok(acc, *v, &acc)) return std::nullopt;
      }
      return acc;
    }
    case DimOp::FloorDiv:
    case DimOp::CeilDiv:
    case DimOp::Mod: {
      auto x = eval_node(n->args[0], b), y = eval_node(n->args[1], b);
      if (!x || !y || *y == 0 || (*x == INT64_MIN && *y == -1)) return std::nullopt;
      if (n->op == DimOp::FloorDiv) return floor_div(*x, *y);
      if (n->op == DimOp::Mod) return floor_mod(*x, *y);
      if (*x == INT64_MIN) return std::nullopt;
      return -floor_div(-*x, *y);  // ceil(x / y)
    }
    case DimOp::Min:
    case DimOp::Max: {
      std::optional<int64_t> acc;
      for (const DimNode* f : n->args) {
        auto v = eval_node(f, b);
        if (!v) return std::nullopt;
        if (!acc || (n->op == DimOp::Min ? *v < *acc : *v > *acc)) acc = v;
      }
      return acc;
    }
  }
  return std::nullopt;
}

}  // namespace

std::optional<int64_t> DimExpr::eval(const DimBinding& binding) const { return eval_node(node_, binding); }

DimExpr DimExpr::substitute(const std::function<std::optional<DimExpr>(std::string_view)>& f) const {
  const DimNode* n = node_;
  switch (n->op) {
    case DimOp::Const:
    case DimOp::Unknown:
      return *this;
    case DimOp::Symbol: {
      auto r = f(n->name);
      return r ? *r : *this;
    }
    case DimOp::Sum: {
      DimExpr acc(n->value);
      for (size_t i = 0; i < n->args.size(); ++i)
        acc = acc + DimExpr(n->args[i]).substitute(f) * DimExpr(n->coeffs[i]);
      return acc;
    }
    case DimOp::Product: {
      DimExpr acc(1);
      for (const DimNode* x : n->args) acc = acc * DimExpr(x).substitute(f);
      return acc;
    }
    case DimOp::FloorDiv:
      return floor_div(operand(0).substitute(f), operand(1).substitute(f));
    case DimOp::CeilDiv:
      return ceil_div(operand(0).substitute(f), operand(1).substitute(f));
    case DimOp::Mod:
      return mod(operand(0).substitute(f), operand(1).substitute(f));
    case DimOp::Min:
    case DimOp::Max: {
      std::vector<const DimNode*> args;
      for (const DimNode* x : n->args) args.push_back(DimExpr(x).substitute(f).node_);
      return DimExpr(A::min_max(n->op == DimOp::Min, std::move(args)));
    }
  }
  return *this;
}

std::vector<std::string> DimExpr::symbols() const {
  std::vector<std::string> out;
  std::function<void(const DimNode*)> walk = [&](const DimNode* n) {
    if (n->op == DimOp::Symbol) {
      if (std::find(out.begin(), out.end(), n->name) == out.end()) out.push_back(n->name);
      return;
    }
    for (const DimNode* a : n->args) walk(a);
  };
  walk(node_);
  return out;
}

}  // namespace onnxify::ir
