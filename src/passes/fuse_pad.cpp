// fuse_pad: a constant Pad folded into the pads of the Conv / AveragePool / MaxPool it feeds (and
// nothing else), where the result is the same:
//   * Conv pads with zeros: a zero Pad folds in;
//   * AveragePool counts the padding it reads when count_include_pad = 1; a zero Pad folds in when
//     the pool already counts its own padding (or has none), then counts all of it;
//   * MaxPool ignores its padding, which equals padding with -inf: only a -inf Pad folds in;
//   * not into pools with ceil_mode, which drop windows that start in their own padding.
// Only spatial dims may be padded (none on N and C), by non-negative amounts, and the pools keep
// each pad below the kernel size (ONNX Runtime requires it).
// A zero Pad that stays in front of a MaxPool / AveragePool (or reaches one through Transposes) gets
// an absent constant_value (zero is the default), which the ONNX writer spells as an explicit empty
// input: ONNX Runtime's own PadFusion folds a Pad whose constant_value is a zero constant (or not
// given at all) into the pool that follows, whatever the pool, which changes a max (its padding
// counts as -inf) or an average that does not count padding, and can break ONNX Runtime's pads <
// kernel check; it leaves a Pad whose constant_value is an empty input alone.
#include <cmath>

#include "passes/match.h"
#include "passes/passes.h"

namespace onnxify::passes {

namespace {

using ir::Graph;
using ir::Node;
using ir::Value;

// The Pad's fill value (0 when absent); nullopt when not a constant scalar.
std::optional<double> pad_value(const Node& pad) {
  const Value* v = pad.num_inputs() > 2 ? pad.input(2) : nullptr;
  if (!v) return 0.0;
  if (!v->initializer() || v->initializer()->numel() != 1) return std::nullopt;
  const ir::Tensor& t = *v->initializer();
  if (!ir::is_float(t.dtype()) && !ir::is_integer(t.dtype())) return std::nullopt;
  return t.float_at(0);
}

bool fuse(Graph& g, Node& pad) {
  if (pad.attr_string("mode", "constant") != "constant" || (pad.num_inputs() > 3 && pad.input(3)))
    return false;
  Value* y = pad.output(0);
  if (y->uses().size() != 1 || !y->uses()[0].user) return false;
  Node& c = *y->uses()[0].user;
  if (c.graph() != &g || c.input(0) != y) return false;
  auto pads = const_ints(pad.input(1));
  auto value = pad_value(pad);
  int64_t r = pads ? static_cast<int64_t>(pads->size() / 2) : 0;
  if (!pads || !value || r < 3) return false;
  for (int64_t i = 0; i < 2 * r; ++i) {
    if ((*pads)[static_cast<size_t>(i)] < 0) return false;
    if ((i % r) < 2 && (*pads)[static_cast<size_t>(i)] != 0) return false;
  }
  if (c.attr_string("auto_pad", "NOTSET") != "NOTSET") return false;
  bool is_conv = c.is("Conv"), is_avg = c.is("AveragePool"), is_max = c.is("MaxPool");
  if (!is_conv && !is_avg && !is_max) return false;
  if (is_conv && *value != 0) return false;
  if (is_max && !(std::isinf(*value) && *value < 0)) return false;
  int64_t sp = r - 2;
  std::vector<int64_t> old = c.attr_ints("pads", std::vector<int64_t>(static_cast<size_t>(2 * sp), 0));
  if (static_cast<int64_t>(old.size()) != 2 * sp) return false;
  // ceil_mode drops windows that start in the padding: padding folded in would change the count.
  if (!is_conv && c.attr_int("ceil_mode", 0)) return false;
  if (is_avg) {
    if (*value != 0) return false;
    bool old_zero = true;
    for (int64_t p : old) old_zero = old_zero && p == 0;
    if (!old_zero && !c.attr_int("count_include_pad", 0)) return false;
  }
  std::vector<int64_t> merged(old.size());
  std::vector<int64_t> kernel = c.attr_ints("kernel_shape");
  for (int64_t i = 0; i < sp; ++i) {
    merged[static_cast<size_t>(i)] = old[static_cast<size_t>(i)] + (*pads)[static_cast<size_t>(2 + i)];
    merged[static_cast<size_t>(sp + i)] =
        old[static_cast<size_t>(sp + i)] + (*pads)[static_cast<size_t>(r + 2 + i)];
    if (!is_conv && static_cast<int64_t>(kernel.size()) == sp &&
        (merged[static_cast<size_t>(i)] >= kernel[static_cast<size_t>(i)] ||
         merged[static_cast<size_t>(sp + i)] >= kernel[static_cast<size_t>(i)]))
      return false;
  }
  c.set_attr("pads", merged);
  if (is_avg) c.set_attr("count_include_pad", int64_t{1});
  c.set_input(0, pad.input(0));
  g.erase(&pad);
  return true;
}

// Whether `v` reaches a MaxPool / AveragePool as its data, directly or through Transposes: ONNX
// Runtime's transpose optimizer moves those out of the way before PadFusion runs (a channels-last
// model's pad, transpose to NCHW, pool: Keras' ZeroPadding2D + MaxPooling2D).
bool feeds_pool(const Value* v, int depth = 0) {
  for (const ir::Use& u : v->uses()) {
    if (!u.user || u.index != 0) continue;
    if (u.user->is("MaxPool") || u.user->is("AveragePool")) return true;
    if (u.user->is("Transpose") && depth < 4 && feeds_pool(u.user->output(0), depth + 1)) return true;
  }
  return false;
}

// The zero Pad `pad` stays in front of a pool: its constant_value becomes absent (see the top).
void keep_apart(Node& pad) {
  if (pad.attr_string("mode", "constant") != "constant" || pad.num_inputs() < 2) return;
  auto value = pad_value(pad);
  if (!value || *value != 0) return;
  if (!feeds_pool(pad.output(0))) return;
  if (pad.num_inputs() == 2) pad.add_input(nullptr);
  else pad.set_input(2, nullptr);
}

void run(Graph& g) {
  for (Node* n : g.nodes()) {
    for (Graph* r : n->regions()) run(*r);
    if (n->is("Pad") && !fuse(g, *n)) keep_apart(*n);
  }
}

}  // namespace

Status fuse_pad(ir::Graph& graph, const PassOptions&) {
  run(graph);
  return Status::ok();
}

}  // namespace onnxify::passes
