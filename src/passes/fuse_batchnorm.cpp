// fuse_batchnorm: an inference-mode BatchNormalization folded into the Conv, ConvTranspose, Gemm or
// MatMul that feeds it (and nothing else).
//
// BatchNorm computes y = (x - mean) * f + beta with f = scale / sqrt(var + eps), per channel (axis
// 1). Scaling output channel o of the producer's weights by f[o] and replacing its bias b by
// b * f + (beta - mean * f) gives the same y. Channel o is weight axis 0 for Conv, axis 1 within
// each group for ConvTranspose, and the output column for Gemm / MatMul (2-d only, where axis 1 is
// the column). MatMul has no bias: the shift becomes an Add (fuse_matmul_add may then make a Gemm).
// A BatchNorm written out by hand after a Conv or ConvTranspose (Mul/Div/Add/Sub of its output by
// a per-channel constant, as Keras' is on its torch backend) is folded the same way, one op at a
// time (an Add or Sub changes only the bias).
//
// This is numeric work on weights, which DESIGN.md decision 1 otherwise excludes: each folded
// weight and bias is computed once (in double, stored in the weight's element type) into a new
// initializer, the weights as produced bytes the writer computes straight into the file; the old
// ones go when unused (dce). Every input must be a constant, so nothing
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

// Elements [first, last) of `w` scaled: element i is in block i / `block` (`block` consecutive
// elements share one channel) and multiplied by f[channel(block)], in w's own float type (the
// product is taken in double and rounded once, like the per-element form). `in` and `out` point at
// element `first`.
template <class T, class Load, class Store, class Channel>
void scale_typed(const uint8_t* in, uint8_t* out, int64_t first, int64_t last, int64_t block,
                 const std::vector<double>& f, const Channel& channel, Load load, Store store) {
  for (int64_t i = first; i < last;) {
    int64_t b = i / block;
    double k = f[static_cast<size_t>(channel(b))];
    for (int64_t end = std::min(last, (b + 1) * block); i < end; ++i) {
      T v;
      std::memcpy(&v, in + (i - first) * sizeof(T), sizeof(T));
      T r = store(load(v) * k);
      std::memcpy(out + (i - first) * sizeof(T), &r, sizeof(T));
    }
  }
}

template <class Channel>
void scale_range(ElementType e, const uint8_t* in, uint8_t* out, int64_t first, int64_t last, int64_t block,
                 const std::vector<double>& f, const Channel& channel) {
  switch (e) {
    case ElementType::Float64:
      scale_typed<double>(in, out, first, last, block, f, channel, [](double v) { return v; },
                          [](double v) { return v; });
      break;
    case ElementType::Float16:
      scale_typed<uint16_t>(
          in, out, first, last, block, f, channel,
          [](uint16_t h) { return static_cast<double>(ir::half_to_float(h)); },
          [](double v) { return ir::float_to_half(static_cast<float>(v)); });
      break;
    default:
      scale_typed<float>(in, out, first, last, block, f, channel, [](float v) { return static_cast<double>(v); },
                         [](double v) { return static_cast<float>(v); });
      break;
  }
}

// `w` scaled per block, as produced bytes (support/bytes.h): nothing is computed here; the writer
// computes them a chunk at a time into the file, split across the cores (a resnet50's folds are
// 100 MB of weights, and fresh pages to hold them whole were most of the fold's time), and a pass
// that reads them gets them computed once. The producer keeps w's bytes alive.
template <class Channel>
Tensor scale_blocks(const Tensor& w, int64_t block, std::vector<double> f, Channel channel) {
  block = std::max<int64_t>(block, 1);
  const size_t unit = ir::storage_bytes(w.dtype(), 1);
  Bytes source = w.bytes();
  ElementType e = w.dtype();
  auto produce = [=, f = std::move(f)](size_t offset, size_t size, uint8_t* out) {
    auto first = static_cast<int64_t>(offset / unit), count = static_cast<int64_t>((size + unit - 1) / unit);
    // A produced w (a transposed kernel) is computed into `out` and scaled there (element by element,
    // so in place): no scratch pages per chunk.
    const uint8_t* in = out;
    if (source.is_produced())
      source.read(offset, size, out);
    else
      in = source.data() + offset;
    parallel_ranges(count, int64_t{1} << 18, [&](int64_t a, int64_t b) {
      scale_range(e, in + a * unit, out + a * unit, first + a, first + b, block, f, channel);
    });
  };
  return Tensor(w.dtype(), w.shape(), Bytes::produced(w.nbytes(), unit, std::move(produce)));
}

// The producer of `x` if it is a foldable op whose only use is the BatchNorm (or the elementwise op).
Node* producer_for(const Value* x, const Node& bn) {
  Node* p = x->producer();
  if (!p || p->graph() != bn.graph() || x->uses().size() != 1 || p->num_outputs() != 1) return nullptr;
  if (p->is("Conv") || p->is("ConvTranspose") || p->is("Gemm") || p->is("MatMul")) return p;
  return nullptr;
}

// The number of output channels of p (the foldable producer), from its weight; nullopt when the
// weight is not a float constant of a layout handled here.
std::optional<int64_t> channels_of(const Node& p, const Value* result) {
  const Value* w = p.input(1);
  if (!w || !w->initializer() || !float_type(w->initializer()->dtype())) return std::nullopt;
  const std::vector<int64_t>& ws = w->initializer()->shape();
  if (p.is("Conv")) {
    if (ws.empty()) return std::nullopt;
    return ws[0];
  }
  if (p.is("ConvTranspose")) {
    if (ws.size() < 2) return std::nullopt;
    return ws[1] * p.attr_int("group", 1);
  }
  if (ws.size() != 2 || result->type().rank() != 2) return std::nullopt;
  bool trans = p.is("Gemm") && p.attr_int("transB", 0);
  return trans ? ws[0] : ws[1];
}

// Makes p compute y * f + shift per output channel (p's weights scaled, its bias replaced; an Add
// after a MatMul, which has no bias), and gives that to the uses of `replaced`'s output, erasing it.
bool apply(Graph& g, Node* p, const std::vector<double>& f, const std::vector<double>& shift, Node& replaced) {
  Value* w = p->input(1);
  const Tensor& wt = *w->initializer();
  const std::vector<int64_t>& ws = wt.shape();
  ElementType e = wt.dtype();
  const auto channels = static_cast<int64_t>(f.size());
  // Old bias (Conv/ConvTranspose input 2, Gemm input 2 scaled by beta).
  std::vector<double> bias(static_cast<size_t>(channels), 0.0);
  Value* old_bias = p->is("MatMul") || p->num_inputs() < 3 ? nullptr : p->input(2);
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
  // folding a large model costs one multiply per weight and one output buffer. A shift alone (an
  // Add) leaves the weights as they are.
  const bool scales = std::any_of(f.begin(), f.end(), [](double k) { return k != 1.0; });
  if (scales) {
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
    p->set_input(1, g.add_initializer(std::move(new_weights), w->name()));
    // A weight this pass made a step earlier (the Mul after an Add) goes now, not at dce: chains of
    // folds then hold one copy of a model's weights at a time.
    if (!w->has_uses() && w->is_initializer() && w->graph() == &g) g.erase_initializer(w);
  }
  std::vector<double> nb(static_cast<size_t>(channels));
  for (size_t c = 0; c < nb.size(); ++c) nb[c] = bias[c] * f[c] + shift[c];
  Value* new_b = g.add_initializer(make(e, {channels}, nb), old_bias ? old_bias->name() : "");
  Value* result = p->output(0);
  if (p->is("MatMul")) {
    Node* add = g.create("", "Add", {p->output(0), new_b}, 1, &replaced);
    add->set_loc(replaced.loc());
    add->set_module_path(replaced.module_path());
    add->output(0)->set_type(replaced.output(0)->type());
    result = add->output(0);
  } else {
    if (p->num_inputs() < 3)
      p->add_input(new_b);
    else
      p->set_input(2, new_b);
    if (p->is("Gemm")) p->remove_attr("beta");
  }
  // The result stands for the replaced node's output (a graph output keeps its name).
  if (!replaced.output(0)->name().empty()) result->set_name(replaced.output(0)->name());
  replaced.output(0)->replace_all_uses_with(result);
  g.erase(&replaced);
  return true;
}

bool fold(Graph& g, Node& bn) {
  if (bn.attr_int("training_mode", 0) != 0) return false;
  for (size_t i = 1; i < bn.num_outputs(); ++i)
    if (bn.output(i) && bn.output(i)->has_uses()) return false;
  Node* p = producer_for(bn.input(0), bn);
  if (!p) return false;
  auto channels = channels_of(*p, bn.input(0));
  if (!channels) return false;
  auto scale = values(bn.input(1), *channels), beta = values(bn.input(2), *channels),
       mean = values(bn.input(3), *channels), var = values(bn.input(4), *channels);
  if (!scale || !beta || !mean || !var) return false;
  double eps = bn.attr_float("epsilon", 1e-5f);
  std::vector<double> f(static_cast<size_t>(*channels)), shift(static_cast<size_t>(*channels));
  for (size_t c = 0; c < f.size(); ++c) {
    f[c] = (*scale)[c] / std::sqrt((*var)[c] + eps);
    shift[c] = (*beta)[c] - (*mean)[c] * f[c];
  }
  return apply(g, p, f, shift, bn);
}

// The per-channel values of a constant operand of a Conv's output (rank r, channels on axis 1): one
// value per channel when every other broadcast dim is 1, else nullopt.
std::optional<std::vector<double>> per_channel(const Value* c, size_t r, int64_t channels, ElementType e) {
  if (!c || !c->initializer() || c->initializer()->dtype() != e) return std::nullopt;
  const std::vector<int64_t>& cs = c->initializer()->shape();
  if (cs.size() > r || r < 2) return std::nullopt;
  int64_t n = 1;
  for (size_t i = 0; i < cs.size(); ++i) {
    size_t axis = r - cs.size() + i;
    if (cs[i] == 1) continue;
    if (axis != 1 || cs[i] != channels) return std::nullopt;
    n = cs[i];
  }
  auto v = values(c, n);
  if (!v) return std::nullopt;
  if (n == 1) v->assign(static_cast<size_t>(channels), (*v)[0]);
  return v;
}

// Mul/Div/Add/Sub of a Conv's (or ConvTranspose's) output by a per-channel constant, as a BatchNorm
// written out by hand (Keras' on its torch backend, once sink_transpose has brought it next to the
// Conv): folded like one.
bool fold_elementwise(Graph& g, Node& op) {
  if (op.num_inputs() != 2 || op.num_outputs() != 1) return false;
  for (size_t k = 0; k < 2; ++k) {
    Node* p = producer_for(op.input(k), op);
    if (!p || !(p->is("Conv") || p->is("ConvTranspose"))) continue;
    auto channels = channels_of(*p, op.input(k));
    const ir::Type& y = op.input(k)->type();
    if (!channels || !y.has_rank()) return false;
    auto c = per_channel(op.input(1 - k), y.rank(), *channels, p->input(1)->initializer()->dtype());
    if (!c) return false;
    std::vector<double> f(c->size(), 1.0), shift(c->size(), 0.0);
    for (size_t i = 0; i < c->size(); ++i) {
      double v = (*c)[i];
      if (op.is("Mul")) {
        f[i] = v;
      } else if (op.is("Add")) {
        shift[i] = v;
      } else if (op.is("Sub")) {
        f[i] = k == 0 ? 1.0 : -1.0;  // y - c, or c - y
        shift[i] = k == 0 ? -v : v;
      } else if (op.is("Div") && k == 0 && v != 0.0) {
        f[i] = 1.0 / v;
      } else {
        return false;
      }
    }
    return apply(g, p, f, shift, op);
  }
  return false;
}

void run(Graph& g) {
  for (Node* n : g.nodes()) {
    for (Graph* r : n->regions()) run(*r);
    if (n->is("BatchNormalization")) {
      fold(g, *n);
    } else if (n->domain().empty() && (n->is("Mul") || n->is("Div") || n->is("Add") || n->is("Sub"))) {
      fold_elementwise(g, *n);
    }
  }
}

}  // namespace

Status fuse_batchnorm(ir::Graph& graph, const PassOptions&) {
  run(graph);
  return Status::ok();
}

}  // namespace onnxify::passes
