// The PyTorch 2.x layer ops: scaled_dot_product_attention (torch.nn.functional, 2.0) and rms_norm
// (torch.rms_norm / F.rms_norm, 2.4). Both are composite ops (src/ir/composite_ops.def) whose ONNX
// form depends on the target and opset (Attention and RMSNormalization from opset 23, else their
// decompositions: src/onnx/lower/attention.cpp, normalization.cpp). The rows check the arguments
// as PyTorch 2.14 does, with its messages, and work out the output shape.
#include <fmt/core.h>

#include "torch/ops.h"

namespace onnxify::torch {

using eval::Value;
using ir::DimExpr;

namespace {

// caffe2 TypeMeta names: how validate_sdpa_input prints dtypes ("float", "c10::Half", "long int").
std::string_view typemeta_name(DType t) {
  switch (t) {
    case DType::UInt8: return "unsigned char";
    case DType::Int8: return "signed char";
    case DType::Int16: return "short int";
    case DType::Int32: return "int";
    case DType::Int64: return "long int";
    case DType::Float16: return "c10::Half";
    case DType::Float32: return "float";
    case DType::Float64: return "double";
    case DType::Bool: return "bool";
    case DType::BFloat16: return "c10::BFloat16";
    default: return info(t).name;
  }
}

// c10 ScalarType names ("expected scalar type Float but found Long").
std::string_view scalar_type_name(DType t) {
  switch (t) {
    case DType::UInt8: return "Byte";
    case DType::Int8: return "Char";
    case DType::Int16: return "Short";
    case DType::Int32: return "Int";
    case DType::Int64: return "Long";
    case DType::Bool: return "Bool";
    default: return info(t).name;
  }
}

bool all_static(const std::vector<DimExpr>& s) {
  for (const DimExpr& d : s)
    if (!d.is_const()) return false;
  return true;
}

// scaled_dot_product_attention(query (N..., Hq, L, E), key (N..., H, S, E), value (N..., H, S, Ev))
// -> (N..., Hq, L, Ev). The checks follow ATen's validate_sdpa_input, then the math kernel's
// (is_causal with a mask, enable_gqa's head counts, matmul broadcasting of the batch dims, the
// mask broadcast into the (N..., Hq, L, S) weights in place). dropout_p is not applied: PyTorch
// applies it whenever it is above 0, in eval mode too, which gives random results no exported
// model can reproduce; the usual `dropout_p=p if self.training else 0.0` is 0 in export.
Value sdpa(OpCall& c) {
  TensorObj* q = c.t(0);
  TensorObj* k = c.t(1);
  TensorObj* v = c.t(2);
  TensorObj* mask = c.a.opt_tensor(3);
  double dropout_p = c.a.real(4);
  bool causal = c.a.boolean(5);
  std::optional<double> scale = c.a.opt_real(6);
  bool gqa = c.a.boolean(7);
  if (q->dtype != k->dtype || q->dtype != v->dtype)
    c.runtime_error(fmt::format(
        "Expected query, key, and value to have the same dtype, but got query.dtype: {} key.dtype: {} and "
        "value.dtype: {} instead.",
        typemeta_name(q->dtype), typemeta_name(k->dtype), typemeta_name(v->dtype)));
  if (q->rank() < 2 || k->rank() < 2 || v->rank() < 2)
    c.runtime_error(fmt::format(
        "Expected query, key, and value to all be  at least 2 dimensional, but got query.dim: {} key.dim: {} and "
        "value.dim: {} instead.",
        q->rank(), k->rank(), v->rank()));
  if (mask && mask->dtype != DType::Bool && mask->dtype != DType::Float32 && mask->dtype != q->dtype)
    c.runtime_error(fmt::format(
        "Expected attn_mask dtype to be bool or float or to match query dtype, but got attn_mask.dtype: {} and  "
        "query.dtype: {} instead.",
        typemeta_name(mask->dtype), typemeta_name(q->dtype)));
  if (!is_floating(q->dtype))
    c.runtime_error(fmt::format("expected scalar type Float but found {}", scalar_type_name(q->dtype)));
  if (causal && mask)
    c.runtime_error("_scaled_dot_product_attention: Explicit attn_mask should not be set when is_causal=True");

  std::vector<DimExpr> ks = k->shape, vs = v->shape;
  if (gqa) {
    for (TensorObj* t : {q, k, v}) norm_dim(c.I, -3, static_cast<int64_t>(t->rank()));  // sym_size(-3)
    DimExpr hq = q->shape[q->rank() - 3], hk = ks[ks.size() - 3], hv = vs[vs.size() - 3];
    bool all_equal = hq == hk && hk == hv;
    if (!all_equal && hq.is_const() && hk.is_const() && hv.is_const() &&
        (hq.value() % hk.value() != 0 || hq.value() % hv.value() != 0))
      c.runtime_error("Number of heads in key and value must divide the number of heads in ");
    ks[ks.size() - 3] = hq;  // repeat_interleave(Hq / H, -3)
    vs[vs.size() - 3] = hq;
  }
  DimExpr e = q->shape.back(), ek = ks.back(), l = q->shape[q->rank() - 2], s = ks[ks.size() - 2],
          sv = vs[vs.size() - 2];
  if (e.is_const() && ek.is_const() && e.value() != ek.value())
    c.runtime_error(fmt::format("scaled_dot_product_attention: query and key must have the same last dim (E), but "
                                "got query {} and key {}",
                                shape_text(q->shape), shape_text(k->shape)));
  if (s.is_const() && sv.is_const() && s.value() != sv.value())
    c.runtime_error(fmt::format("scaled_dot_product_attention: key and value must have the same sequence length "
                                "(dim -2), but got key {} and value {}",
                                shape_text(k->shape), shape_text(v->shape)));
  // attn = query @ key^T: (broadcast batch dims, Hq, L, S); attn @ value: (..., L, Ev).
  std::vector<DimExpr> weights =
      broadcast_shapes(c.I, std::vector<DimExpr>(q->shape.begin(), q->shape.end() - 2),
                       std::vector<DimExpr>(ks.begin(), ks.end() - 2));
  std::vector<DimExpr> out = broadcast_shapes(c.I, weights, std::vector<DimExpr>(vs.begin(), vs.end() - 2));
  weights.push_back(l);
  weights.push_back(s);
  out.push_back(l);
  out.push_back(vs.back());

  ir::Value* mv = nullptr;
  if (mask) {
    // attn.add_(attn_mask): the mask broadcasts into the weights and may not grow them.
    std::vector<DimExpr> b = broadcast_shapes(c.I, weights, mask->shape);
    if (b.size() != weights.size() || (all_static(b) && all_static(weights) && b != weights))
      c.runtime_error(fmt::format("output with shape {} doesn't match the broadcast shape {}", shape_text(weights),
                                  shape_text(b)));
    mv = mask->dtype == DType::Bool ? c.v(mask) : cast_to(c.T, c.v(mask), mask->dtype, q->dtype, mask->shape);
  }
  if (dropout_p > 0.0) {
    std::string msg = fmt::format(
        "scaled_dot_product_attention: dropout_p={} is not applied: PyTorch applies dropout whenever dropout_p > 0 "
        "(in eval mode too), which no exported model can reproduce; pass dropout_p=0.0 outside training",
        dropout_p);
    bool seen = false;
    for (const Diagnostic& w : c.T.warnings) seen = seen || w.message() == msg;
    if (!seen) c.T.warnings.push_back(Diagnostic::warning(msg, c.rec.location()));
  }
  Attrs attrs;
  if (causal) attrs.push_back({"is_causal", int64_t{1}});
  if (scale) attrs.push_back({"scale", static_cast<float>(*scale)});
  if (gqa) attrs.push_back({"enable_gqa", int64_t{1}});
  std::vector<ir::Value*> ins{c.v(q), c.v(k), c.v(v)};
  if (mv) ins.push_back(mv);
  return c.node("scaled_dot_product_attention", ins, q->dtype, out, std::move(attrs), ir::kOnnxifyDomain);
}

// rms_norm(input, normalized_shape, weight=None, eps=None): x / sqrt(mean(x^2) + eps) * weight over
// the trailing dims, computed in float32 for half types (ATen's opmath type), eps defaulting to the
// opmath type's machine epsilon (float32's for float16/bfloat16/float32, float64's for float64).
Value rms_norm(OpCall& c) {
  TensorObj* x = c.t(0);
  std::vector<DimExpr> ns = c.a.dims(1);
  TensorObj* w = c.a.opt_tensor(2);
  std::optional<double> eps = c.a.opt_real(3);
  if (ns.size() > x->rank())
    c.value_error(fmt::format("Input tensor must have at least {} dimensions, but got {}", ns.size(), x->rank()));
  std::vector<int64_t> shape;
  for (size_t i = 0; i < ns.size(); ++i) {
    DimExpr d = x->shape[x->rank() - ns.size() + i];
    if (!ns[i].is_const()) {
      if (ns[i] == d) {
        return c.unsupported("rms_norm over a dim whose size is only known at run time");
      }
      return c.unsupported(fmt::format("rms_norm with a symbolic normalized_shape ({})", ns[i].str()));
    }
    if (d.is_const() && d.value() != ns[i].value()) {
      std::string want;
      for (size_t j = 0; j < ns.size(); ++j) want += (j ? ", " : "") + ns[j].str();
      c.runtime_error(fmt::format("Given normalized_shape={}, expected input with shape [*{}], but got input of size{}",
                                  shape_text(ns), want, shape_text(x->shape)));
    }
    shape.push_back(ns[i].value());
  }
  if (w && (w->shape.size() != ns.size() || (all_static(w->shape) && w->shape != ns)))
    c.runtime_error(fmt::format(
        "Expected weight to be of same shape as normalized_shape, but got weight of shape {} and normalized_shape = {}",
        shape_text(w->shape), shape_text(ns)));
  if (!is_floating(x->dtype))
    c.fail(c.I.exc.NotImplementedError,
           fmt::format("\"rms_norm\" not implemented for '{}'", scalar_type_name(x->dtype)));
  double e = eps ? *eps : x->dtype == DType::Float64 ? 2.220446049250313e-16 : 1.1920928955078125e-07;
  std::vector<ir::Value*> ins{c.v(x)};
  if (w) ins.push_back(cast_to(c.T, c.v(w), w->dtype, x->dtype, w->shape));
  return c.node("rms_norm", ins, x->dtype, x->shape, {{"normalized_shape", shape}, {"eps", static_cast<float>(e)}},
                ir::kOnnxifyDomain);
}

}  // namespace

const std::vector<OpDef>& attention_ops() {
  static const std::vector<OpDef> ops = {
      {"scaled_dot_product_attention(Tensor query, Tensor key, Tensor value, Tensor? attn_mask=None, float dropout_p=0.0, bool is_causal=False, *, float? scale=None, bool enable_gqa=False) -> Tensor",
       kNN, sdpa},
      {"rms_norm(Tensor input, SymInt[] normalized_shape, Tensor? weight=None, float? eps=None) -> Tensor", kFn,
       rms_norm},
  };
  return ops;
}

}  // namespace onnxify::torch
