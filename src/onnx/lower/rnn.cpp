// rnn: one layer of torch.nn.RNN / LSTM / GRU, one or both directions (src/ir/composite_ops.def).
//
// Coarse form: ONNX RNN / LSTM / GRU (opset 7+, one node for both directions). PyTorch and ONNX lay the
// gates out differently (LSTM: PyTorch i,f,g,o, ONNX i,o,f,c; GRU: PyTorch r,z,n, ONNX z,r,h), so the
// weights are re-ordered here, on the bound tensors themselves when they are initializers (the
// checkpoint's): the file holds ONNX-ordered weights and no run-time Slice/Concat. GRU needs
// linear_before_reset=1 (PyTorch applies the reset gate after the hidden matmul and its bias). ONNX's
// sequence_lens has PyTorch's packed-sequence semantics (outputs past a row's length are 0, Y_h is the
// last state that ran, the reverse direction starts at the row's last element). ONNX LSTM has no
// projection, so LSTM with proj_size always takes the decomposition.
//
// Decomposition (--decompose rnn, proj_size, element types the target's kernels lack): per direction
// one ONNX Scan over time (reverse: scan_input/output_directions 1) whose body is one step of
// PyTorch's cell formulas; the input projection of every step is one MatMul before the Scan. With
// lengths a boolean mask (t < lengths[b]) is a second scan input: where it is false the state is
// kept and the output is 0, which is exactly the packed semantics in both directions.
#include <fmt/core.h>

#include <cstring>

#include "onnx/lower/lower.h"

namespace onnxify::lowering {

using ir::DimExpr;
using ir::ElementType;
using ir::Node;
using ir::Type;
using ir::Value;

namespace {

enum Input : size_t { kX, kWih, kWhh, kBih, kBhh, kWhr, kReverse = 5, kH0 = 11, kC0, kLengths };

struct Dir {
  Value *w_ih, *w_hh, *b_ih, *b_hh, *w_hr;
};

Dir direction(const Node& n, size_t d) {
  size_t o = d * kReverse;
  return Dir{n.input(kWih + o), n.input(kWhh + o), n.input(kBih + o), n.input(kBhh + o), n.input(kWhr + o)};
}

Type ty(ElementType e, std::vector<DimExpr> dims) { return Type::tensor(e, std::move(dims)); }

// Rows of w (first axis, G blocks of equal size) in the block order `order`: concretely for an
// initializer, else Slice + Concat.
Value* reorder_blocks(Builder& b, Value* w, const std::vector<int64_t>& order) {
  size_t g = order.size();
  bool identity = true;
  for (size_t i = 0; i < g; ++i) identity = identity && order[i] == static_cast<int64_t>(i);
  if (identity) return w;
  if (const ir::Tensor* t = w->initializer()) {
    size_t block = t->nbytes() / g;
    std::vector<uint8_t> buf(t->nbytes());
    for (size_t i = 0; i < g; ++i)
      std::memcpy(buf.data() + i * block, t->data() + static_cast<size_t>(order[i]) * block, block);
    return b.constant(ir::Tensor(t->dtype(), t->shape(), Bytes::from_vector(std::move(buf))));
  }
  int64_t rows = *Builder::static_dim(w, 0), h = rows / static_cast<int64_t>(g);
  std::vector<Value*> parts;
  for (int64_t k : order) parts.push_back(b.slice(w, {k * h}, {(k + 1) * h}, {0}));
  return b.concat(parts, 0);
}

// w (R, C) transposed: concretely for an initializer (so MatMul reads it as stored), else Transpose.
Value* transposed(Builder& b, Value* w) {
  const ir::Tensor* t = w->initializer();
  if (!t || t->rank() != 2) return b.transpose(w, {1, 0});
  int64_t r = t->shape()[0], c = t->shape()[1];
  size_t es = t->nbytes() / static_cast<size_t>(r * c);
  std::vector<uint8_t> buf(t->nbytes());
  for (int64_t i = 0; i < r; ++i)
    for (int64_t j = 0; j < c; ++j)
      std::memcpy(buf.data() + static_cast<size_t>(j * r + i) * es,
                  t->data() + static_cast<size_t>(i * c + j) * es, es);
  return b.constant(ir::Tensor(t->dtype(), {c, r}, Bytes::from_vector(std::move(buf))));
}

int64_t gates_of(const std::string& mode) { return mode == "LSTM" ? 4 : mode == "GRU" ? 3 : 1; }

// ---- coarse: ONNX RNN / LSTM / GRU ------------------------------------------------------------

void lower_coarse(Node& n, Builder& b, const std::string& mode, int64_t hidden, int64_t dirs,
                  std::vector<Value*>& out) {
  Value* x = n.input(kX);
  ElementType e = Builder::elem(x);
  std::vector<int64_t> order = mode == "LSTM" ? std::vector<int64_t>{0, 3, 1, 2}
                               : mode == "GRU" ? std::vector<int64_t>{1, 0, 2}
                                               : std::vector<int64_t>{0};
  std::vector<Value*> ws, rs, bs;
  bool has_bias = n.input(kBih) != nullptr;
  for (int64_t d = 0; d < dirs; ++d) {
    Dir p = direction(n, static_cast<size_t>(d));
    ws.push_back(b.unsqueeze(reorder_blocks(b, p.w_ih, order), {0}));
    rs.push_back(b.unsqueeze(reorder_blocks(b, p.w_hh, order), {0}));
    if (has_bias) {
      Value* both = b.concat({reorder_blocks(b, p.b_ih, order), reorder_blocks(b, p.b_hh, order)}, 0);
      bs.push_back(b.unsqueeze(both, {0}));
    }
  }
  auto stack = [&](std::vector<Value*>& v) { return v.size() == 1 ? v[0] : b.concat(v, 0); };
  Value* lens = n.input(kLengths) ? b.cast(n.input(kLengths), ElementType::Int32) : nullptr;
  std::vector<Value*> ins{x, stack(ws), stack(rs), has_bias ? stack(bs) : nullptr, lens, n.input(kH0)};
  if (mode == "LSTM") ins.push_back(n.input(kC0));
  while (!ins.back()) ins.pop_back();
  Attrs a;
  a.i("hidden_size", hidden).s("direction", dirs == 2 ? "bidirectional" : "forward");
  if (mode == "GRU") a.i("linear_before_reset", 1);
  DimExpr t = x->type().dim(0), batch = x->type().dim(1), dd(dirs), hh(hidden);
  std::vector<Type> types{ty(e, {t, dd, batch, hh}), ty(e, {dd, batch, hh})};
  if (mode == "LSTM") types.push_back(ty(e, {dd, batch, hh}));
  const char* op = mode == "LSTM" ? "LSTM" : mode == "GRU" ? "GRU" : "RNN";
  Node* r = b.node(op, ins, types.size(), std::move(a), types);
  if (mode == "RNN_RELU") r->set_attr("activations", ir::Attribute(std::vector<std::string>(dirs, "Relu")));
  Value* y = r->output(0);
  y = dirs == 1 ? b.squeeze(y, {1}) : b.reshape(b.transpose(y, {0, 2, 1, 3}), {0, 0, -1});
  out = {y, r->output(1), mode == "LSTM" && n.num_outputs() > 2 ? r->output(2) : nullptr};
}

// ---- decomposition: one Scan per direction -----------------------------------------------------

struct Step {
  Value *h, *c, *y;
};

// One time step inside the Scan body: PyTorch's cell formulas. xw: x_t W_ih^T + b_ih (B, G*H).
Step cell_step(Builder& b, const std::string& mode, int64_t hidden, Value* xw, Value* h, Value* c,
               Value* w_hh_t, Value* b_hh, Value* w_hr_t) {
  ElementType e = Builder::elem(xw);
  DimExpr batch = xw->type().dim(0), hh(hidden);
  Value* hw = b.op("MatMul", {h, w_hh_t});
  if (b_hh) hw = b.op("Add", {hw, b_hh});
  auto gate = [&](Value* v, int64_t k) {
    return b.slice(v, {k * hidden}, {(k + 1) * hidden}, {1});
  };
  Type ht = ty(e, {batch, hh});
  if (mode == "RNN_TANH" || mode == "RNN_RELU") {
    Value* s = b.op("Add", {xw, hw});
    Value* h2 = b.op(mode == "RNN_TANH" ? "Tanh" : "Relu", {s}, Attrs(), ht);
    return {h2, nullptr, h2};
  }
  if (mode == "GRU") {
    Value* r = b.op("Sigmoid", {b.op("Add", {gate(xw, 0), gate(hw, 0)})}, Attrs(), ht);
    Value* z = b.op("Sigmoid", {b.op("Add", {gate(xw, 1), gate(hw, 1)})}, Attrs(), ht);
    Value* nn = b.op("Tanh", {b.op("Add", {gate(xw, 2), b.op("Mul", {r, gate(hw, 2)})})}, Attrs(), ht);
    // h' = (1 - z) * n + z * h = n + z * (h - n)
    Value* h2 = b.op("Add", {nn, b.op("Mul", {z, b.op("Sub", {h, nn})})}, Attrs(), ht);
    return {h2, nullptr, h2};
  }
  Value* g = b.op("Add", {xw, hw});
  Value* i = b.op("Sigmoid", {gate(g, 0)}, Attrs(), ht);
  Value* f = b.op("Sigmoid", {gate(g, 1)}, Attrs(), ht);
  Value* gg = b.op("Tanh", {gate(g, 2)}, Attrs(), ht);
  Value* o = b.op("Sigmoid", {gate(g, 3)}, Attrs(), ht);
  Value* c2 = b.op("Add", {b.op("Mul", {f, c}), b.op("Mul", {i, gg})}, Attrs(), ht);
  Value* h2 = b.op("Mul", {o, b.op("Tanh", {c2}, Attrs(), ht)}, Attrs(), ht);
  if (w_hr_t) h2 = b.op("MatMul", {h2, w_hr_t});
  return {h2, c2, h2};
}

// The state of direction d at the start: h0[d] (or c0[d]), zeros (B, size) when not given.
Value* initial(Builder& b, Value* given, int64_t d, Value* x, int64_t size) {
  ElementType e = Builder::elem(x);
  if (given) return b.op("Gather", {given, b.i64_scalar(d)}, Attrs().i("axis", 0));
  Value* shape = b.concat_i64({b.dim(x, 1), b.i64({size})});
  ir::Tensor zero = filled_tensor(0.0, e, {1});
  return b.op("ConstantOfShape", {shape}, Attrs().t("value", zero), ty(e, {x->type().dim(1), DimExpr(size)}));
}

// Direction d as a Scan; returns (Y (T, B, Hout), h_n (B, Hout), c_n (B, H)).
Step lower_direction(Node& n, Builder& b, const std::string& mode, int64_t hidden, int64_t d, Value* mask) {
  Value* x = n.input(kX);
  ElementType e = Builder::elem(x);
  Dir p = direction(n, static_cast<size_t>(d));
  bool lstm = mode == "LSTM";
  int64_t gh = gates_of(mode) * hidden;
  int64_t hout = p.w_hr ? *Builder::static_dim(p.w_hr, 0) : hidden;
  DimExpr t = x->type().dim(0), batch = x->type().dim(1);
  Value* xw = b.op("MatMul", {x, transposed(b, p.w_ih)}, Attrs(), ty(e, {t, batch, DimExpr(gh)}));
  if (p.b_ih) xw = b.op("Add", {xw, p.b_ih}, Attrs(), ty(e, {t, batch, DimExpr(gh)}));
  Value* w_hh_t = transposed(b, p.w_hh);
  Value* w_hr_t = p.w_hr ? transposed(b, p.w_hr) : nullptr;

  auto body = std::make_unique<ir::Graph>("body");
  Type ht = ty(e, {batch, DimExpr(hout)}), ct = ty(e, {batch, DimExpr(hidden)});
  Value* h_in = body->add_input(ht, "h");
  Value* c_in = lstm ? body->add_input(ct, "c") : nullptr;
  Value* xw_t = body->add_input(ty(e, {batch, DimExpr(gh)}), "xw_t");
  Value* m_t = mask ? body->add_input(ty(ElementType::Bool, {batch, DimExpr(1)}), "mask_t") : nullptr;
  // Build the body through a Builder anchored on a placeholder node, dropped afterwards.
  Node* anchor = body->create("", "Identity", {h_in}, 1);
  anchor->set_loc(n.loc());
  anchor->set_module_path(n.module_path());
  Builder bb(*anchor);
  Step s = cell_step(bb, mode, hidden, xw_t, h_in, c_in, w_hh_t, p.b_hh, w_hr_t);
  Value* y = s.y;
  if (m_t) {
    s.h = bb.op("Where", {m_t, s.h, h_in}, Attrs(), ht);
    if (lstm) s.c = bb.op("Where", {m_t, s.c, c_in}, Attrs(), ct);
    y = bb.op("Where", {m_t, s.h, bb.scalar(0.0, e)}, Attrs(), ht);
  } else {
    y = bb.op("Identity", {s.h}, Attrs(), ht);  // a body output may not be two outputs at once
  }
  body->erase(anchor);
  body->add_output(s.h);
  if (lstm) body->add_output(s.c);
  body->add_output(y);

  std::vector<Value*> ins{initial(b, n.input(kH0), d, x, hout)};
  if (lstm) ins.push_back(initial(b, n.input(kC0), d, x, hidden));
  ins.push_back(xw);
  if (mask) ins.push_back(mask);
  int64_t scans = mask ? 2 : 1;
  Attrs a;
  a.i("num_scan_inputs", scans);
  if (d == 1)
    a.ints("scan_input_directions", std::vector<int64_t>(static_cast<size_t>(scans), 1))
        .ints("scan_output_directions", {1});
  std::vector<Type> types{ht};
  if (lstm) types.push_back(ct);
  types.push_back(ty(e, {t, batch, DimExpr(hout)}));
  Node* scan = b.node("Scan", ins, types.size(), std::move(a), types);
  scan->set_attr("body", ir::Attribute(std::move(body)));
  return {scan->output(0), lstm ? scan->output(1) : nullptr, scan->output(lstm ? 2 : 1)};
}

void lower_scan(Node& n, Builder& b, const std::string& mode, int64_t hidden, int64_t dirs,
                std::vector<Value*>& out) {
  Value* x = n.input(kX);
  Value* mask = nullptr;
  if (Value* lens = n.input(kLengths)) {
    // mask[t, b] = t < lengths[b], as (T, B, 1).
    Value* steps = b.op("Range", {b.i64_scalar(0), b.squeeze(b.dim(x, 0), {0}), b.i64_scalar(1)}, Attrs(),
                        ty(ElementType::Int64, {x->type().dim(0)}));
    mask = b.op("Less", {b.unsqueeze(steps, {1}), b.unsqueeze(lens, {0})}, Attrs(),
                ty(ElementType::Bool, {x->type().dim(0), x->type().dim(1)}));
    mask = b.unsqueeze(mask, {2});
  }
  std::vector<Value*> ys, hs, cs;
  for (int64_t d = 0; d < dirs; ++d) {
    Step s = lower_direction(n, b, mode, hidden, d, mask);
    ys.push_back(s.y);
    hs.push_back(b.unsqueeze(s.h, {0}));
    if (s.c) cs.push_back(b.unsqueeze(s.c, {0}));
  }
  auto cat = [&](std::vector<Value*>& v, int64_t axis) { return v.size() == 1 ? v[0] : b.concat(v, axis); };
  out = {cat(ys, 2), cat(hs, 0), cs.empty() ? nullptr : cat(cs, 0)};
}

}  // namespace

void lower_rnn(Node& n, Builder& b, Context& ctx, std::vector<Value*>& out) {
  std::string mode = ir::attr_s(n, "mode");
  int64_t hidden = ir::attr_i(n, "hidden_size");
  int64_t dirs = ir::attr_i(n, "bidirectional") ? 2 : 1;
  if (dirs == 2 && !n.input(kWih + kReverse)) {
    ctx.error(n, "internal: a bidirectional rnn without the reverse direction's weights");
    return;
  }
  for (size_t w : {kWih, kWhh, kWhr})
    if (n.input(w) && !Builder::static_dim(n.input(w), 0)) {
      ctx.error(n, "internal: rnn weights of symbolic size");
      return;
    }
  const char* onnx_op = mode == "LSTM" ? "LSTM" : mode == "GRU" ? "GRU" : "RNN";
  ElementType e = Builder::elem(n.input(kX));
  std::string unfit;
  if (n.input(kWhr)) unfit = "ONNX LSTM has no projection (proj_size)";
  else if (ctx.target.name == "onnxruntime" && e != ElementType::Float32)
    unfit = fmt::format("ONNX Runtime's {} kernel takes float32 only", onnx_op);
  else if (ctx.target.name == "tensorrt" && e != ElementType::Float32 && e != ElementType::Float16)
    unfit = fmt::format("TensorRT's {} takes float32 and float16 only", onnx_op);
  if (ctx.coarse(n, onnx_op, 7, unfit))
    lower_coarse(n, b, mode, hidden, dirs, out);
  else
    lower_scan(n, b, mode, hidden, dirs, out);
  out.resize(n.num_outputs());  // c_n exists for LSTM only
}

}  // namespace onnxify::lowering
