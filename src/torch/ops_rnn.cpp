// The recurrent layers: torch.lstm / torch.gru / torch.rnn_tanh / torch.rnn_relu (the `.input`
// overloads nn.LSTM & co call through torch._VF) and _onnxify_rnn, the form the prelude's nn.RNNBase
// calls (initial states optional, a packed sequence's lengths as a tensor). Each layer is one
// composite `rnn` node (src/ir/composite_ops.def) holding the PyTorch-layout weights of both
// directions; src/onnx/lower/rnn.cpp makes it ONNX RNN/LSTM/GRU or a Scan per target. Layers stack
// here: layer l + 1 reads layer l's output; dropout between layers is training-only (not applied).
#include <fmt/core.h>

#include "torch/ops.h"

namespace onnxify::torch {

using eval::Value;
using ir::DimExpr;

namespace {

int64_t gates(const std::string& mode) { return mode == "LSTM" ? 4 : mode == "GRU" ? 3 : 1; }

ir::Value* slice0(OpCall& c, ir::Value* v, int64_t start, int64_t end, DType dt, std::vector<DimExpr> shape) {
  shape[0] = DimExpr(end - start);
  return c.rec.emit("Slice", {v, c.rec.const_i64({start}), c.rec.const_i64({end}), c.rec.const_i64({0})},
                    ir::Type::tensor(elem(dt), shape));
}

struct RnnArgs {
  TensorObj* x;
  TensorObj* hx;
  TensorObj* cx;
  std::vector<TensorObj*> params;
  TensorObj* lengths;
  std::string mode;
  bool has_biases, has_proj;
  int64_t layers;
  bool bidirectional, batch_first;
};

struct RnnOut {
  Value out, h, c;  // c: None unless LSTM
};

RnnOut run_rnn(OpCall& c, const RnnArgs& r) {
  TensorObj* x = r.x;
  if (x->rank() != 3) c.runtime_error(fmt::format("input must have 3 dimensions, got {}", x->rank()));
  if (!is_floating(x->dtype)) c.runtime_error("rnn: expected a floating point input");
  int64_t dirs = r.bidirectional ? 2 : 1;
  size_t per = 2 + (r.has_biases ? 2 : 0) + (r.has_proj ? 1 : 0);
  if (r.params.size() != per * static_cast<size_t>(r.layers * dirs))
    c.runtime_error(
        fmt::format("rnn: expected {} weight tensors, got {}", per * r.layers * dirs, r.params.size()));
  bool lstm = r.mode == "LSTM";
  TensorObj* w_hh0 = r.params[1];
  if (w_hh0->rank() != 2 || !w_hh0->shape[0].is_const() || !w_hh0->shape[1].is_const())
    return {c.unsupported("recurrent weights of symbolic size"), Value::none(), Value::none()};
  int64_t hidden = w_hh0->shape[0].value() / gates(r.mode);
  int64_t hout = w_hh0->shape[1].value();

  DType dt = x->dtype;
  ir::Value* in = c.v(x);
  DimExpr t = x->shape[0], b = x->shape[1];
  if (r.batch_first) {
    std::swap(t, b);
    in = c.rec.emit("Transpose", {in}, ir::Type::tensor(elem(dt), {t, b, x->shape[2]}), {{"perm", std::vector<int64_t>{1, 0, 2}}});
  }
  ir::Value* lens =
      r.lengths ? cast_to(c.T, c.v(r.lengths), r.lengths->dtype, DType::Int64, r.lengths->shape) : nullptr;
  std::vector<DimExpr> hshape{DimExpr(r.layers * dirs), b, DimExpr(hout)};
  std::vector<DimExpr> cshape{DimExpr(r.layers * dirs), b, DimExpr(hidden)};
  std::vector<ir::Value*> hs, cs;
  for (int64_t l = 0; l < r.layers; ++l) {
    std::vector<ir::Value*> ins{in};
    for (int64_t d = 0; d < dirs; ++d) {
      size_t at = static_cast<size_t>(l * dirs + d) * per;
      std::vector<ir::Value*> w{c.v(r.params[at]), c.v(r.params[at + 1]), nullptr, nullptr, nullptr};
      for (size_t k = 0; k < 2; ++k)
        if (r.params[at + k]->dtype != dt)
          c.runtime_error(fmt::format("rnn: weights of dtype {} for an input of dtype {}",
                                      info(r.params[at + k]->dtype).name, info(dt).name));
      if (r.has_biases) {
        w[2] = c.v(r.params[at + 2]);
        w[3] = c.v(r.params[at + 3]);
      }
      if (r.has_proj) w[4] = c.v(r.params[at + per - 1]);
      ins.insert(ins.end(), w.begin(), w.end());
    }
    if (dirs == 1) ins.insert(ins.end(), 5, nullptr);
    ins.push_back(r.hx ? slice0(c, c.v(r.hx), l * dirs, (l + 1) * dirs, dt, hshape) : nullptr);
    ins.push_back(lstm && r.cx ? slice0(c, c.v(r.cx), l * dirs, (l + 1) * dirs, dt, cshape) : nullptr);
    ins.push_back(lens);
    while (!ins.back()) ins.pop_back();
    ir::Node* n = c.rec.node("rnn", ins, lstm ? 3 : 2, ir::kOnnxifyDomain);
    n->set_attr("mode", ir::Attribute(r.mode));
    n->set_attr("hidden_size", ir::Attribute(hidden));
    if (r.bidirectional) n->set_attr("bidirectional", ir::Attribute(int64_t{1}));
    std::vector<DimExpr> oshape{t, b, DimExpr(dirs * hout)};
    n->output(0)->set_type(ir::Type::tensor(elem(dt), oshape));
    n->output(1)->set_type(ir::Type::tensor(elem(dt), {DimExpr(dirs), b, DimExpr(hout)}));
    if (lstm) n->output(2)->set_type(ir::Type::tensor(elem(dt), {DimExpr(dirs), b, DimExpr(hidden)}));
    in = n->output(0);
    hs.push_back(n->output(1));
    if (lstm) cs.push_back(n->output(2));
  }
  auto cat = [&](const std::vector<ir::Value*>& v, const std::vector<DimExpr>& shape) {
    return v.size() == 1 ? v[0] : c.rec.emit("Concat", v, ir::Type::tensor(elem(dt), shape), {{"axis", int64_t{0}}});
  };
  std::vector<DimExpr> oshape{t, b, DimExpr(dirs * hout)};
  if (r.batch_first) {
    oshape = {b, t, DimExpr(dirs * hout)};
    in = c.rec.emit("Transpose", {in}, ir::Type::tensor(elem(dt), oshape), {{"perm", std::vector<int64_t>{1, 0, 2}}});
  }
  Value out = c.out(in, dt, oshape);
  Value h = c.out(cat(hs, hshape), dt, hshape);
  Value cn = lstm ? c.out(cat(cs, cshape), dt, cshape) : Value::none();
  return {out, h, cn};
}

// _onnxify_rnn(input, hx, cx, params, lengths, mode, has_biases, has_proj, num_layers, bidirectional,
// batch_first)
Value onnxify_rnn(OpCall& c) {
  RnnArgs args{c.t(0),         c.a.opt_tensor(1), c.a.opt_tensor(2), c.a.tensors(3),
               c.a.opt_tensor(4), c.a.str(5),    c.a.boolean(6),    c.a.boolean(7),
               c.a.int_(8),       c.a.boolean(9), c.a.boolean(10)};
  RnnOut r = run_rnn(c, args);
  return eval::new_tuple(c.I, {r.out, r.h, r.c});
}

// torch.lstm / gru / rnn_tanh / rnn_relu (.input): params as _flat_weights, has_proj from their count.
Value vf_rnn(OpCall& c, const std::string& mode) {
  bool lstm = mode == "LSTM";
  std::vector<TensorObj*> hx = lstm ? c.a.tensors(1) : std::vector<TensorObj*>{c.t(1)};
  if (lstm && hx.size() != 2) c.runtime_error("lstm expects two hidden states");
  std::vector<TensorObj*> params = c.a.tensors(2);
  bool biases = c.a.boolean(3);
  int64_t layers = c.a.int_(4);
  bool bidir = c.a.boolean(7);
  size_t per = 2 + (biases ? 2 : 0);
  bool proj = lstm && params.size() == (per + 1) * static_cast<size_t>(layers * (bidir ? 2 : 1));
  RnnArgs args{c.t(0), hx[0], lstm ? hx[1] : nullptr, params, nullptr, mode, biases, proj, layers, bidir,
               c.a.boolean(8)};
  RnnOut r = run_rnn(c, args);
  return lstm ? eval::new_tuple(c.I, {r.out, r.h, r.c}) : eval::new_tuple(c.I, {r.out, r.h});
}

}  // namespace

const std::vector<OpDef>& rnn_ops() {
  static const std::vector<OpDef> ops = {
      {"_onnxify_rnn(Tensor input, Tensor? hx, Tensor? cx, Tensor[] params, Tensor? lengths, str mode, bool has_biases, bool has_proj, int num_layers, bool bidirectional, bool batch_first) -> (Tensor, Tensor, Tensor)",
       kNN, onnxify_rnn},
      // Whether a tensor's values are known at conversion time (PyTorch's checks on packed lengths run then).
      {"_onnxify_known(Tensor self) -> bool", kNN,
       [](OpCall& c) { return Value::boolean(known_values(c.T, c.t(0)) != nullptr); }},
      {"lstm.input(Tensor input, Tensor[] hx, Tensor[] params, bool has_biases, int num_layers, float dropout, bool train, bool bidirectional, bool batch_first) -> (Tensor, Tensor, Tensor)",
       kFn, [](OpCall& c) { return vf_rnn(c, "LSTM"); }},
      {"gru.input(Tensor input, Tensor hx, Tensor[] params, bool has_biases, int num_layers, float dropout, bool train, bool bidirectional, bool batch_first) -> (Tensor, Tensor)",
       kFn, [](OpCall& c) { return vf_rnn(c, "GRU"); }},
      {"rnn_tanh.input(Tensor input, Tensor hx, Tensor[] params, bool has_biases, int num_layers, float dropout, bool train, bool bidirectional, bool batch_first) -> (Tensor, Tensor)",
       kFn, [](OpCall& c) { return vf_rnn(c, "RNN_TANH"); }},
      {"rnn_relu.input(Tensor input, Tensor hx, Tensor[] params, bool has_biases, int num_layers, float dropout, bool train, bool bidirectional, bool batch_first) -> (Tensor, Tensor)",
       kFn, [](OpCall& c) { return vf_rnn(c, "RNN_RELU"); }},
  };
  return ops;
}

}  // namespace onnxify::torch
