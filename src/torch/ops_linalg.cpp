// Linear algebra beyond matmul/mm/bmm/addmm (ops_nn.cpp): baddbmm, outer, einsum, the triangular
// parts of matrices (triu, tril), determinants (ONNX Det) and inverse / solve (no ONNX op: Gauss-Jordan
// elimination with partial pivoting, unrolled over the matrix size, which must be static). The rest
// of torch.linalg is Python over these rows (prelude torch/linalg.py). The discrete Fourier transform
// (a linear map too) is ONNX DFT on real/imaginary pairs (_onnxify_dft; torch.fft: prelude torch/fft.py).
#include <fmt/core.h>

#include <algorithm>
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
  // PyTorch 2.x promotes the operands to one dtype (an int64 arange times a float table is float).
  DType dt = ts[0]->dtype;
  for (TensorObj* x : ts) dt = promote_types(dt, x->dtype);
  for (size_t i = 0; i < ts.size(); ++i) {
    const std::string& t = terms[i];
    TensorObj* x = ts[i];
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
    ir::Value* v = cast_to(c.T, c.v(x), x->dtype, dt, x->shape);
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
        v = c.rec.emit("Unsqueeze", {v, c.rec.const_i64(axes)}, ir::Type::tensor(elem(dt), s));
      }
    }
    ins.push_back(v);
  }
  return c.node("Einsum", ins, dt, shape, {{"equation", lhs + "->" + out}});
}

// torch.triu / torch.tril: ONNX Trilu over the last two dims (the opset converter writes it as a
// masked Where below opset 14). The diagonal may be a symbolic size. Neither ONNX Runtime nor
// TensorRT has Trilu kernels for 8- and 16-bit integers, so those are computed in int32 (exact).
Value trilu(OpCall& c, bool upper) {
  TensorObj* x = c.t(0);
  if (x->rank() < 2)
    c.runtime_error(fmt::format("{}: input tensor must have at least 2 dimensions", upper ? "triu" : "tril"));
  DimExpr k = c.a.dim(1);
  DType dt = x->dtype;
  bool narrow = dt == DType::UInt8 || dt == DType::Int8 || dt == DType::Int16;
  DType work = narrow ? DType::Int32 : dt;
  ir::Value* v = cast_to(c.T, c.v(x), dt, work, x->shape);
  ir::Value* r = c.rec.emit("Trilu", {v, c.rec.dim_scalar(k)}, ir::Type::tensor(elem(work), x->shape),
                            {{"upper", int64_t{upper ? 1 : 0}}});
  return c.out(cast_to(c.T, r, work, dt, x->shape), dt, x->shape);
}

// ---- det, inverse, solve ---------------------------------------------------------------------------------

Value v_int(int64_t i) { return Value::integer(i); }

void need_square(OpCall& c, TensorObj* a, const char* what) {
  if (a->rank() < 2) c.runtime_error(fmt::format("{}: The input tensor A must have at least 2 dimensions.", what));
  const DimExpr& m = a->shape[a->rank() - 2];
  const DimExpr& n = a->shape[a->rank() - 1];
  if (m.is_const() && n.is_const() && m.value() != n.value())
    c.runtime_error(fmt::format("{}: A must be batches of square matrices, but they are {} by {} matrices", what,
                                m.value(), n.value()));
  if (!is_floating(a->dtype))
    c.runtime_error(fmt::format("{}: Expected a floating point or complex tensor as input. Got {}", what,
                                info(a->dtype).name));
}

// det over the last two dims (ONNX Det; ONNX Runtime's kernel is float32 only: other floating dtypes
// are computed in float32).
Value det(OpCall& c) {
  TensorObj* a = c.t(0);
  need_square(c, a, "linalg.det");
  std::vector<DimExpr> shape(a->shape.begin(), a->shape.end() - 2);
  ir::Value* v = cast_to(c.T, c.v(a), a->dtype, DType::Float32, a->shape);
  ir::Value* d = c.rec.emit("Det", {v}, ir::Type::tensor(ir::ElementType::Float32, shape));
  return c.out(cast_to(c.T, d, DType::Float32, a->dtype, shape), a->dtype, shape);
}

// [A | B] reduced to [I | A^-1 B] by Gauss-Jordan elimination with partial pivoting (the row with the
// largest magnitude in the pivot column is swapped up first), one unrolled step per column. A
// singular A gives inf/nan where PyTorch raises.
Value gauss_jordan(OpCall& c, const Value& A, const Value& B, const char* what) {
  Torch& T = c.T;
  eval::Interp& I = c.I;
  TensorObj* a = as_tensor(A);
  const DimExpr& nd = a->shape[a->rank() - 1];
  if (!nd.is_const())
    return c.unsupported(fmt::format("{} of matrices whose size is only known when the model runs (the elimination "
                                     "is unrolled over the size)",
                                     what));
  int64_t n = nd.value();
  Value M = call_op(T, "cat", {eval::new_list(I, {A, B}), v_int(-1)});
  Value rows = call_op(T, "arange", {v_int(n)});
  for (int64_t k = 0; k < n; ++k) {
    // The pivot: the largest |M[i, k]| over rows i >= k.
    Value col = call_op(T, "abs", {call_op(T, "select", {M, v_int(-1), v_int(k)})});
    col = call_op(T, "masked_fill", {col, call_op(T, "lt", {rows, v_int(k)}), Value::real(-1.0)});
    Value p = call_op(T, "argmax", {col, v_int(-1), Value::boolean(true)});  // [..., 1]
    // Swap rows k and p: M = M[perm] with perm = where(i == k, p, where(i == p, k, i)).
    Value inner = call_op(T, "where", {call_op(T, "eq", {rows, p}), v_int(k), rows});
    Value perm = call_op(T, "where", {call_op(T, "eq", {rows, v_int(k)}), p, inner});
    perm = call_op(T, "expand_as", {call_op(T, "unsqueeze", {perm, v_int(-1)}), M});
    M = call_op(T, "gather", {M, v_int(-2), perm});
    // Scale the pivot row, then clear column k in every other row.
    Value prow = call_op(T, "narrow", {M, v_int(-2), v_int(k), v_int(1)});
    Value pivot = call_op(T, "narrow", {prow, v_int(-1), v_int(k), v_int(1)});
    prow = call_op(T, "div", {prow, pivot});
    Value factor = call_op(T, "narrow", {M, v_int(-1), v_int(k), v_int(1)});
    Value cleared = call_op(T, "sub", {M, call_op(T, "mul", {factor, prow})});
    Value is_k = call_op(T, "unsqueeze", {call_op(T, "eq", {rows, v_int(k)}), v_int(-1)});
    M = call_op(T, "where", {is_k, prow, cleared});
  }
  TensorObj* m = as_tensor(M);
  const DimExpr& cols = m->shape[m->rank() - 1];
  return call_op(T, "narrow", {M, v_int(-1), v_int(n), make_size_value(T, cols - DimExpr(n))});
}

Value inverse(OpCall& c) {
  TensorObj* a = c.t(0);
  need_square(c, a, "linalg.inv");
  const DimExpr& n = a->shape[a->rank() - 1];
  if (!n.is_const()) return gauss_jordan(c, c.a.raw(0), c.a.raw(0), "linalg.inv");
  Value eye = call_op(c.T, "eye", {v_int(n.value())});
  eye = call_op(c.T, "to", {eye, c.T.dtype_object(a->dtype)});
  eye = call_op(c.T, "expand_as", {eye, c.a.raw(0)});
  return gauss_jordan(c, c.a.raw(0), eye, "linalg.inv");
}

// linalg.solve(A, B, left=True): B is a batch of vectors when it has one dim less than A and the
// shapes agree (PyTorch's rule), else of matrices; batch dims broadcast.
Value solve(OpCall& c) {
  Torch& T = c.T;
  TensorObj* a = c.t(0);
  TensorObj* b = c.t(1);
  need_square(c, a, "linalg.solve");
  if (!c.a.boolean(2)) return c.unsupported("linalg.solve with left=False (solve A^T instead)");
  bool vector = b->rank() == 1 ||
                (b->rank() == a->rank() - 1 && std::equal(b->shape.begin(), b->shape.end(), a->shape.begin()));
  Value B = c.a.raw(1);
  if (vector) B = call_op(T, "unsqueeze", {B, v_int(-1)});
  TensorObj* bm = as_tensor(B);
  std::vector<DimExpr> batch = broadcast_shapes(c.I, std::vector<DimExpr>(a->shape.begin(), a->shape.end() - 2),
                                                std::vector<DimExpr>(bm->shape.begin(), bm->shape.end() - 2));
  auto expanded = [&](const Value& v, TensorObj* t) {
    std::vector<Value> size;
    for (const DimExpr& d : batch) size.push_back(make_size_value(T, d));
    size.push_back(make_size_value(T, t->shape[t->rank() - 2]));
    size.push_back(make_size_value(T, t->shape[t->rank() - 1]));
    return call_op(T, "expand", {v, eval::new_list(c.I, std::move(size))});
  };
  DType dt = result_dtype(T, {operand(c.I, c.a.raw(0)), operand(c.I, B)});
  Value A2 = call_op(T, "to", {expanded(c.a.raw(0), a), T.dtype_object(dt)});
  Value B2 = call_op(T, "to", {expanded(B, bm), T.dtype_object(dt)});
  Value X = gauss_jordan(c, A2, B2, "linalg.solve");
  if (vector && !eval::is_poison(X)) X = call_op(T, "squeeze", {X, v_int(-1)});
  return X;
}

// One DFT along `axis` of `self`, a signal whose last dim holds (real) or (real, imaginary): ONNX DFT
// (opset 17's form: axis an attribute; the opset converter moves it to an input at 20). `n` pads or
// truncates the signal first; onesided keeps the n // 2 + 1 non-redundant outputs of a real signal.
// The inverse is scaled by 1 / n (ONNX's definition, torch.fft's "backward" norm).
Value dft(OpCall& c) {
  TensorObj* x = c.t(0);
  int64_t r = static_cast<int64_t>(x->rank());
  if (r < 2 || !x->shape.back().is_const() || x->shape.back().value() < 1 || x->shape.back().value() > 2)
    c.runtime_error("_onnxify_dft: the last dim must hold 1 (real) or 2 (real, imaginary) values");
  int64_t axis = norm_dim(c.I, c.a.int_(1), r - 1);
  bool inverse = c.a.boolean(2), onesided = c.a.boolean(3);
  std::optional<DimExpr> n;
  if (!c.a.is_none(4)) n = c.a.dim(4);
  DType dt = x->dtype == DType::Float64 ? DType::Float64 : DType::Float32;
  if (!is_floating(x->dtype) && !is_integral(x->dtype, true)) c.runtime_error("_onnxify_dft: a real tensor is needed");
  std::vector<DimExpr> shape = x->shape;
  DimExpr len = n ? *n : shape[axis];
  shape[axis] = onesided ? floor_div(len, DimExpr(int64_t{2})) + DimExpr(int64_t{1}) : len;
  shape.back() = DimExpr(int64_t{2});
  std::vector<ir::Value*> in{cast_to(c.T, c.v(x), x->dtype, dt, x->shape)};
  if (n) in.push_back(c.rec.dim_scalar(*n));
  return c.node("DFT", in, dt, shape,
                {{"axis", axis}, {"inverse", int64_t{inverse}}, {"onesided", int64_t{onesided}}});
}

}  // namespace

const std::vector<OpDef>& linalg_ops() {
  static const std::vector<OpDef> ops = {
      {"baddbmm(Tensor self, Tensor batch1, Tensor batch2, *, Scalar beta=1, Scalar alpha=1) -> Tensor",
       kFn | kMethod | kInplace, baddbmm},
      {"outer(Tensor self, Tensor vec2) -> Tensor", kFn | kMethod, outer},
      {"ger(Tensor self, Tensor vec2) -> Tensor", kFn | kMethod, outer},
      {"einsum(str equation, Tensor[] tensors, *, int[]? path=None) -> Tensor", kFn, einsum},
      {"triu(Tensor self, SymInt diagonal=0) -> Tensor", kFn | kMethod | kInplace,
       [](OpCall& c) { return trilu(c, true); }},
      {"tril(Tensor self, SymInt diagonal=0) -> Tensor", kFn | kMethod | kInplace,
       [](OpCall& c) { return trilu(c, false); }},
      {"det(Tensor self) -> Tensor", kFn | kMethod, det},
      {"linalg_det(Tensor A) -> Tensor", kFn, det},
      {"inverse(Tensor self) -> Tensor", kFn | kMethod, inverse},
      {"linalg_inv(Tensor A) -> Tensor", kFn, inverse},
      {"linalg_solve(Tensor A, Tensor B, *, bool left=True) -> Tensor", kFn, solve},
      {"_onnxify_dft(Tensor self, int axis, bool inverse=False, bool onesided=False, SymInt? n=None) -> Tensor", kFn, dft},
  };
  return ops;
}

}  // namespace onnxify::torch
