// Opset conversion (onnx.h: convert_opset): from the canonical opset-17 forms to any opset in
// 13..26, one function per op family (conversions.def). Nodes are rewritten in place or replaced by
// an equivalent expansion; where an opset cannot express a node (a reduction ScatterElements below
// 16, GridSample below 16, ...) the node is reported with its source line and the opset it needs.
#include <fmt/core.h>

#include <limits>

#include "ir/onnx_versions.h"
#include "ir/verifier.h"
#include "onnx/lower/builder.h"
#include "onnx/onnx.h"

namespace onnxify {

namespace {

using ir::Node;
using ir::Value;
using lowering::Attrs;
using lowering::Builder;

struct Converter {
  int opset;
  DiagnosticList diagnostics;
  void error(const Node& n, const std::string& msg, int needs) {
    Diagnostic d = ir::node_diagnostic(n, msg);
    if (needs) d.with_help(fmt::format("choose --opset {} or later", needs));
    diagnostics.add(std::move(d));
  }
};

// Replaces n's single output with v and erases n.
void replace(Node& n, Value* v) {
  Value* old = n.output(0);
  if (old->type().is_tensor() && v->producer()) v->set_type(old->type());
  if (!old->name().empty() && v->producer() && v->name().empty()) v->set_name(old->name());
  old->replace_all_uses_with(v);
  n.graph()->erase(&n);
}

void convert_reduce_axes(Node& n, Converter& cv) {
  if (cv.opset >= 18) {
    if (const ir::Attribute* a = n.attr("axes")) {
      std::vector<int64_t> axes = a->ints();
      n.remove_attr("axes");
      Builder b(n);
      n.add_input(b.i64(axes));
    }
    return;
  }
  if (n.num_inputs() < 2 || !n.input(1)) return;
  auto axes = Builder::const_ints(n.input(1));
  if (!axes) {
    cv.error(n, fmt::format("{} with axes computed at run time needs opset 18", n.op_type()), 18);
    return;
  }
  n.remove_input(1);
  if (!axes->empty() || !n.attr_int("noop_with_empty_axes", 0)) n.set_attr("axes", *axes);
  n.remove_attr("noop_with_empty_axes");
}

void convert_split(Node& n, Converter& cv) {
  bool has_split = n.num_inputs() > 1 && n.input(1);
  if (cv.opset >= 18) {
    if (!has_split && !n.attr("num_outputs"))
      n.set_attr("num_outputs", static_cast<int64_t>(n.num_outputs()));
    return;
  }
  const ir::Attribute* no = n.attr("num_outputs");
  if (!no) return;
  int64_t parts = no->i();
  n.remove_attr("num_outputs");
  if (has_split) return;
  int64_t axis = n.attr_int("axis", 0);
  auto d = Builder::static_dim(n.input(0), axis);
  if (!d) {
    cv.error(n, "Split into num_outputs parts of a dim unknown at conversion time needs opset 18", 18);
    return;
  }
  if (*d % parts == 0) return;  // equal parts: the default without a split input
  int64_t chunk = (*d + parts - 1) / parts;
  std::vector<int64_t> sizes(static_cast<size_t>(parts), chunk);
  sizes.back() = *d - chunk * (parts - 1);
  Builder b(n);
  if (n.num_inputs() < 2)
    n.add_input(b.i64(sizes));
  else
    n.set_input(1, b.i64(sizes));
}

void convert_shape(Node& n, Converter& cv) {
  if (cv.opset >= 15 || (!n.attr("start") && !n.attr("end"))) return;
  Builder b(n);
  int64_t start = n.attr_int("start", 0), end = n.attr_int("end", std::numeric_limits<int64_t>::max());
  Value* full = b.op("Shape", {n.input(0)});
  replace(n, b.slice(full, {start}, {end}, {0}));
}

// 1-D int64 [0, n): a constant when n is static.
Value* iota(Builder& b, Value* x, int64_t axis) {
  if (auto d = Builder::static_dim(x, axis)) {
    std::vector<int64_t> v(static_cast<size_t>(*d));
    for (int64_t i = 0; i < *d; ++i) v[static_cast<size_t>(i)] = i;
    return b.i64(v);
  }
  Value* len = b.squeeze(b.dim(x, axis), {0});
  return b.op("Range", {b.i64_scalar(0), len, b.i64_scalar(1)});
}

void convert_trilu(Node& n, Converter& cv) {
  if (cv.opset >= 14) return;
  Value* x = n.input(0);
  if (Builder::rank(x) < 2) {
    cv.error(n, "Trilu of an input of unknown rank needs opset 14", 14);
    return;
  }
  Builder b(n);
  Value* rows = b.unsqueeze(iota(b, x, -2), {1});
  Value* cols = b.unsqueeze(iota(b, x, -1), {0});
  Value* diag = b.op("Sub", {cols, rows});
  Value* k = n.num_inputs() > 1 && n.input(1) ? n.input(1) : b.i64_scalar(0);
  bool upper = n.attr_int("upper", 1) != 0;
  Value* keep = b.op(upper ? "GreaterOrEqual" : "LessOrEqual", {diag, k});
  if (Builder::elem(x) == ir::ElementType::Bool) {
    replace(n, b.op("And", {keep, x}));  // ONNX Runtime has no bool Where
    return;
  }
  Value* zero = b.scalar(0, Builder::elem(x));
  replace(n, b.op("Where", {keep, x, zero}));
}

void convert_hardswish(Node& n, Converter& cv) {
  if (cv.opset >= 14) return;
  Builder b(n);
  Value* x = n.input(0);
  Value* hs = b.op("HardSigmoid", {x}, Attrs().f("alpha", 1.0f / 6).f("beta", 0.5f));
  replace(n, b.op("Mul", {x, hs}));
}

// 14: Add/Sub/Mul/Div gained int8, int16, uint8 and uint16, Relu gained integer types. Below 14
// the arithmetic runs in int32 and is cast back: the narrowing Cast wraps modulo 2^bits like
// PyTorch's fixed-width integer arithmetic (values of these types never overflow int32 here).
// Integer Relu is Max with zero.
void convert_small_int_arith(Node& n, Converter& cv) {
  if (cv.opset >= 14 || n.num_outputs() != 1) return;
  ir::ElementType t = Builder::elem(n.output(0));
  bool is_relu = n.is("Relu");
  bool small = t == ir::ElementType::Int8 || t == ir::ElementType::Int16 || t == ir::ElementType::UInt8 ||
               t == ir::ElementType::UInt16;
  if (!(small || (is_relu && (t == ir::ElementType::Int32 || t == ir::ElementType::Int64)))) return;
  Builder b(n);
  if (is_relu) {
    replace(n, b.op("Max", {n.input(0), b.scalar(0, t)}));
    return;
  }
  std::vector<Value*> wide;
  for (size_t i = 0; i < n.num_inputs(); ++i)
    wide.push_back(b.op("Cast", {n.input(i)}, Attrs().i("to", ir::info(ir::ElementType::Int32).onnx)));
  Value* r = b.op(n.op_type(), wide);
  replace(n, b.op("Cast", {r}, Attrs().i("to", ir::info(t).onnx)));
}

void convert_reshape(Node& n, Converter& cv) {
  if (cv.opset >= 14 || !n.attr("allowzero")) return;
  if (n.attr_int("allowzero", 0)) {
    auto shape = Builder::const_ints(n.input(1));
    bool zero = !shape;
    if (shape)
      for (int64_t s : *shape) zero = zero || s == 0;
    if (zero) {
      cv.error(n, "Reshape with allowzero = 1 and a zero (or unknown) target dim needs opset 14", 14);
      return;
    }
  }
  n.remove_attr("allowzero");
}

void convert_batchnorm(Node& n, Converter& cv) {
  if (cv.opset >= 14 || !n.attr("training_mode")) return;
  if (n.attr_int("training_mode", 0)) {
    cv.error(n, "BatchNormalization in training mode needs opset 14", 14);
    return;
  }
  n.remove_attr("training_mode");
}

void convert_rnn_layout(Node& n, Converter& cv) {
  if (cv.opset >= 14 || !n.attr("layout")) return;
  if (n.attr_int("layout", 0)) {
    cv.error(n, fmt::format("{} with layout = 1 (batch first) needs opset 14", n.op_type()), 14);
    return;
  }
  n.remove_attr("layout");
}

void convert_cast_like(Node& n, Converter& cv) {
  if (cv.opset >= 15) return;
  ir::ElementType to = Builder::elem(n.input(1));
  if (to == ir::ElementType::Undefined) {
    cv.error(n, "CastLike to a type unknown at conversion time needs opset 15", 15);
    return;
  }
  Builder b(n);
  replace(n, b.op("Cast", {n.input(0)}, Attrs().i("to", ir::info(to).onnx)));
}

void convert_scatter_reduction(Node& n, Converter& cv) {
  std::string r = n.attr_string("reduction", "none");
  if (r == "none") {
    if (cv.opset < 16) n.remove_attr("reduction");
    return;
  }
  int needs = (r == "max" || r == "min") ? 18 : 16;
  if (cv.opset < needs)
    cv.error(n, fmt::format("{} with reduction '{}' needs opset {}", n.op_type(), r, needs), needs);
}

void convert_grid_sample(Node& n, Converter& cv) {
  if (cv.opset < 16) {
    cv.error(n, "GridSample needs opset 16", 16);
    return;
  }
  std::string mode = n.attr_string("mode", "bilinear");
  if (cv.opset >= 20) {
    if (mode == "bilinear") n.set_attr("mode", "linear");
    if (mode == "bicubic") n.set_attr("mode", "cubic");
  } else {
    if (mode == "linear") n.set_attr("mode", "bilinear");
    if (mode == "cubic") n.set_attr("mode", "bicubic");
  }
}

void convert_roi_align(Node& n, Converter& cv) {
  if (cv.opset >= 16 || !n.attr("coordinate_transformation_mode")) return;
  if (n.attr_string("coordinate_transformation_mode", "") == "half_pixel") {
    cv.error(n, "RoiAlign with half_pixel coordinates (aligned=True) needs opset 16", 16);
    return;
  }
  n.remove_attr("coordinate_transformation_mode");
}

void convert_average_pool(Node& n, Converter& cv) {
  if (cv.opset >= 19 || !n.attr("dilations")) return;
  for (int64_t d : n.attr_ints("dilations"))
    if (d != 1) {
      cv.error(n, "AveragePool with dilations needs opset 19", 19);
      return;
    }
  n.remove_attr("dilations");
}

void convert_pad(Node& n, Converter& cv) {
  if (cv.opset < 19 && n.attr_string("mode", "constant") == "wrap") {
    cv.error(n, "Pad in wrap mode needs opset 19", 19);
    return;
  }
  if (cv.opset >= 18 || n.num_inputs() < 4 || !n.input(3)) return;
  auto axes = Builder::const_ints(n.input(3));
  auto pads = Builder::const_ints(n.input(1));
  int64_t r = Builder::rank(n.input(0));
  if (!axes || !pads || r < 0) {
    cv.error(n, "Pad with an axes input computed at run time needs opset 18", 18);
    return;
  }
  std::vector<int64_t> full(static_cast<size_t>(2 * r), 0);
  for (size_t i = 0; i < axes->size(); ++i) {
    int64_t a = (*axes)[i] < 0 ? (*axes)[i] + r : (*axes)[i];
    full[static_cast<size_t>(a)] = (*pads)[i];
    full[static_cast<size_t>(a + r)] = (*pads)[i + axes->size()];
  }
  Builder b(n);
  n.set_input(1, b.i64(full));
  n.remove_input(3);
}

void convert_resize(Node& n, Converter& cv) {
  if (cv.opset < 19 && n.attr_string("coordinate_transformation_mode", "") == "half_pixel_symmetric") {
    cv.error(n, "Resize with half_pixel_symmetric coordinates needs opset 19", 19);
    return;
  }
  if (cv.opset >= 18) return;
  if (n.attr_int("antialias", 0)) {
    cv.error(n, "Resize with antialias needs opset 18", 18);
    return;
  }
  if (n.attr("axes")) {
    cv.error(n, "Resize with an axes attribute needs opset 18", 18);
    return;
  }
  if (n.attr_string("keep_aspect_ratio_policy", "stretch") != "stretch") {
    cv.error(n, "Resize with keep_aspect_ratio_policy needs opset 18", 18);
    return;
  }
  n.remove_attr("antialias");
  n.remove_attr("keep_aspect_ratio_policy");
}

void convert_dft(Node& n, Converter& cv) {
  if (cv.opset < 17) {
    cv.error(n, "the discrete Fourier transform (torch.fft) needs ONNX DFT, which arrived in opset 17", 17);
    return;
  }
  if (cv.opset < 20) return;
  int64_t axis = n.attr_int("axis", 1);
  n.remove_attr("axis");
  Builder b(n);
  if (n.num_inputs() < 2) n.add_input(nullptr);  // dft_length: absent
  n.add_input(b.i64_scalar(axis));
}

void convert_cast(Node& n, Converter& cv) {
  if (cv.opset < 19) n.remove_attr("saturate");
}

using Conversion = void (*)(Node&, Converter&);

Conversion find_conversion(std::string_view op) {
#define ONNXIFY_CONVERSION(name, fn) \
  if (op == #name) return &fn;
#include "onnx/opset/conversions.def"
#undef ONNXIFY_CONVERSION
  return nullptr;
}

void convert_graph(ir::Graph& g, Converter& cv) {
  for (Node* n : g.nodes()) {
    for (ir::Graph* r : n->regions()) convert_graph(*r, cv);
    if (!n->domain().empty() && n->domain() != "ai.onnx") continue;
    if (Conversion c = find_conversion(n->op_type())) {
      c(*n, cv);
      continue;
    }
    int first = ir::onnx_op_first_opset(n->op_type());
    if (first > cv.opset)
      cv.error(
          *n,
          fmt::format("{} is not in ONNX opset {} (it arrived in opset {})", n->op_type(), cv.opset, first),
          first);
  }
}

}  // namespace

Status convert_opset(ir::Graph& graph, int opset, DiagnosticList* all) {
  if (opset < kMinOpset || opset > kMaxOpset)
    return Status::error(fmt::format("opset {} is outside {}..{}", opset, kMinOpset, kMaxOpset));
  Converter cv{opset, {}};
  convert_graph(graph, cv);
  if (all)
    for (const Diagnostic& d : cv.diagnostics.items()) all->add(d);
  if (cv.diagnostics.empty()) return Status::ok();
  return Status(cv.diagnostics.items().front());
}

}  // namespace onnxify
