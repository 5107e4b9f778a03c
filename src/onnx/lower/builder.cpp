#include "onnx/lower/builder.h"

#include <stdexcept>

namespace onnxify::lowering {

using ir::DimExpr;
using ir::ElementType;
using ir::Node;
using ir::Tensor;
using ir::Type;
using ir::Value;

void Builder::stamp(Node* n) {
  n->set_loc(anchor_.loc());
  n->set_module_path(anchor_.module_path());
}

Node* Builder::node(std::string_view op_type, const std::vector<Value*>& inputs, size_t num_outputs,
                    Attrs&& attrs, std::vector<Type> types) {
  Node* n = graph_.create("", std::string(op_type), inputs, num_outputs, &anchor_);
  stamp(n);
  for (auto& [name, a] : attrs.list()) n->set_attr(name, std::move(a));
  for (size_t i = 0; i < num_outputs; ++i) {
    if (i < types.size() && !types[i].is_unknown())
      n->output(i)->set_type(std::move(types[i]));
    else if (i == 0)
      n->output(0)->set_type(infer_type(*n));
  }
  return n;
}

Value* Builder::op(std::string_view op_type, const std::vector<Value*>& inputs, Attrs&& attrs,
                   std::optional<Type> type) {
  std::vector<Type> types;
  if (type) types.push_back(std::move(*type));
  return node(op_type, inputs, 1, std::move(attrs), std::move(types))->output(0);
}

Value* Builder::constant(Tensor t) { return graph_.add_initializer(std::move(t)); }

Value* Builder::i64(const std::vector<int64_t>& values) { return constant(Tensor::vector_int64(values)); }

Value* Builder::i64_scalar(int64_t v) { return constant(Tensor::scalar_int64(v)); }

Tensor filled_tensor(double v, ElementType t, const std::vector<int64_t>& shape) {
  int64_t count = 1;
  for (int64_t s : shape) count *= s;
  switch (t) {
    case ElementType::Float32:
      return Tensor::from_values<float>(t, shape, std::vector<float>(count, static_cast<float>(v)));
    case ElementType::Float64:
      return Tensor::from_values<double>(t, shape, std::vector<double>(count, v));
    case ElementType::Float16:
      return Tensor::from_values<uint16_t>(
          t, shape, std::vector<uint16_t>(count, ir::float_to_half(static_cast<float>(v))));
    case ElementType::BFloat16:
      return Tensor::from_values<uint16_t>(
          t, shape, std::vector<uint16_t>(count, ir::float_to_bfloat16(static_cast<float>(v))));
    case ElementType::Int64:
      return Tensor::from_values<int64_t>(t, shape, std::vector<int64_t>(count, static_cast<int64_t>(v)));
    case ElementType::Int32:
      return Tensor::from_values<int32_t>(t, shape, std::vector<int32_t>(count, static_cast<int32_t>(v)));
    case ElementType::Bool:
      return Tensor::from_values<uint8_t>(t, shape, std::vector<uint8_t>(count, v != 0));
    default:
      throw std::logic_error("filled_tensor: unsupported element type");
  }
}

Value* Builder::filled(double v, ElementType t, const std::vector<int64_t>& shape) {
  return constant(filled_tensor(v, t, shape));
}

Value* Builder::scalar(double v, ElementType t) { return filled(v, t, {}); }

int64_t Builder::rank(const Value* x) {
  return x && x->type().is_tensor() && x->type().has_rank() ? static_cast<int64_t>(x->type().rank()) : -1;
}

ElementType Builder::elem(const Value* x) {
  return x && x->type().is_tensor() ? x->type().elem() : ElementType::Undefined;
}

std::optional<int64_t> Builder::static_dim(const Value* x, int64_t axis) {
  int64_t r = rank(x);
  if (r < 0) return std::nullopt;
  if (axis < 0) axis += r;
  if (axis < 0 || axis >= r) return std::nullopt;
  DimExpr d = x->type().dim(static_cast<size_t>(axis));
  if (!d.is_const()) return std::nullopt;
  return d.value();
}

std::optional<std::vector<int64_t>> Builder::const_ints(const Value* v) {
  if (!v || !v->initializer()) return std::nullopt;
  const Tensor& t = *v->initializer();
  if (t.dtype() != ElementType::Int64 && t.dtype() != ElementType::Int32) return std::nullopt;
  if (t.numel() > 4096) return std::nullopt;
  std::vector<int64_t> out;
  for (int64_t i = 0; i < t.numel(); ++i) out.push_back(t.int_at(i));
  return out;
}

Value* Builder::dim(Value* x, int64_t axis) {
  int64_t r = rank(x);
  if (axis < 0) axis += r;
  return dims(x, axis, axis + 1);
}

Value* Builder::dims(Value* x, int64_t start, int64_t end) {
  int64_t r = rank(x);
  if (r < 0) throw std::logic_error("Builder::dims on a value of unknown rank");
  std::vector<Value*> parts;
  std::vector<int64_t> run;
  auto flush = [&] {
    if (!run.empty()) parts.push_back(i64(run));
    run.clear();
  };
  Value* shape_node = nullptr;
  for (int64_t i = start; i < end; ++i) {
    if (auto s = static_dim(x, i)) {
      run.push_back(*s);
      continue;
    }
    flush();
    // A run of dynamic dims: one Shape(x) (shared) and one Slice of it.
    int64_t j = i;
    while (j + 1 < end && !static_dim(x, j + 1)) ++j;
    if (!shape_node) shape_node = op("Shape", {x});
    parts.push_back(slice(shape_node, {i}, {j + 1}, {0}));
    i = j;
  }
  flush();
  if (parts.empty()) return i64({});
  return concat_i64(parts);
}

Value* Builder::concat_i64(const std::vector<Value*>& parts) {
  std::vector<Value*> merged;
  std::vector<int64_t> run;
  bool pending = false;
  for (Value* p : parts) {
    if (auto c = const_ints(p)) {
      run.insert(run.end(), c->begin(), c->end());
      pending = true;
      continue;
    }
    if (pending) merged.push_back(i64(run));
    run.clear();
    pending = false;
    merged.push_back(p);
  }
  if (pending) merged.push_back(i64(run));
  if (merged.size() == 1) return merged[0];
  return concat(merged, 0);
}

Value* Builder::reshape(Value* x, Value* shape, std::optional<Type> type) {
  return op("Reshape", {x, shape}, Attrs(), std::move(type));
}

Value* Builder::reshape(Value* x, const std::vector<int64_t>& shape) { return reshape(x, i64(shape)); }

Value* Builder::transpose(Value* x, const std::vector<int64_t>& perm) {
  return op("Transpose", {x}, Attrs().ints("perm", perm));
}

Value* Builder::unsqueeze(Value* x, const std::vector<int64_t>& axes) {
  return op("Unsqueeze", {x, i64(axes)});
}

Value* Builder::squeeze(Value* x, const std::vector<int64_t>& axes) { return op("Squeeze", {x, i64(axes)}); }

Value* Builder::reduce(std::string_view op_type, Value* x, const std::vector<int64_t>& axes, bool keepdims) {
  // Canonical opset-17 form: ReduceSum takes axes as an input (since 13), the others an attribute.
  if (op_type == "ReduceSum") return op(op_type, {x, i64(axes)}, Attrs().i("keepdims", keepdims ? 1 : 0));
  return op(op_type, {x}, Attrs().ints("axes", axes).i("keepdims", keepdims ? 1 : 0));
}

Value* Builder::slice(Value* x, const std::vector<int64_t>& starts, const std::vector<int64_t>& ends,
                      const std::vector<int64_t>& axes, const std::vector<int64_t>& steps) {
  std::vector<Value*> in = {x, i64(starts), i64(ends), i64(axes)};
  if (!steps.empty()) in.push_back(i64(steps));
  return op("Slice", in);
}

Value* Builder::cast(Value* x, ElementType to) {
  if (elem(x) == to) return x;
  return op("Cast", {x}, Attrs().i("to", ir::info(to).onnx));
}

Value* Builder::concat(const std::vector<Value*>& xs, int64_t axis) {
  if (xs.size() == 1) return xs[0];
  return op("Concat", xs, Attrs().i("axis", axis));
}

}  // namespace onnxify::lowering
