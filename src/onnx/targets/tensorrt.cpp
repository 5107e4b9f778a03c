// tensorrt: the TensorRT ONNX parser (onnx-tensorrt), as documented for TensorRT 10.15 (opsets
// 9..24) and 8.5/8.6 (opsets up to 17; --trt-version 8.x). The op table is tensorrt_ops.def; the
// restriction functions below encode the documented limits exporters commonly hit (pooling only
// 2-d/3-d without dilation, no MaxPool Indices output, no MaxUnpool, Resize without cubic or
// antialias, axes/K/depth as build-time constants, If branches of equal rank, Loop scan outputs of
// static length, ...). Building engines is out of scope: this is a static check.
//
// The lowering rules read the capabilities: max-pool indices and max_unpool use windowed slices +
// ArgMax and ScatterElements instead, 1-d pools run as 2-d ones, ceil_mode becomes explicit
// padding (TensorRT's rounding of ceil_mode is not documented to drop windows that start in the
// right padding, as PyTorch does), bicubic resize becomes interpolation matrices.
#include <fmt/core.h>

#include <sstream>

#include "onnx/targets/target.h"

namespace onnxify::targets {

namespace {

using ir::Node;
using ir::Value;

enum class Port : uint8_t { i0, i1, i2, o0, io, none };
using Check = std::string (*)(const Node&, const TargetContext&);

bool is_const(const Value* v) {
  return v && (v->initializer() || (v->producer() && v->producer()->is("Constant")));
}

bool trt10(const TargetContext& c) { return c.trt_major >= 10; }

int64_t rank_of(const Value* v) {
  return v && v->type().is_tensor() && v->type().has_rank() ? static_cast<int64_t>(v->type().rank()) : -1;
}

bool all_ones(const Node& n, const char* attr) {
  for (int64_t d : n.attr_ints(attr))
    if (d != 1) return false;
  return true;
}

bool output_used(const Node& n, size_t i) {
  return i < n.num_outputs() && n.output(i) && n.output(i)->has_uses();
}

std::string none(const Node&, const TargetContext&) { return ""; }

std::string check_pool(const Node& n, const TargetContext&) {
  int64_t r = rank_of(n.input(0));
  if (r >= 0 && r != 4 && r != 5)
    return fmt::format("{} supports 2-d and 3-d pooling only (input rank {})", n.op_type(), r);
  if (!all_ones(n, "dilations"))
    return fmt::format("{} does not support dilations other than 1", n.op_type());
  return "";
}

std::string check_max_pool(const Node& n, const TargetContext& c) {
  if (n.num_outputs() > 1 && n.output(1)) return "MaxPool's Indices output is not supported";
  return check_pool(n, c);
}

std::string check_lp_pool(const Node& n, const TargetContext&) {
  return all_ones(n, "dilations") ? "" : "LpPool does not support dilations other than 1";
}

std::string check_attention(const Node& n, const TargetContext&) {
  for (size_t i = 0; i < 4 && i < n.num_inputs(); ++i) {
    int64_t r = rank_of(n.input(i));
    if (n.input(i) && r >= 0 && r != 4)
      return fmt::format("Attention needs 4-d Q, K, V and attn_mask (input {} has rank {})", i, r);
  }
  for (size_t i = 4; i < n.num_inputs(); ++i)
    if (n.input(i)) return "Attention's past_key, past_value and nonpad_kv_seqlen inputs are not supported";
  for (size_t i = 1; i < n.num_outputs(); ++i)
    if (n.output(i))
      return "Attention's present_key, present_value and qk_matmul_output outputs are not supported";
  if (n.attr("qk_matmul_output_mode") || n.attr("softcap"))
    return "Attention's qk_matmul_output_mode and softcap attributes are not supported";
  return "";
}

std::string check_constant(const Node& n, const TargetContext&) {
  if (n.attr("sparse_value") || n.attr("value_string") || n.attr("value_strings"))
    return "Constant's sparse_value, value_string and value_strings are not supported";
  return "";
}

std::string check_conv(const Node& n, const TargetContext& c) {
  if (!trt10(c)) {
    int64_t r = rank_of(n.input(0));
    if (r >= 0 && r != 4 && r != 5)
      return fmt::format("{} supports 2-d and 3-d convolutions only", n.op_type());
  }
  return "";
}

std::string check_cumsum(const Node& n, const TargetContext&) {
  return is_const(n.input(1)) ? "" : "CumSum's axis must be a build-time constant";
}

std::string check_deform_conv(const Node& n, const TargetContext&) {
  int64_t r = rank_of(n.input(0));
  if (r >= 0 && r != 3 && r != 4) return "DeformConv supports 1-d and 2-d spatial input only";
  std::vector<int64_t> p = n.attr_ints("pads");
  for (size_t i = 0; i < p.size() / 2; ++i)
    if (p[i] != p[i + p.size() / 2]) return "DeformConv needs equal begin and end pads";
  return "";
}

std::string check_zero_point(const Node& n, const TargetContext&) {
  const Value* z = n.input(2);
  if (!z) return "";
  if (!z->initializer()) return fmt::format("{}'s zero point must be a constant zero", n.op_type());
  for (int64_t i = 0; i < z->initializer()->numel(); ++i)
    if (z->initializer()->float_at(i) != 0) return fmt::format("{}'s zero point must be zero", n.op_type());
  return "";
}

std::string check_dropout(const Node& n, const TargetContext&) {
  const Value* t = n.input(2);
  if (!t) return "";
  if (!t->initializer() || t->initializer()->numel() != 1 || t->initializer()->int_at(0) != 0)
    return "Dropout's training_mode must be a constant false";
  return "";
}

std::string check_einsum(const Node& n, const TargetContext& c) {
  if (trt10(c)) return "";
  std::string eq = n.attr_string("equation", "");
  if (eq.find("...") != std::string::npos) return "Einsum with an ellipsis is not supported by TensorRT 8";
  std::string lhs = eq.substr(0, eq.find("->"));
  std::istringstream terms(lhs);
  std::string term;
  while (std::getline(terms, term, ',')) {
    std::string seen;
    for (char ch : term) {
      if (ch == ' ') continue;
      if (seen.find(ch) != std::string::npos)
        return "Einsum diagonal operations are not supported by TensorRT 8";
      seen += ch;
    }
  }
  return "";
}

std::string check_static_input(const Node& n, const TargetContext&) {
  const Value* x = n.input(0);
  return x && x->type().is_static() ? "" : fmt::format("{} needs an input of static shape", n.op_type());
}

std::string check_grid_sample(const Node& n, const TargetContext&) {
  int64_t r = rank_of(n.input(0));
  return r < 0 || r == 4 ? "" : "GridSample supports 4-d input only";
}

std::string check_rnn(const Node& n, const TargetContext&) {
  if (n.attr_string("direction", "forward") != "bidirectional") return "";
  std::vector<std::string> acts;
  if (const ir::Attribute* a = n.attr("activations"); a && a->kind() == ir::AttrKind::Strings)
    acts = a->strings();
  size_t half = acts.size() / 2;
  for (size_t i = 0; i < half; ++i)
    if (acts[i] != acts[i + half])
      return fmt::format("bidirectional {} needs the same activations in both directions", n.op_type());
  return "";
}

std::string check_lstm(const Node& n, const TargetContext& c) {
  if (trt10(c) && n.attr_int("input_forget", 0) != 0) return "LSTM's input_forget must be 0";
  if (trt10(c) && n.attr_int("layout", 0) != 0) return "LSTM's layout must be 0";
  return check_rnn(n, c);
}

std::string check_hardmax(const Node& n, const TargetContext&) {
  const Value* x = n.input(0);
  int64_t r = rank_of(x);
  if (r < 0) return "";
  int64_t axis = n.attr_int("axis", -1);
  if (axis < 0) axis += r;
  return x->type().dim(static_cast<size_t>(axis)).is_const() ? "" : "Hardmax needs a static size along axis";
}

std::string check_if(const Node& n, const TargetContext&) {
  const ir::Attribute* t = n.attr("then_branch");
  const ir::Attribute* e = n.attr("else_branch");
  if (!t || !e || t->kind() != ir::AttrKind::Graph || e->kind() != ir::AttrKind::Graph) return "";
  const ir::Graph& tg = t->g();
  const ir::Graph& eg = e->g();
  for (size_t i = 0; i < tg.num_outputs() && i < eg.num_outputs(); ++i) {
    int64_t a = rank_of(tg.output(i)), b = rank_of(eg.output(i));
    if (a >= 0 && b >= 0 && a != b)
      return fmt::format(
          "If output {} has rank {} in then_branch but {} in else_branch; TensorRT needs equal ranks", i, a,
          b);
  }
  return "";
}

std::string check_instance_norm(const Node& n, const TargetContext& c) {
  if (trt10(c)) return "";
  if (!is_const(n.input(1)) || !is_const(n.input(2)))
    return "InstanceNormalization's scale and B must be initializers for TensorRT 8";
  int64_t r = rank_of(n.input(0));
  if (r >= 0 && (r < 3 || r > 5)) return "InstanceNormalization needs input rank 3 to 5 for TensorRT 8";
  return "";
}

std::string check_layer_norm(const Node& n, const TargetContext&) {
  return output_used(n, 1) || output_used(n, 2) ? "LayerNormalization supports only the first output (Y)"
                                                : "";
}

std::string check_loop(const Node& n, const TargetContext&) {
  const ir::Attribute* b = n.attr("body");
  if (!b || b->kind() != ir::AttrKind::Graph || n.num_inputs() < 2) return "";
  const ir::Graph& body = b->g();
  size_t carried = n.num_inputs() - 2;
  bool scans = n.num_outputs() > carried;
  if (scans && !is_const(n.input(0)))
    return "Loop scan outputs need a build-time constant trip count (their length cannot be dynamic)";
  for (size_t i = 0; i < carried && 2 + i < body.num_inputs() && 1 + i < body.num_outputs(); ++i) {
    const ir::Type& in = body.input(2 + i)->type();
    const ir::Type& out = body.output(1 + i)->type();
    if (in.is_tensor() && out.is_tensor() && in.has_rank() && out.has_rank() && in != out)
      return fmt::format(
          "Loop-carried value {} changes shape between iterations ({} -> {}); TensorRT needs the same "
          "shape in every iteration",
          i, in.str(), out.str());
  }
  return "";
}

std::string check_one_hot(const Node& n, const TargetContext&) {
  return is_const(n.input(1)) ? "" : "OneHot's depth must be a build-time constant";
}

std::string check_range(const Node& n, const TargetContext& c) {
  if (trt10(c)) return "";
  for (size_t i = 0; i < 3; ++i) {
    const Value* v = n.input(i);
    if (v && v->type().is_tensor() && ir::is_float(v->type().elem()) && !is_const(v))
      return "Range with floating-point inputs needs start, limit and delta as initializers (TensorRT 8)";
  }
  return "";
}

std::string check_reduce(const Node& n, const TargetContext&) {
  return n.num_inputs() < 2 || !n.input(1) || is_const(n.input(1))
             ? ""
             : fmt::format("{}'s axes must be an initializer", n.op_type());
}

std::string check_resize(const Node& n, const TargetContext&) {
  std::string ct = n.attr_string("coordinate_transformation_mode", "half_pixel");
  if (ct != "half_pixel" && ct != "pytorch_half_pixel" && ct != "tf_half_pixel_for_nn" &&
      ct != "asymmetric" && ct != "align_corners")
    return fmt::format("Resize coordinate_transformation_mode '{}' is not supported", ct);
  std::string mode = n.attr_string("mode", "nearest");
  if (mode != "nearest" && mode != "linear") return fmt::format("Resize mode '{}' is not supported", mode);
  std::string nm = n.attr_string("nearest_mode", "round_prefer_floor");
  if (mode == "nearest" && nm != "floor" && nm != "ceil" && nm != "round_prefer_floor" &&
      nm != "round_prefer_ceil")
    return fmt::format("Resize nearest_mode '{}' is not supported", nm);
  if (n.attr_int("antialias", 0)) return "Resize antialiasing is not supported";
  if (n.attr_string("keep_aspect_ratio_policy", "stretch") != "stretch")
    return "Resize keep_aspect_ratio_policy other than stretch is not supported";
  if (const ir::Attribute* axes = n.attr("axes"); axes && n.input(2)) {
    const auto& a = axes->ints();
    for (size_t i = 0; i < a.size(); ++i)
      if (a[i] != static_cast<int64_t>(i) || static_cast<int64_t>(a.size()) != rank_of(n.input(0)))
        return "Resize with a scales input needs axes to be 0, 1, ..., rank - 1";
  }
  return "";
}

std::string check_reverse_sequence(const Node& n, const TargetContext& c) {
  if (trt10(c)) return "";
  return check_static_input(n, c);
}

std::string check_rotary(const Node& n, const TargetContext&) {
  const Value* p = n.input(3);
  return !p || !p->type().is_tensor() || p->type().elem() == ir::ElementType::Int64
             ? ""
             : "RotaryEmbedding's position_ids must be int64";
}

std::string check_stft(const Node& n, const TargetContext&) {
  if (!is_const(n.input(1)) || (n.input(2) && !is_const(n.input(2))))
    return "STFT's frame_step and window must be initializers";
  return "";
}

std::string check_scatter_nd(const Node& n, const TargetContext&) {
  return n.attr_string("reduction", "none") == "none" ? "" : "ScatterND with a reduction is not supported";
}

std::string check_slice(const Node& n, const TargetContext& c) {
  if (trt10(c)) return "";
  return !n.input(3) || is_const(n.input(3)) ? "" : "Slice's axes must be an initializer (TensorRT 8)";
}

std::string check_axes_input(const Node& n, const TargetContext&) {
  return n.num_inputs() < 2 || !n.input(1) || is_const(n.input(1))
             ? ""
             : fmt::format("{}'s axes must be resolvable to a constant", n.op_type());
}

std::string check_tensor_scatter(const Node& n, const TargetContext&) {
  if (rank_of(n.input(0)) != 4 || rank_of(n.input(1)) != 4)
    return "TensorScatter needs 4-d past_cache and update";
  return n.attr_int("axis", -2) == -2 ? "" : "TensorScatter's axis must be -2";
}

std::string check_top_k(const Node& n, const TargetContext& c) {
  if (n.attr_int("sorted", 1) != 1) return "TopK needs sorted = 1";
  const Value* k = n.input(1);
  if (!k || !k->initializer()) return "TopK's K must be an initializer";
  if (trt10(c) && k->initializer()->numel() == 1 && k->initializer()->int_at(0) >= 3840)
    return "TopK's K must be less than 3840";
  return "";
}

struct Row {
  std::string_view op;
  bool trt10, trt8;
  std::string_view types10, types8;
  Port port;
  Check check;
};

constexpr bool Y = true, N = false;

const Row kRows[] = {
#define TRT_OP(op, t10, t8, ty10, ty8, port, check) {#op, t10, t8, ty10, ty8, Port::port, &check},
#include "onnx/targets/tensorrt_ops.def"
#undef TRT_OP
};

const Row* find_row(std::string_view op) {
  for (const Row& r : kRows)
    if (r.op == op) return &r;
  return nullptr;
}

// The parser's name for an element type; float64 (and int64 for TensorRT 8) are cast down.
std::string_view type_key(ir::ElementType e, const TargetContext& c) {
  using ir::ElementType;
  switch (e) {
    case ElementType::Float32:
    case ElementType::Float64:
      return "f32";
    case ElementType::Float16:
      return "f16";
    case ElementType::BFloat16:
      return "bf16";
    case ElementType::Int32:
      return "i32";
    case ElementType::Int64:
      return trt10(c) ? "i64" : "i32";
    case ElementType::Int8:
      return "i8";
    case ElementType::UInt8:
      return "u8";
    case ElementType::Bool:
      return "bool";
    case ElementType::Float8E4M3FN:
    case ElementType::Float8E4M3FNUZ:
    case ElementType::Float8E5M2:
    case ElementType::Float8E5M2FNUZ:
      return "fp8";
    case ElementType::Float4E2M1:
      return "fp4";
    case ElementType::Int4:
    case ElementType::UInt4:
      return "i4";
    default:
      return "?";
  }
}

bool type_listed(std::string_view list, std::string_view key) {
  size_t pos = 0;
  while (pos < list.size()) {
    size_t end = list.find(' ', pos);
    if (end == std::string_view::npos) end = list.size();
    if (list.substr(pos, end - pos) == key) return true;
    pos = end + 1;
  }
  return false;
}

std::string check_types(const Node& n, const Row& r, const TargetContext& c) {
  std::string_view list = trt10(c) ? r.types10 : r.types8;
  auto one = [&](const Value* v, const char* what) -> std::string {
    if (!v || !v->type().is_tensor() || v->type().elem() == ir::ElementType::Undefined) return "";
    std::string_view key = type_key(v->type().elem(), c);
    if (type_listed(list, key)) return "";
    return fmt::format("{} does not support {} of type {} (supported: {})", n.op_type(), what,
                       ir::to_string(v->type().elem()), list);
  };
  switch (r.port) {
    case Port::i0:
      return one(n.input(0), "input 0");
    case Port::i1:
      return one(n.input(1), "input 1");
    case Port::i2:
      return one(n.input(2), "input 2");
    case Port::o0:
      return n.num_outputs() ? one(n.output(0), "output 0") : "";
    case Port::io: {
      std::string s = one(n.input(0), "input 0");
      return s.empty() && n.num_outputs() ? one(n.output(0), "output 0") : s;
    }
    case Port::none:
      return "";
  }
  return "";
}

int min_opset(const TargetContext&) { return 13; }
int max_opset(const TargetContext& c) { return trt10(c) ? 24 : 17; }

Capabilities capabilities(const TargetContext& c) {
  Capabilities k;
  k.maxpool_indices = false;
  k.maxunpool = false;
  k.pool_1d = false;
  k.pool_dilation = false;
  k.pool_ceil_mode = false;
  k.resize_cubic = false;
  k.resize_antialias = false;
  k.int64 = trt10(c);
  return k;
}

bool prefers(std::string_view, std::string_view onnx_op, const TargetContext& c) {
  const Row* r = find_row(onnx_op);
  return r && (trt10(c) ? r->trt10 : r->trt8);
}

std::string check(const Node& n, const TargetContext& c) {
  if (!n.domain().empty() && n.domain() != "ai.onnx")
    return fmt::format("ops of domain '{}' are not supported (only plugins could run them)", n.domain());
  const Row* r = find_row(n.op_type());
  if (!r || !(trt10(c) ? r->trt10 : r->trt8))
    return fmt::format("{} is not supported by the TensorRT {}.{} ONNX parser", n.op_type(), c.trt_major,
                       c.trt_minor);
  if (std::string s = check_types(n, *r, c); !s.empty()) return s;
  return r->check(n, c);
}

}  // namespace

const TargetProfile kTensorRT{
    "tensorrt",    "the TensorRT ONNX parser (10.15: opsets 9..24; --trt-version 8.x: up to 17)",
    &min_opset,    &max_opset,
    &capabilities, &prefers,
    &check,        standard_pipeline()};

}  // namespace onnxify::targets
