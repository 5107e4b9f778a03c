// Linear algebra beyond matmul/mm/bmm/addmm (ops_nn.cpp): baddbmm, outer, einsum, triu/tril.
#include <fmt/core.h>

#include <map>

#include "torch/ops.h"

namespace onnxify::torch {

using eval::Value;
using ir::DimExpr;

namespace {

Operand op_t(TensorObj* t) {
  Operand o;
  o.t = t;
  return o;
}

Operand op_s(double v) {
  Operand o;
  o.s.kind = Scalar::Kind::Float;
  o.s.f = v;
  return o;
}

// beta * self + alpha * bmm(batch1, batch2); beta == 0 ignores self (its NaNs too), as PyTorch does.
Value baddbmm(OpCall& c) {
  TensorObj* self = c.t(0);
  TensorObj* b1 = c.t(1);
  TensorObj* b2 = c.t(2);
  if (b1->rank() != 3) c.runtime_error("batch1 must be a 3D tensor");
  if (b2->rank() != 3) c.runtime_error("batch2 must be a 3D tensor");
  Scalar beta = c.a.scalar(3), alpha = c.a.scalar(4);
  Value p = call_op(c.T, "bmm", {c.a.raw(1), c.a.raw(2)});
  DType dt = as_tensor(p)->dtype;
  if (alpha.as_double() != 1.0) p = binary_op(c.T, "Mul", op_t(as_tensor(p)), op_s(alpha.as_double()), dt);
  if (beta.as_double() == 0.0) return p;
  std::vector<DimExpr> b = broadcast_shapes(c.I, self->shape, as_tensor(p)->shape);
  if (b != as_tensor(p)->shape) c.runtime_error("baddbmm: self must broadcast to the shape of batch1 @ batch2");
  Value s = Value::borrow(self);
  if (beta.as_double() != 1.0) s = binary_op(c.T, "Mul", op_t(self), op_s(beta.as_double()), dt);
  return binary_op(c.T, "Add", op_t(as_tensor(p)), op_t(as_tensor(s)), dt);
}

Value outer(OpCall& c) {
  TensorObj* a = c.t(0);
  TensorObj* b = c.t(1);
  if (a->rank() != 1 || b->rank() != 1) c.runtime_error("outer: expected 1D tensors");
  Value col = c.node("Unsqueeze", {c.v(a), c.rec.const_i64({1})}, a->dtype, {a->shape[0], DimExpr(1)});
  return binary_op(c.T, "Mul", op_t(as_tensor(col)), op_t(b));
}

// einsum: the equation is checked and its output shape computed here (implicit outputs made
// explicit: the ellipsis, then the labels used once, in ASCII order), then one ONNX Einsum.
Value einsum(OpCall& c) {
  std::string eq;
  for (char ch : c.a.str(0))
    if (ch != ' ') eq += ch;
  std::vector<TensorObj*> ts = c.a.tensors(1);
  if (ts.empty()) c.runtime_error("einsum(): must provide at least one operand");
  size_t arrow = eq.find("->");
  std::string lhs = eq.substr(0, arrow);
  std::vector<std::string> terms;
  for (size_t s = 0;;) {
    size_t e = lhs.find(',', s);
    terms.push_back(lhs.substr(s, e == std::string::npos ? e : e - s));
    if (e == std::string::npos) break;
    s = e + 1;
  }
  if (terms.size() != ts.size())
    c.runtime_error(fmt::format("einsum(): {} operands were provided but the equation specifies {}", ts.size(),
                                terms.size()));
  std::map<char, DimExpr> size;
  std::map<char, int> count;
  std::vector<DimExpr> ell;  // the broadcast shape of the ellipsis dims
  bool any_ell = false;
  DType dt = ts[0]->dtype;
  for (size_t i = 0; i < ts.size(); ++i) {
    const std::string& t = terms[i];
    TensorObj* x = ts[i];
    if (x->dtype != dt) c.runtime_error("einsum(): operands must have the same dtype");
    size_t ep = t.find("...");
    std::string labels = ep == std::string::npos ? t : t.substr(0, ep) + t.substr(ep + 3);
    for (char ch : labels)
      if (!std::isalpha(static_cast<unsigned char>(ch)))
        c.runtime_error(fmt::format("einsum(): invalid subscript given at index {} in the equation string, subscripts "
                                    "must be in [a-zA-Z]",
                                    eq.find(ch)));
    if (ep == std::string::npos ? labels.size() != x->rank() : labels.size() > x->rank())
      c.runtime_error(fmt::format("einsum(): the number of subscripts in the equation ({}) does not match the number "
                                  "of dimensions ({}) for operand {}{}",
                                  labels.size(), x->rank(), i, ep == std::string::npos ? " and no ellipsis was given" : ""));
    size_t ne = x->rank() - labels.size();
    size_t head = ep == std::string::npos ? labels.size() : ep;
    if (ep != std::string::npos) {
      any_ell = true;
      std::vector<DimExpr> es(x->shape.begin() + head, x->shape.begin() + head + ne);
      ell = broadcast_shapes(c.I, ell, es);
    }
    for (size_t j = 0; j < labels.size(); ++j) {
      char ch = labels[j];
      DimExpr d = x->shape[j < head ? j : j + ne];
      auto it = size.find(ch);
      if (it == size.end()) {
        size[ch] = d;
      } else if (it->second != d) {
        if (it->second.is_const() && it->second.value() == 1) it->second = d;
        else if (!(d.is_const() && d.value() == 1) && it->second.is_const() && d.is_const())
          c.runtime_error(fmt::format("einsum(): operands do not broadcast with remapped shapes (original->remapped)"));
      }
      ++count[ch];
    }
  }
  std::string out;
  if (arrow != std::string::npos) {
    out = eq.substr(arrow + 2);
  } else {
    if (any_ell) out = "...";
    for (auto& [ch, n] : count)
      if (n == 1) out += ch;
  }
  std::vector<DimExpr> shape;
  size_t oep = out.find("...");
  for (size_t j = 0; j < out.size(); ++j) {
    if (j == oep) {
      shape.insert(shape.end(), ell.begin(), ell.end());
      j += 2;
      continue;
    }
    auto it = size.find(out[j]);
    if (it == size.end())
      c.runtime_error(fmt::format("einsum(): output subscript {} does not appear in the equation for any input operand",
                                  out[j]));
    shape.push_back(it->second);
  }
  // ONNX Runtime wants every ellipsis to cover as many dims: shorter ones get leading 1s.
  std::vector<ir::Value*> ins;
  for (size_t i = 0; i < ts.size(); ++i) {
    TensorObj* x = ts[i];
    ir::Value* v = c.v(x);
    size_t ep = terms[i].find("...");
    if (ep != std::string::npos) {
      size_t ne = x->rank() - (terms[i].size() - 3);
      if (ne < ell.size()) {
        std::vector<int64_t> axes;
        std::vector<DimExpr> s = x->shape;
        for (size_t k = 0; k < ell.size() - ne; ++k) {
          axes.push_back(int64_t(ep + k));
          s.insert(s.begin() + ep, DimExpr(1));
        }
        v = c.rec.emit("Unsqueeze", {v, c.rec.const_i64(axes)}, ir::Type::tensor(elem(x->dtype), s));
      }
    }
    ins.push_back(v);
  }
  return c.node("Einsum", ins, dt, shape, {{"equation", lhs + "->" + out}});
}

// triu/tril(input, diagonal): keeps the elements of the last two dims on and above (triu) or on and
// below (tril) the given diagonal, zeros elsewhere. ONNX Trilu (opset 14; a masked Where below).
Value trilu(OpCall& c, bool upper) {
  TensorObj* x = c.t(0);
  int64_t k = c.a.int_(1);
  if (x->rank() < 2)
    c.runtime_error(fmt::format("{}: input tensor must have at least 2 dimensions", upper ? "triu" : "tril"));
  return c.node("Trilu", {c.v(x), c.rec.const_i64_scalar(k)}, x->dtype, x->shape, {{"upper", int64_t{upper}}});
}

}  // namespace

const std::vector<OpDef>& linalg_ops() {
  static const std::vector<OpDef> ops = {
      {"baddbmm(Tensor self, Tensor batch1, Tensor batch2, *, Scalar beta=1, Scalar alpha=1) -> Tensor",
       kFn | kMethod | kInplace, baddbmm},
      {"outer(Tensor self, Tensor vec2) -> Tensor", kFn | kMethod, outer},
      {"ger(Tensor self, Tensor vec2) -> Tensor", kFn | kMethod, outer},
      {"triu(Tensor self, int diagonal=0) -> Tensor", kFn | kMethod | kInplace,
       [](OpCall& c) { return trilu(c, true); }},
      {"tril(Tensor self, int diagonal=0) -> Tensor", kFn | kMethod | kInplace,
       [](OpCall& c) { return trilu(c, false); }},
      {"einsum(str equation, Tensor[] tensors, *, int[]? path=None) -> Tensor", kFn, einsum},
  };
  return ops;
}

}  // namespace onnxify::torch
