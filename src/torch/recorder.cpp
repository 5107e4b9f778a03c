#include "torch/recorder.h"

#include <fmt/core.h>

#include "torch/dtype.h"

namespace onnxify::torch {

using ir::DimExpr;
using ir::DimOp;
using ir::ElementType;

Recorder::Recorder(eval::Interp& I) : I_(I), main_(std::make_unique<ir::Graph>("main")) {
  regions_.push_back(main_.get());
}

const std::string* Recorder::module_path(eval::Object* module) const {
  auto it = paths_.find(module);
  return it == paths_.end() ? nullptr : &it->second;
}

void Recorder::push_scope(eval::Object* module) {
  // A module the driver did not name (made inside forward, or not reachable through
  // named_modules) records under its caller's path.
  const std::string* p = module_path(module);
  scopes_.push_back(p ? *p : scope());
}

void Recorder::pop_scope() {
  if (!scopes_.empty()) scopes_.pop_back();
}

const std::string& Recorder::scope() const {
  static const std::string empty;
  return scopes_.empty() ? empty : scopes_.back();
}

SourceRange Recorder::location() const { return I_.user_range(); }

ir::Node* Recorder::node(std::string_view op, const std::vector<ir::Value*>& inputs, size_t num_outputs,
                         std::string_view domain) {
  ir::Node* n = current().create(std::string(domain), std::string(op), inputs, num_outputs);
  n->set_loc(location());
  n->set_module_path(scope());
  return n;
}

ir::Attribute AttrValue::to_attribute() const {
  return std::visit([](const auto& x) { return ir::Attribute(x); }, v);
}

ir::Value* Recorder::emit(std::string_view op, const std::vector<ir::Value*>& inputs, ir::Type type, const Attrs& attrs,
                          std::string_view domain) {
  ir::Node* n = node(op, inputs, 1, domain);
  for (const auto& [k, v] : attrs) n->set_attr(k, v.to_attribute());
  if (op == "Reshape" && domain.empty() && !n->attr("allowzero")) {
    // A reshape to a static 0-size dim (an empty slice of a mask written in __init__): ONNX's default
    // reads a 0 in the target shape as "copy the input's dim", so the 0 must be meant literally.
    for (const ir::DimExpr& d : type.dims())
      if (d.is_const() && d.value() == 0) {
        n->set_attr("allowzero", int64_t{1});
        break;
      }
  }
  n->output(0)->set_type(std::move(type));
  return n->output(0);
}

ir::Value* Recorder::constant(ir::Tensor t, std::string name) { return main_->add_initializer(std::move(t), std::move(name)); }

ir::Value* Recorder::const_i64(const std::vector<int64_t>& v) {
  auto it = i64_cache_.find(v);
  if (it != i64_cache_.end()) return it->second;
  ir::Value* c = constant(ir::Tensor::vector_int64(v));
  i64_cache_[v] = c;
  return c;
}

ir::Value* Recorder::const_i64_scalar(int64_t v) {
  auto it = i64_scalar_cache_.find(v);
  if (it != i64_scalar_cache_.end()) return it->second;
  ir::Value* c = constant(ir::Tensor::scalar_int64(v));
  i64_scalar_cache_[v] = c;
  return c;
}

ir::Value* Recorder::const_scalar(ElementType t, double v) {
  switch (t) {
    case ElementType::Float32: return constant(ir::Tensor::from_values<float>(t, {}, {static_cast<float>(v)}));
    case ElementType::Float64: return constant(ir::Tensor::from_values<double>(t, {}, {v}));
    case ElementType::Float16:
      return constant(ir::Tensor::from_values<uint16_t>(t, {}, {ir::float_to_half(static_cast<float>(v))}));
    case ElementType::BFloat16:
      return constant(ir::Tensor::from_values<uint16_t>(t, {}, {ir::float_to_bfloat16(static_cast<float>(v))}));
    case ElementType::Int64: return const_i64_scalar(int64_of(v));
    case ElementType::Int32: return constant(ir::Tensor::from_values<int32_t>(t, {}, {static_cast<int32_t>(v)}));
    case ElementType::Int16: return constant(ir::Tensor::from_values<int16_t>(t, {}, {static_cast<int16_t>(v)}));
    case ElementType::Int8: return constant(ir::Tensor::from_values<int8_t>(t, {}, {static_cast<int8_t>(v)}));
    case ElementType::UInt8: return constant(ir::Tensor::from_values<uint8_t>(t, {}, {static_cast<uint8_t>(v)}));
    case ElementType::Bool: return constant(ir::Tensor::from_values<uint8_t>(t, {}, {static_cast<uint8_t>(v != 0)}));
    default:
      // Complex (and other exotic) element types: a Python number mixed into such a tensor's
      // arithmetic (`0.01 * torch.randn(..., dtype=torch.complex64)`), which ONNX Runtime cannot run.
      throw Diagnostic::error(
          fmt::format("arithmetic with a Python number on a {} tensor is not supported by onnxify (ONNX Runtime "
                      "has no {} arithmetic)",
                      ir::to_string(t), ir::to_string(t)),
          location())
          .with_help("keep complex values as a real tensor with a last dim of 2 (torch.view_as_real)");
  }
}

void Recorder::add_symbol_source(const std::string& name, ir::Value* tensor, int64_t axis) {
  sources_.emplace(name, Source{tensor, axis});
}

DimExpr Recorder::fresh_symbol(ir::Value* tensor, int64_t axis) {
  std::string name;
  do name = fmt::format("u{}", ++fresh_counter_);
  while (sources_.count(name));
  add_symbol_source(name, tensor, axis);
  return DimExpr::symbol(name);
}

ir::Value* Recorder::dim_vec(DimExpr e) {
  if (e.is_const()) return const_i64({e.value()});
  for (const ir::Graph* g = &current(); g; g = g->parent_graph()) {
    auto gc = dim_cache_.find(g->serial());
    if (gc == dim_cache_.end()) continue;
    auto it = gc->second.find(e);
    if (it != gc->second.end()) return it->second;
  }
  ir::Value* v = build_dim(e);
  dim_cache_[current().serial()][e] = v;
  return v;
}

ir::Value* Recorder::dim_scalar(DimExpr e) {
  if (e.is_const()) return const_i64_scalar(e.value());
  return emit("Squeeze", {dim_vec(e), const_i64({0})}, ir::Type::tensor(ElementType::Int64, {}));
}

ir::Value* Recorder::shape_value(const std::vector<DimExpr>& dims) {
  bool all_const = true;
  std::vector<int64_t> c;
  for (DimExpr d : dims) {
    if (!d.is_const()) {
      all_const = false;
      break;
    }
    c.push_back(d.value());
  }
  if (all_const) return const_i64(c);
  // Runs of static dims become one constant piece.
  std::vector<ir::Value*> parts;
  std::vector<int64_t> run;
  for (DimExpr d : dims) {
    if (d.is_const()) {
      run.push_back(d.value());
      continue;
    }
    if (!run.empty()) parts.push_back(const_i64(run)), run.clear();
    parts.push_back(dim_vec(d));
  }
  if (!run.empty()) parts.push_back(const_i64(run));
  if (parts.size() == 1) return parts[0];
  return emit("Concat", parts, ir::Type::tensor(ElementType::Int64, {static_cast<int64_t>(dims.size())}),
              {{"axis", int64_t{0}}});
}

bool Recorder::computable_in(const DimExpr& e, const ir::Graph* g) const {
  for (const std::string& name : e.symbols()) {
    auto it = sources_.find(name);
    if (it == sources_.end()) return false;
    const ir::Graph* home = it->second.tensor->graph();
    bool enclosing = false;
    for (const ir::Graph* h = g; h && !enclosing; h = h->parent_graph()) enclosing = h == home;
    if (!enclosing) return false;
  }
  return true;
}

// A recorded tensor (of the current graph or an enclosing one, so already computed here) that has the
// compound size e at some axis, or null.
static std::pair<ir::Value*, int64_t> tensor_with_dim(const ir::Graph* g, const DimExpr& e) {
  for (; g; g = g->parent_graph())
    for (const ir::Node* n : g->nodes())
      for (size_t i = 0; i < n->num_outputs(); ++i) {
        ir::Value* o = n->output(i);
        if (!o || !o->type().is_tensor() || !o->type().has_rank()) continue;
        for (size_t a = 0; a < o->type().rank(); ++a)
          if (o->type().dim(a) == e) return {o, static_cast<int64_t>(a)};
      }
  return {nullptr, 0};
}

ir::Value* Recorder::build_dim(DimExpr e) {
  const ir::Type i64v = ir::Type::tensor(ElementType::Int64, {1});
  auto bin = [&](const char* op, ir::Value* a, ir::Value* b) { return emit(op, {a, b}, i64v); };
  // A compound size that a recorded tensor already has (a pool's output height, floor((H - 1) / 2) + 1)
  // is read off that tensor: one Shape instead of recomputing it from the input sizes.
  if (e.op() != DimOp::Symbol && e.op() != DimOp::Const && e.op() != DimOp::Unknown) {
    auto [t, axis] = tensor_with_dim(&current(), e);
    if (t) return emit("Shape", {t}, i64v, {{"start", axis}, {"end", axis + 1}});
  }
  switch (e.op()) {
    case DimOp::Const: return const_i64({e.value()});
    case DimOp::Symbol: {
      auto it = sources_.find(std::string(e.name()));
      if (it == sources_.end())
        throw Diagnostic::error(fmt::format("internal error: the symbolic size '{}' has no source in the graph", e.name()),
                                location());
      const Source& s = it->second;
      if (s.axis == kValueAxis) return s.tensor;
      return emit("Shape", {s.tensor}, i64v, {{"start", s.axis}, {"end", s.axis + 1}});
    }
    case DimOp::Sum: {
      ir::Value* acc = nullptr;
      for (size_t i = 0; i < e.num_operands(); ++i) {
        ir::Value* t = dim_vec(e.operand(i));
        int64_t k = e.term_coefficient(i);
        if (k != 1) t = bin("Mul", t, const_i64({k}));
        acc = acc ? bin("Add", acc, t) : t;
      }
      if (e.sum_constant() != 0) acc = bin("Add", acc, const_i64({e.sum_constant()}));
      return acc;
    }
    case DimOp::Product: {
      ir::Value* acc = nullptr;
      for (size_t i = 0; i < e.num_operands(); ++i) {
        ir::Value* t = dim_vec(e.operand(i));
        acc = acc ? bin("Mul", acc, t) : t;
      }
      return acc;
    }
    case DimOp::FloorDiv: {
      // Python's floor division, exact for every sign: (a - a mod b) / b, with ONNX's integer Mod
      // (fmod = 0) taking the divisor's sign as Python's % does.
      ir::Value* a = dim_vec(e.operand(0));
      ir::Value* b = dim_vec(e.operand(1));
      return bin("Div", bin("Sub", a, bin("Mod", a, b)), b);
    }
    case DimOp::CeilDiv: {
      // ceil(a / b) = -floor(-a / b)
      ir::Value* na = bin("Sub", const_i64({0}), dim_vec(e.operand(0)));
      ir::Value* b = dim_vec(e.operand(1));
      ir::Value* fl = bin("Div", bin("Sub", na, bin("Mod", na, b)), b);
      return bin("Sub", const_i64({0}), fl);
    }
    case DimOp::Mod: return bin("Mod", dim_vec(e.operand(0)), dim_vec(e.operand(1)));
    case DimOp::Min:
    case DimOp::Max: {
      std::vector<ir::Value*> args;
      for (size_t i = 0; i < e.num_operands(); ++i) args.push_back(dim_vec(e.operand(i)));
      return emit(e.op() == DimOp::Min ? "Min" : "Max", args, i64v);
    }
    case DimOp::Unknown: break;
  }
  throw Diagnostic::error("internal error: an unknown size is needed as a value", location());
}

}  // namespace onnxify::torch
