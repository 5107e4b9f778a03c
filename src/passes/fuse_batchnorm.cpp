// fuse_batchnorm: an inference-mode BatchNormalization folded into the Conv, ConvTranspose, Gemm or
// MatMul that feeds it (and nothing else).
//
// BatchNorm computes y = (x - mean) * f + beta with f = scale / sqrt(var + eps), per channel (axis
// 1). Scaling output channel o of the producer's weights by f[o] and replacing its bias b by
// b * f + (beta - mean * f) gives the same y. Channel o is weight axis 0 for Conv, axis 1 within
// each group for ConvTranspose, and the output column for Gemm / MatMul (2-d only, where axis 1 is
// the column). MatMul has no bias: the shift becomes an Add (fuse_matmul_add may then make a Gemm).
//
// This is numeric work on weights, which DESIGN.md decision 1 otherwise excludes: each folded
// weight and bias is computed once (in double, stored in the weight's element type) into a new
// owned initializer; the old ones go when unused (dce). Every input must be a constant, so nothing
// is computed for data that is not already in the model.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <optional>

#include "passes/passes.h"
#include "support/parallel.h"

namespace onnxify::passes {

namespace {

using ir::ElementType;
using ir::Graph;
using ir::Node;
using ir::Tensor;
using ir::Value;

bool float_type(ElementType e) {
  return e == ElementType::Float32 || e == ElementType::Float64 || e == ElementType::Float16;
}

std::optional<std::vector<double>> values(const Value* v, int64_t expect) {
  if (!v || !v->initializer()) return std::nullopt;
  const Tensor& t = *v->initializer();
  if (!float_type(t.dtype()) || (expect >= 0 && t.numel() != expect)) return std::nullopt;
  std::vector<double> out(static_cast<size_t>(t.numel()));
  for (int64_t i = 0; i < t.numel(); ++i) out[static_cast<size_t>(i)] = t.float_at(i);
  return out;
}

Tensor make(ElementType e, std::vector<int64_t> shape, const std::vector<double>& v) {
  switch (e) {
    case ElementType::Float64:
      return Tensor::from_values<double>(e, std::move(shape), v);
    case ElementType::Float16: {
      std::vector<uint16_t> h;
      for (double d : v) h.push_back(ir::float_to_half(static_cast<float>(d)));
      return Tensor::from_values<uint16_t>(e, std::move(shape), h);
    }
    default: {
      std::vector<float> f(v.begin(), v.end());
      return Tensor::from_values<float>(ElementType::Float32, std::move(shape), f);
    }
  }
}

// Blocks [first, last) of `w` (`block` consecutive elements each), each multiplied by
// f[channel(block index)], in w's own float type (the product is taken in double and rounded once,
// like the per-element form).
template <class T, class Load, class Store, class Channel>
void scale_typed(const Tensor& w, int64_t block, int64_t first, int64_t last, const std::vector<double>& f,
                 Channel channel, uint8_t* out, Load load, Store store) {
  const uint8_t* in = w.data();
  int64_t n = w.numel();
  for (int64_t b = first, start = first * block; b < last && start < n; start += block, ++b) {
    double k = f[static_cast<size_t>(channel(b))];
    int64_t end = std::min(n, start + block);
    for (int64_t i = start; i < end; ++i) {
      T v;
      std::memcpy(&v, in + i * sizeof(T), sizeof(T));
      T r = store(load(v) * k);
      std::memcpy(out + i * sizeof(T), &r, sizeof(T));
    }
  }
}

// The scaled copy of `w`, its blocks split across the cores (a resnet50's folds rewrite 100 MB).
template <class Channel>
Tensor scale_blocks(const Tensor& w, int64_t block, const std::vector<double>& f, Channel channel) {
  // Not zero-filled: every byte is written below (zeroing, then page faults on first touch, were
  // most of the fold's time on resnet50).
  uint8_t* out = nullptr;
  Bytes bytes = Bytes::uninitialized(w.nbytes(), &out);
  block = std::max<int64_t>(block, 1);
  int64_t blocks = (w.numel() + block - 1) / block;
  parallel_ranges(blocks, std::max<int64_t>(1, (int64_t{1} << 18) / block), [&](int64_t first, int64_t last) {
    switch (w.dtype()) {
      case ElementType::Float64:
        scale_typed<double>(w, block, first, last, f, channel, out, [](double v) { return v; },
                            [](double v) { return v; });
        break;
      case ElementType::Float16:
        scale_typed<uint16_t>(
            w, block, first, last, f, channel, out,
            [](uint16_t h) { return static_cast<double>(ir::half_to_float(h)); },
            [](double v) { return ir::float_to_half(static_cast<float>(v)); });
        break;
      default:
        scale_typed<float>(
            w, block, first, last, f, channel, out, [](float v) { return static_cast<double>(v); },
            [](double v) { return static_cast<float>(v); });
        break;
    }
  });
  return Tensor(w.dtype(), w.shape(), std::move(bytes));
}

// The producer of `x` if it is a foldable op whose only use is the BatchNorm.
Node* producer_for(const Value* x, const Node& bn) {
  Node* p = x->producer();
  if (!p || p->graph() != bn.graph() || x->uses().size() != 1 || p->num_outputs() != 1) return nullptr;
  if (p->is("Conv") || p->is("ConvTranspose") || p->is("Gemm") || p->is("MatMul")) return p;
  return nullptr;
}

bool fold(Graph& g, Node& bn) {
  if (bn.attr_int("training_mode", 0) != 0) return false;
  for (size_t i = 1; i < bn.num_outputs(); ++i)
    if (bn.output(i) && bn.output(i)->has_uses()) return false;
  Node* p = producer_for(bn.input(0), bn);
  if (!p) return false;
  Value* w = p->input(1);
  if (!w || !w->initializer() || !float_type(w->initializer()->dtype())) return false;
  const Tensor& wt = *w->initializer();
  const std::vector<int64_t>& ws = wt.shape();
  ElementType e = wt.dtype();
  int64_t channels;
  if (p->is("Conv")) {
    if (ws.empty()) return false;
    channels = ws[0];
  } else if (p->is("ConvTranspose")) {
    if (ws.size() < 2) return false;
    channels = ws[1] * p->attr_int("group", 1);
  } else {
    if (ws.size() != 2 || bn.input(0)->type().rank() != 2) return false;
    bool trans = p->is("Gemm") && p->attr_int("transB", 0);
    channels = trans ? ws[0] : ws[1];
  }
  auto scale = values(bn.input(1), channels), beta = values(bn.input(2), channels),
       mean = values(bn.input(3), channels), var = values(bn.input(4), channels);
  if (!scale || !beta || !mean || !var) return false;
  double eps = bn.attr_float("epsilon", 1e-5f);
  std::vector<double> f(static_cast<size_t>(channels)), shift(static_cast<size_t>(channels));
  for (size_t c = 0; c < f.size(); ++c) {
    f[c] = (*scale)[c] / std::sqrt((*var)[c] + eps);
    shift[c] = (*beta)[c] - (*mean)[c] * f[c];
  }
  // Old bias (Conv/ConvTranspose input 2, Gemm input 2 scaled by beta).
  std::vector<double> bias(static_cast<size_t>(channels), 0.0);
  Value* old_bias = p->is("MatMul") ? nullptr : p->input(2);
  if (old_bias) {
    auto b = values(old_bias, -1);
    if (!b) return false;
    double gemm_beta = p->is("Gemm") ? p->attr_float("beta", 1.0f) : 1.0;
    if (b->size() == 1)
      std::fill(bias.begin(), bias.end(), (*b)[0] * gemm_beta);
    else if (static_cast<int64_t>(b->size()) == channels)
      for (size_t c = 0; c < bias.size(); ++c) bias[c] = (*b)[c] * gemm_beta;
    else
      return false;  // a full (N, M) Gemm C: leave it
  }
  // New weights: w * f along the output-channel position of each element. The weight is walked in
  // blocks of consecutive elements that share one channel (a whole output filter for Conv), so
  // folding a large model costs one multiply per weight and one output buffer.
  int64_t inner = 1;
  for (size_t i = 2; i < ws.size(); ++i) inner *= ws[i];
  Tensor new_weights;
  if (p->is("Conv")) {
    int64_t per_filter = ws[0] ? wt.numel() / ws[0] : 0;
    new_weights = scale_blocks(wt, per_filter, f, [](int64_t b) { return b; });
  } else if (p->is("ConvTranspose")) {
    // Weight (C_in, C_out / groups, k...): output channel = group * (C_out / groups) + j.
    int64_t groups = p->attr_int("group", 1), per_group_in = ws[0] / groups, outs = ws[1];
    new_weights = scale_blocks(wt, inner, f, [=](int64_t b) {
      int64_t in_ch = b / outs, j = b % outs;
      return (in_ch / per_group_in) * outs + j;
    });
  } else if (p->is("Gemm") && p->attr_int("transB", 0)) {
    new_weights = scale_blocks(wt, ws[1], f, [](int64_t b) { return b; });  // (out, in): rows
  } else {
    int64_t cols = ws[1];
    new_weights = scale_blocks(wt, 1, f, [=](int64_t b) { return b % cols; });  // (in, out): columns
  }
  std::vector<double> nb(static_cast<size_t>(channels));
  for (size_t c = 0; c < nb.size(); ++c) nb[c] = bias[c] * f[c] + shift[c];
  Value* new_w = g.add_initializer(std::move(new_weights), w->name());
  Value* new_b = g.add_initializer(make(e, {channels}, nb), old_bias ? old_bias->name() : "");
  p->set_input(1, new_w);
  Value* result = p->output(0);
  if (p->is("MatMul")) {
    Node* add = g.create("", "Add", {p->output(0), new_b}, 1, &bn);
    add->set_loc(bn.loc());
    add->set_module_path(bn.module_path());
    add->output(0)->set_type(bn.output(0)->type());
    result = add->output(0);
  } else {
    if (p->num_inputs() < 3)
      p->add_input(new_b);
    else
      p->set_input(2, new_b);
    if (p->is("Gemm")) p->remove_attr("beta");
  }
  // The result stands for the BatchNorm's output (a graph output keeps its name).
  if (!bn.output(0)->name().empty()) result->set_name(bn.output(0)->name());
  bn.output(0)->replace_all_uses_with(result);
  g.erase(&bn);
  return true;
}

void run(Graph& g) {
  for (Node* n : g.nodes()) {
    for (Graph* r : n->regions()) run(*r);
    if (n->is("BatchNormalization")) fold(g, *n);
  }
}

}  // namespace

Status fuse_batchnorm(ir::Graph& graph, const PassOptions&) {
  run(graph);
  return Status::ok();
}

}  // namespace onnxify::passes
