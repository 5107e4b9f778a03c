// Shape and view ops: view/reshape/flatten, squeeze/unsqueeze, transpose/permute, expand, cat/stack,
// split/chunk/unbind, narrow/select, repeat, flip, and Tensor.to/detach/clone.
//
// In-place forms that change a shape (unsqueeze_, t_, ...) are not offered: a tensor's shape is
// fixed. Views (view, reshape, flatten, squeeze, unsqueeze, transpose, permute, t, detach) remember their
// base, so in-place writes through them reach the base (core.h). Symbolic sizes stay symbolic: a
// target dim equal to the input's dim at the same index is written as Reshape's 0 ("copy"), so
// `x.view(x.size(0), -1)` needs no Shape node at all.
#include <fmt/core.h>

#include <algorithm>
#include <limits>
#include <optional>

#include "torch/control_flow.h"
#include "torch/index.h"
#include "torch/ops.h"

namespace onnxify::torch {

using eval::Value;
using ir::DimExpr;

namespace {

std::string dims_text(const std::vector<DimExpr>& d) {
  std::string s = "[";
  for (size_t i = 0; i < d.size(); ++i) s += (i ? ", " : "") + d[i].str();
  return s + "]";
}

// Reshape of x to `shape` (no -1 left): Reshape's shape input reuses the input's dims by 0 where
// they are the same expression at the same index (reshape_value).
Value reshape_to(OpCall& c, TensorObj* x, const std::vector<DimExpr>& shape, bool view) {
  if (shape == x->shape) {
    // PyTorch returns a view with the same shape; keep the object distinct for in-place semantics.
    Value r = c.out(c.v(x), x->dtype, shape);
    if (view) make_view(as_tensor(r), x, ViewSpec{ViewSpec::Kind::Alias});
    return r;
  }
  ir::Value* v = reshape_value(c.T, c.v(x), shape, elem(x->dtype), &x->shape);
  Value r = c.out(v, x->dtype, shape);
  if (view) make_view(as_tensor(r), x, ViewSpec{ViewSpec::Kind::Reshape});
  return r;
}

// Whether x is certainly contiguous in PyTorch's sense, from its chain of views (conservative: a
// permutation of dims that are not statically 1, a strided or inner slice, an expand: not).
bool certainly_contiguous(OpCall& c, TensorObj* x) {
  for (TensorObj* t = x; t->base; t = t->base.get()) {
    switch (t->view.kind) {
      case ViewSpec::Kind::Alias:
      case ViewSpec::Kind::Reshape: break;
      case ViewSpec::Kind::Permute: {
        int64_t last = -1;
        for (size_t i = 0; i < t->view.perm.size(); ++i) {
          if (t->shape[i].is_const() && t->shape[i].value() == 1) continue;
          if (t->view.perm[i] < last) return false;
          last = t->view.perm[i];
        }
        break;
      }
      case ViewSpec::Kind::Index:
        if (!index_keeps_contiguous(c.T, t->base.get(), t->view.key)) return false;
        break;
      default: return false;
    }
  }
  return true;
}

std::optional<std::vector<int64_t>> view_strides(const std::vector<int64_t>& shape, const std::vector<int64_t>& strides,
                                                 const std::vector<int64_t>& target);

// x's strides in elements as PyTorch lays it out, when every size along its chain of views is static:
// the root tensor is contiguous, and each view derives its strides from its base's. nullopt when a
// size is symbolic or a view's layout is not followed (MaybeCopy).
std::optional<std::vector<int64_t>> static_strides(OpCall& c, TensorObj* x) {
  std::vector<int64_t> shape;
  for (const DimExpr& d : x->shape) {
    if (!d.is_const()) return std::nullopt;
    shape.push_back(d.value());
  }
  if (!x->base) {
    std::vector<int64_t> st(shape.size());
    int64_t acc = 1;
    for (size_t i = shape.size(); i-- > 0;) {
      st[i] = acc;
      acc *= std::max<int64_t>(shape[i], 1);
    }
    return st;
  }
  auto base = static_strides(c, x->base.get());
  if (!base) return std::nullopt;
  std::vector<int64_t> base_shape;
  for (const DimExpr& d : x->base->shape) base_shape.push_back(d.value());
  switch (x->view.kind) {
    case ViewSpec::Kind::Alias: return base;
    case ViewSpec::Kind::Permute: {
      std::vector<int64_t> st;
      for (int64_t p : x->view.perm) st.push_back((*base)[static_cast<size_t>(p)]);
      return st;
    }
    case ViewSpec::Kind::Index: return index_view_strides(c.T, x->base.get(), x->view.key, *base);
    case ViewSpec::Kind::Reshape: return view_strides(base_shape, *base, shape);
    case ViewSpec::Kind::Expand: {
      std::vector<int64_t> st(shape.size(), 0);
      size_t lead = shape.size() - base_shape.size();
      for (size_t i = lead; i < shape.size(); ++i)
        st[i] = base_shape[i - lead] == shape[i] ? (*base)[i - lead] : 0;
      return st;
    }
    default: return std::nullopt;
  }
}

// PyTorch's rule for whether a tensor of `shape` and `strides` can be viewed as `target` without a
// copy: walking from the last dim, the old dims group into chunks that are contiguous among
// themselves (size-1 dims ignored); each chunk must be covered exactly by a run of new dims, which
// then get strides inside that chunk. Returns the new strides, or nullopt when a copy is needed.
std::optional<std::vector<int64_t>> view_strides(const std::vector<int64_t>& shape, const std::vector<int64_t>& strides,
                                                 const std::vector<int64_t>& target) {
  int64_t numel = 1;
  for (int64_t d : shape) numel *= d;
  std::vector<int64_t> out(target.size(), 1);
  if (numel == 0 || shape.empty()) {
    // Empty or scalar: any layout is viewable (PyTorch gives contiguous strides).
    int64_t acc = 1;
    for (size_t i = target.size(); i-- > 0;) out[i] = acc, acc *= std::max<int64_t>(target[i], 1);
    return out;
  }
  int64_t view_d = static_cast<int64_t>(target.size()) - 1;
  int64_t chunk_stride = strides.back();
  int64_t chunk_numel = 1, view_numel = 1;
  for (int64_t d = static_cast<int64_t>(shape.size()) - 1; d >= 0; --d) {
    chunk_numel *= shape[static_cast<size_t>(d)];
    bool chunk_ends = d == 0 || (shape[static_cast<size_t>(d - 1)] != 1 &&
                                 strides[static_cast<size_t>(d - 1)] != chunk_numel * chunk_stride);
    if (!chunk_ends) continue;
    while (view_d >= 0 && (view_numel < chunk_numel || target[static_cast<size_t>(view_d)] == 1)) {
      out[static_cast<size_t>(view_d)] = view_numel * chunk_stride;
      view_numel *= target[static_cast<size_t>(view_d)];
      --view_d;
    }
    if (view_numel != chunk_numel) return std::nullopt;
    if (d > 0) {
      chunk_stride = strides[static_cast<size_t>(d - 1)];
      chunk_numel = 1;
      view_numel = 1;
    }
  }
  if (view_d != -1) return std::nullopt;
  return out;
}

// reshape/flatten/ravel: a view of a contiguous tensor; of another, PyTorch views or copies by
// strides. With static sizes onnxify follows the strides and decides as PyTorch does (a copy is a
// new tensor: writes to it stay there); otherwise the result is a MaybeCopy view (readable; writes
// through it are reported).
Value reshape_maybe_copy(OpCall& c, TensorObj* x, const std::vector<DimExpr>& shape) {
  if (shape == x->shape || certainly_contiguous(c, x)) return reshape_to(c, x, shape, true);
  std::vector<int64_t> target;
  for (const DimExpr& d : shape) target.push_back(d.is_const() ? d.value() : -1);
  auto strides = std::find(target.begin(), target.end(), -1) == target.end() ? static_strides(c, x) : std::nullopt;
  if (strides) {
    std::vector<int64_t> old;
    for (const DimExpr& d : x->shape) old.push_back(d.value());
    return reshape_to(c, x, shape, /*view=*/view_strides(old, *strides, target).has_value());
  }
  Value r = reshape_to(c, x, shape, true);
  as_tensor(r)->view.kind = ViewSpec::Kind::MaybeCopy;
  return r;
}

// Resolves a size list with at most one -1 against x's numel.
std::vector<DimExpr> infer_size(OpCall& c, TensorObj* x, std::vector<DimExpr> shape) {
  int infer = -1;
  DimExpr known(1);
  for (size_t i = 0; i < shape.size(); ++i) {
    if (shape[i].is_const() && shape[i].value() == -1) {
      if (infer >= 0) c.runtime_error("only one dimension can be inferred");
      infer = static_cast<int>(i);
    } else if (shape[i].is_const() && shape[i].value() < 0) {
      c.runtime_error(fmt::format("invalid shape dimension {}", shape[i].value()));
    } else {
      known = known * shape[i];
    }
  }
  DimExpr numel = product(x->shape);
  if (infer >= 0) {
    if (known.is_const() && known.value() == 0) c.runtime_error("cannot reshape tensor of 0 elements into a shape with -1");
    DimExpr q = ir::floor_div(numel, known);
    if (q.is_const() && numel.is_const() && q.value() * known.value() != numel.value())
      c.runtime_error(fmt::format("shape '{}' is invalid for input of size {}", dims_text(shape), numel.value()));
    shape[infer] = q;
  } else if (numel.is_const() && known.is_const() && numel.value() != known.value()) {
    c.runtime_error(fmt::format("shape '{}' is invalid for input of size {}", dims_text(shape), numel.value()));
  }
  return shape;
}

// ---- strides -------------------------------------------------------------------------------------------

// The tensor whose storage x reads in order from offset 0 (x itself, or the root under a chain of
// aliases and reshapes), or null when x's layout in its storage is not that simple.
TensorObj* storage_in_order(TensorObj* x) {
  TensorObj* t = x;
  for (; t->base; t = t->base.get())
    if (t->view.kind != ViewSpec::Kind::Alias && t->view.kind != ViewSpec::Kind::Reshape) return nullptr;
  return t;
}

// x.stride(): the element strides PyTorch gives x (a contiguous tensor's, symbolic sizes included,
// or the strides its chain of views derives when every size is static).
std::vector<DimExpr> strides_of(OpCall& c, TensorObj* x) {
  if (storage_in_order(x)) {
    std::vector<DimExpr> st(x->rank());
    DimExpr acc(1);
    for (size_t i = x->rank(); i-- > 0;) {
      st[i] = acc;
      acc = acc * (x->shape[i].is_const() ? DimExpr(std::max<int64_t>(x->shape[i].value(), 1)) : x->shape[i]);
    }
    return st;
  }
  if (auto st = static_strides(c, x)) return std::vector<DimExpr>(st->begin(), st->end());
  c.unsupported("Tensor.stride of a view with run-time sizes whose layout is not contiguous (call .contiguous())");
  return {};
}

Value stride(OpCall& c) {
  TensorObj* x = c.t(0);
  std::vector<DimExpr> st = strides_of(c, x);
  if (c.a.given(1) && !c.a.is_none(1)) return make_size_value(c.T, st[static_cast<size_t>(norm_dim(c.I, c.a.int_(1), x->rank()))]);
  std::vector<Value> items;
  for (const DimExpr& d : st) items.push_back(make_size_value(c.T, d));
  return eval::new_tuple(c.I, std::move(items));
}

// x.as_strided(size, stride, offset): the elements of x's storage at offset + sum(i_k * stride_k),
// a view (writes through it reach x), for a tensor that reads its storage in order. It is the
// storage flattened and indexed by those positions, kept as a view of the flattened storage.
Value as_strided(OpCall& c) {
  Torch& T = c.T;
  TensorObj* x = c.t(0);
  TensorObj* root = storage_in_order(x);
  if (!root)
    return c.unsupported("as_strided of a view that is not contiguous in its storage (call .contiguous() first)");
  std::vector<DimExpr> size = c.a.dims(1), st = c.a.dims(2);
  if (size.size() != st.size())
    c.runtime_error(fmt::format("mismatch in length of strides and shape"));
  DimExpr offset = c.a.given(3) && !c.a.is_none(3) ? c.a.dim(3) : DimExpr(0);
  Value flat = call_op(T, "view", {Value::borrow(root), eval::new_list(c.I, {Value::integer(-1)})});
  if (!is_tensor(flat)) return flat;
  Value pos = call_op(T, "mul", {new_fill(T, 1, DType::Int64, {}), make_size_value(T, offset)});
  for (size_t k = 0; k < size.size(); ++k) {
    std::vector<Value> shape(size.size(), Value::integer(1));
    shape[k] = Value::integer(-1);
    Value ar = call_op(T, "arange", {make_size_value(T, size[k])});
    ar = call_op(T, "view", {ar, eval::new_list(c.I, std::move(shape))});
    pos = call_op(T, "add", {pos, call_op(T, "mul", {ar, make_size_value(T, st[k])})});
  }
  if (!is_tensor(pos)) return pos;
  if (size.empty() == false) pos = call_op(T, "expand", {pos, eval::new_list(c.I, [&] {
                                             std::vector<Value> v;
                                             for (const DimExpr& d : size) v.push_back(make_size_value(T, d));
                                             return v;
                                           }())});
  Value r = index_get(T, as_tensor(flat), pos, /*as_view=*/false);
  if (is_tensor(r)) make_view(as_tensor(r), as_tensor(flat), ViewSpec{ViewSpec::Kind::Index, pos});
  return r;
}

Value reshape(OpCall& c, bool view) {
  TensorObj* x = c.t(0);
  if (!view) return reshape_maybe_copy(c, x, infer_size(c, x, c.a.dims(1)));
  return reshape_to(c, x, infer_size(c, x, c.a.dims(1)), true);
}

Value flatten(OpCall& c) {
  TensorObj* x = c.t(0);
  int64_t r = static_cast<int64_t>(x->rank());
  if (r == 0) return reshape_maybe_copy(c, x, {DimExpr(1)});
  int64_t s = norm_dim(c.I, c.a.int_(1), r), e = norm_dim(c.I, c.a.int_(2), r);
  if (s > e) c.runtime_error("flatten() has invalid args: start_dim cannot come after end_dim");
  if (s == e) return Value::borrow(x);
  std::vector<DimExpr> shape(x->shape.begin(), x->shape.begin() + s);
  shape.push_back(product(x->shape, s, e + 1));
  shape.insert(shape.end(), x->shape.begin() + e + 1, x->shape.end());
  return reshape_maybe_copy(c, x, shape);
}

Value permute_to(OpCall& c, TensorObj* x, const std::vector<int64_t>& perm) {
  std::vector<DimExpr> shape;
  bool identity = true;
  for (size_t i = 0; i < perm.size(); ++i) {
    shape.push_back(x->shape[perm[i]]);
    identity &= perm[i] == static_cast<int64_t>(i);
  }
  ir::Value* v = identity ? c.v(x) : c.rec.emit("Transpose", {c.v(x)}, ir::Type::tensor(elem(x->dtype), shape), {{"perm", perm}});
  Value r = c.out(v, x->dtype, shape);
  make_view(as_tensor(r), x, ViewSpec{ViewSpec::Kind::Permute, {}, perm});
  return r;
}

Value transpose(OpCall& c) {
  TensorObj* x = c.t(0);
  int64_t r = static_cast<int64_t>(x->rank());
  if (r == 0) return Value::borrow(x);
  int64_t a = norm_dim(c.I, c.a.int_(1), r), b = norm_dim(c.I, c.a.int_(2), r);
  std::vector<int64_t> perm(r);
  for (int64_t i = 0; i < r; ++i) perm[i] = i;
  std::swap(perm[a], perm[b]);
  return permute_to(c, x, perm);
}

Value unsqueeze_at(OpCall& c, TensorObj* x, int64_t d) {
  std::vector<DimExpr> shape = x->shape;
  shape.insert(shape.begin() + d, DimExpr(1));
  return reshape_to(c, x, shape, true);
}

// Marks `r` as PyTorch's view x[:, ..., :, entry] (entry at `dim`) so in-place writes to it reach x.
void mark_index_view(OpCall& c, const Value& r, TensorObj* x, int64_t dim, Value entry) {
  std::vector<Value> items;
  for (int64_t i = 0; i < dim; ++i) items.push_back(eval::new_slice(c.I, Value::none(), Value::none(), Value::none()));
  items.push_back(std::move(entry));
  make_view(as_tensor(r), x, ViewSpec{ViewSpec::Kind::Index, eval::new_tuple(c.I, std::move(items))});
}

Value slice_entry(OpCall& c, DimExpr start, DimExpr stop) {
  return eval::new_slice(c.I, make_size_value(c.T, start), make_size_value(c.T, stop), Value::none());
}

std::vector<Value> split_sizes(OpCall& c, TensorObj* x, int64_t dim, const std::vector<DimExpr>& sizes) {
  std::vector<ir::Value*> outs;
  std::vector<Value> result;
  if (sizes.size() == 1) {
    result.push_back(c.out(c.v(x), x->dtype, x->shape));
    make_view(as_tensor(result.back()), x, ViewSpec{ViewSpec::Kind::Alias});
    return result;
  }
  ir::Node* n = c.rec.node("Split", {c.v(x), c.rec.shape_value(sizes)}, sizes.size());
  n->set_attr("axis", dim);
  DimExpr at(0);  // where piece i starts (its view is x[..., at:at + size])
  for (size_t i = 0; i < sizes.size(); ++i) {
    std::vector<DimExpr> shape = x->shape;
    shape[dim] = sizes[i];
    n->output(i)->set_type(ir::Type::tensor(elem(x->dtype), shape));
    result.push_back(c.out(n->output(i), x->dtype, shape));
    mark_index_view(c, result.back(), x, dim, slice_entry(c, at, at + sizes[i]));
    at = at + sizes[i];
  }
  return result;
}

// conj() and friends: self for a real tensor; complex tensors have no ONNX Runtime arithmetic.
Value real_self(OpCall& c, const char* op) {
  TensorObj* x = c.t(0);
  if (is_complex(x->dtype)) return c.unsupported(fmt::format("{} of a complex tensor", op));
  return Value::borrow(x);
}

Value tuple_of(OpCall& c, std::vector<Value> items) { return eval::new_tuple(c.I, std::move(items)); }

Value split_int(OpCall& c) {
  TensorObj* x = c.t(0);
  int64_t dim = norm_dim(c.I, c.a.int_(2), x->rank());
  DimExpr size = c.a.dim(1);
  DimExpr total = x->shape[dim];
  if (!total.is_const() && size.is_const() && size.value() == 1) {
    // Pieces of one along a dim only known at run time (`for t, x_t in enumerate(x.split(1))`): the
    // rows of x with that dim kept, as unbind gives them (a list of run-time length, control_flow.h).
    Value kept = call_op(c.T, "unsqueeze", {Value::borrow(x), Value::integer(dim + 1)});
    Value rows = dim == 0 ? kept : call_op(c.T, "movedim", {kept, Value::integer(dim), Value::integer(0)});
    Value list = eval::new_list(c.I, {});
    append_rows(c.T, list, rows);
    return list;
  }
  if (!total.is_const() || !size.is_const()) {
    // A symbolic size that is a whole multiple of the chunk (n_head*N into chunks of N): that many
    // equal pieces, however large N is at run time.
    DimExpr q = ir::floor_div(total, size), r = ir::mod(total, size);
    if (q.is_const() && r.is_const() && r.value() == 0 && q.value() > 0 && q.value() <= 4096)
      return tuple_of(c, split_sizes(c, x, dim, std::vector<DimExpr>(q.value(), size)));
    return c.unsupported(fmt::format("split of a dim of symbolic size ({}) into chunks of {}", total.str(), size.str()));
  }
  if (size.value() <= 0 && total.value() > 0) c.runtime_error("split_size can only be 0 if dimension size is 0");
  std::vector<DimExpr> sizes;
  for (int64_t at = 0; at < total.value(); at += size.value()) sizes.push_back(std::min(size.value(), total.value() - at));
  if (sizes.empty()) sizes.push_back(0);
  return tuple_of(c, split_sizes(c, x, dim, sizes));
}

Value split_list(OpCall& c) {
  TensorObj* x = c.t(0);
  int64_t dim = norm_dim(c.I, c.a.int_(2), x->rank());
  std::vector<DimExpr> sizes = c.a.dims(1);
  DimExpr sum(0);
  for (DimExpr d : sizes) sum = sum + d;
  if (sum.is_const() && x->shape[dim].is_const() && sum.value() != x->shape[dim].value())
    c.runtime_error(fmt::format("split_with_sizes expects split_sizes to sum exactly to {} (input tensor's size at "
                                "dimension {}), but got split_sizes={}",
                                x->shape[dim].value(), dim, dims_text(sizes)));
  return tuple_of(c, split_sizes(c, x, dim, sizes));
}

Value chunk(OpCall& c) {
  TensorObj* x = c.t(0);
  int64_t chunks = c.a.int_(1);
  if (chunks <= 0) c.runtime_error("chunk expects `chunks` to be greater than 0, got: " + std::to_string(chunks));
  int64_t dim = norm_dim(c.I, c.a.int_(2), x->rank());
  DimExpr total = x->shape[dim];
  if (!total.is_const()) {
    // A symbolic size that is a multiple of `chunks` (chunk(2) of 2*N): equal pieces of total / chunks.
    DimExpr each = ir::floor_div(total, DimExpr(chunks));
    if (ir::mod(total, DimExpr(chunks)) == DimExpr(0))
      return tuple_of(c, split_sizes(c, x, dim, std::vector<DimExpr>(chunks, each)));
    return c.unsupported(fmt::format("chunk of a dim of symbolic size ({})", total.str()));
  }
  int64_t each = (total.value() + chunks - 1) / chunks;
  std::vector<DimExpr> sizes;
  for (int64_t at = 0; at < total.value(); at += each) sizes.push_back(std::min(each, total.value() - at));
  if (sizes.empty()) sizes.push_back(0);
  return tuple_of(c, split_sizes(c, x, dim, sizes));
}

Value unbind(OpCall& c) {
  TensorObj* x = c.t(0);
  int64_t dim = norm_dim(c.I, c.a.int_(1), x->rank());
  DimExpr total = x->shape[dim];
  if (!total.is_const()) {
    // A run-time number of rows: a list whose length is only known at run time (control_flow.h).
    Value rows = dim == 0 ? Value::borrow(x) : call_op(c.T, "movedim", {Value::borrow(x), Value::integer(dim), Value::integer(0)});
    Value list = eval::new_list(c.I, {});
    append_rows(c.T, list, rows);
    return list;
  }
  std::vector<Value> out;
  std::vector<DimExpr> shape = x->shape;
  shape.erase(shape.begin() + dim);
  for (int64_t i = 0; i < total.value(); ++i) {
    ir::Value* v = c.rec.emit("Gather", {c.v(x), c.rec.const_i64_scalar(i)}, ir::Type::tensor(elem(x->dtype), shape),
                              {{"axis", dim}});
    out.push_back(c.out(v, x->dtype, shape));
    mark_index_view(c, out.back(), x, dim, Value::integer(i));
  }
  return tuple_of(c, std::move(out));
}

// x.narrow(dim, start, length) / the Slice of one dim.
Value slice_dim(OpCall& c, TensorObj* x, int64_t dim, DimExpr start, DimExpr length) {
  std::vector<DimExpr> shape = x->shape;
  shape[dim] = length;
  ir::Value* v = c.rec.emit("Slice", {c.v(x), c.rec.dim_vec(start), c.rec.dim_vec(start + length), c.rec.const_i64({dim})},
                            ir::Type::tensor(elem(x->dtype), shape));
  Value r = c.out(v, x->dtype, shape);
  mark_index_view(c, r, x, dim, slice_entry(c, start, start + length));
  return r;
}

Value cat(OpCall& c) {
  std::vector<TensorObj*> ts = c.a.tensors(0);
  if (ts.empty()) c.runtime_error("torch.cat(): expected a non-empty list of Tensors");
  // Legacy rule: 1-d empty tensors are skipped.
  std::vector<TensorObj*> used;
  for (TensorObj* t : ts)
    if (!(t->rank() == 1 && t->shape[0].is_const() && t->shape[0].value() == 0)) used.push_back(t);
  if (used.empty()) return Value::borrow(ts[0]);
  int64_t dim = norm_dim(c.I, c.a.int_(1), used[0]->rank());
  std::vector<Operand> ops;
  for (TensorObj* t : used) {
    Operand o;
    o.t = t;
    ops.push_back(o);
  }
  // cat promotes like an elementwise op over tensors of the same priority.
  ResultType rt;
  for (TensorObj* t : used) rt.add(ResultType::Kind::DimTensor, t->dtype);
  DType dt = rt.result();
  std::vector<DimExpr> shape = used[0]->shape;
  DimExpr sum(0);
  std::vector<ir::Value*> vals;
  for (TensorObj* t : used) {
    if (t->rank() != used[0]->rank())
      c.runtime_error(fmt::format("Tensors must have same number of dimensions: got {} and {}", used[0]->rank(), t->rank()));
    for (size_t d = 0; d < shape.size(); ++d)
      if (static_cast<int64_t>(d) != dim && t->shape[d].is_const() && shape[d].is_const() &&
          t->shape[d].value() != shape[d].value())
        c.runtime_error(fmt::format("Sizes of tensors must match except in dimension {}. Expected size {} but got size {} "
                                    "for tensor number {} in the list.",
                                    dim, shape[d].value(), t->shape[d].value(), vals.size()));
    sum = sum + t->shape[dim];
    vals.push_back(cast_to(c.T, c.v(t), t->dtype, dt, t->shape));
  }
  shape[dim] = sum;
  if (vals.size() == 1) return c.out(vals[0], dt, shape);
  return c.node("Concat", vals, dt, shape, {{"axis", dim}});
}

Value stack(OpCall& c) {
  std::vector<TensorObj*> ts = c.a.tensors(0);
  if (ts.empty()) c.runtime_error("stack expects a non-empty TensorList");
  int64_t dim = norm_dim(c.I, c.a.int_(1), ts[0]->rank() + 1);
  ResultType rt;
  for (TensorObj* t : ts) {
    rt.add(ResultType::Kind::DimTensor, t->dtype);
    if (t->shape.size() != ts[0]->shape.size())
      c.runtime_error("stack expects each tensor to be equal size");
  }
  DType dt = rt.result();
  std::vector<DimExpr> one = ts[0]->shape;
  one.insert(one.begin() + dim, DimExpr(1));
  std::vector<ir::Value*> vals;
  for (TensorObj* t : ts) {
    ir::Value* v = cast_to(c.T, c.v(t), t->dtype, dt, t->shape);
    vals.push_back(c.rec.emit("Unsqueeze", {v, c.rec.const_i64({dim})}, ir::Type::tensor(elem(dt), one)));
  }
  std::vector<DimExpr> shape = one;
  shape[dim] = static_cast<int64_t>(ts.size());
  if (vals.size() == 1) return c.out(vals[0], dt, shape);
  return c.node("Concat", vals, dt, shape, {{"axis", dim}});
}

Value expand(OpCall& c, TensorObj* x, std::vector<DimExpr> size) {
  if (size.size() < x->rank())
    c.runtime_error(fmt::format("expand: the number of sizes provided ({}) must be greater or equal to the number of "
                                "dimensions in the tensor ({})",
                                size.size(), x->rank()));
  size_t lead = size.size() - x->rank();
  std::vector<DimExpr> shape(size.size()), target(size.size());
  for (size_t i = 0; i < size.size(); ++i) {
    bool keep = size[i].is_const() && size[i].value() == -1;
    if (keep && i < lead) c.runtime_error("expand: -1 is not allowed in a leading, non-existing dimension");
    DimExpr in = i >= lead ? x->shape[i - lead] : DimExpr(1);
    if (keep) {
      shape[i] = in;
      target[i] = 1;  // Expand broadcasts: 1 keeps the input's size
    } else {
      if (in.is_const() && in.value() != 1 && size[i] != in)
        c.runtime_error(fmt::format("The expanded size of the tensor ({}) must match the existing size ({}) at "
                                    "non-singleton dimension {}.",
                                    size[i].str(), in.value(), i));
      shape[i] = size[i];
      target[i] = size[i] == in ? DimExpr(1) : size[i];
    }
  }
  if (shape == x->shape) return Value::borrow(x);
  Value r = c.node("Expand", {c.v(x), c.rec.shape_value(target)}, x->dtype, shape);
  make_view(as_tensor(r), x, ViewSpec{ViewSpec::Kind::Expand});
  return r;
}

Value repeat(OpCall& c) {
  TensorObj* x = c.t(0);
  std::vector<DimExpr> reps = c.a.dims(1);
  if (reps.size() < x->rank())
    c.runtime_error("Number of dimensions of repeat dims can not be smaller than number of dimensions of tensor");
  size_t lead = reps.size() - x->rank();
  std::vector<DimExpr> in_shape(lead, DimExpr(1));
  in_shape.insert(in_shape.end(), x->shape.begin(), x->shape.end());
  ir::Value* v = c.v(x);
  if (lead) v = reshape_value(c.T, v, in_shape, elem(x->dtype));
  std::vector<DimExpr> shape;
  for (size_t i = 0; i < reps.size(); ++i) shape.push_back(in_shape[i] * reps[i]);
  return c.node("Tile", {v, c.rec.shape_value(reps)}, x->dtype, shape);
}

Value to(OpCall& c, std::optional<DType> dt, bool copy) {
  TensorObj* x = c.t(0);
  if (!dt || *dt == x->dtype) {
    if (!copy) return Value::borrow(x);
    return c.out(c.v(x), x->dtype, x->shape);
  }
  if (elem(*dt) == ir::ElementType::Undefined)
    return c.unsupported(fmt::format("tensors of dtype torch.{}", info(*dt).name));
  return c.out(cast_to(c.T, c.v(x), x->dtype, *dt, x->shape), *dt, x->shape);
}

// roll: each dim's last (shift mod n) elements move to the front, two Slices and a Concat per dim
// nonzero: [count, rank] int64 positions of the nonzero elements in row-major order (as_tuple: one
// 1-d tensor per dim). Input known at conversion time: a constant with a static count (so len() and
// tolist() work); else Transpose(NonZero) with a fresh run-time size.
Value nonzero(OpCall& c) {
  TensorObj* x = c.t(0);
  bool as_tuple = c.a.boolean(1);
  int64_t k = static_cast<int64_t>(x->rank());
  if (k == 0) return c.unsupported("nonzero of a 0-d tensor");
  const ir::ElementType i64 = ir::ElementType::Int64;
  Value r;
  if (auto known = known_values(c.T, x)) {
    const auto& ms = known->shape();
    std::vector<int64_t> flat;
    for (int64_t e = 0; e < known->numel(); ++e) {
      if (known->float_at(e) == 0) continue;
      std::vector<int64_t> pos(static_cast<size_t>(k));
      for (int64_t j = k - 1, rest = e; j >= 0; --j) {
        pos[static_cast<size_t>(j)] = rest % ms[static_cast<size_t>(j)];
        rest /= ms[static_cast<size_t>(j)];
      }
      flat.insert(flat.end(), pos.begin(), pos.end());
    }
    int64_t count = static_cast<int64_t>(flat.size()) / k;
    r = new_constant(c.T, ir::Tensor::from_values<int64_t>(i64, {count, k}, flat), DType::Int64);
  } else {
    // Integers and bools as float32 (same nonzero elements): TensorRT's NonZero takes floats only.
    ir::Value* in = c.v(x);
    if (!is_floating(x->dtype)) in = cast_to(c.T, in, x->dtype, DType::Float32, x->shape);
    ir::Value* nz = c.rec.emit("NonZero", {in}, ir::Type::tensor(i64, {DimExpr(k), DimExpr::unknown()}));
    DimExpr count = c.rec.fresh_symbol(nz, 1);
    nz->set_type(ir::Type::tensor(i64, {DimExpr(k), count}));
    r = c.node("Transpose", {nz}, DType::Int64, {count, DimExpr(k)}, {{"perm", std::vector<int64_t>{1, 0}}});
  }
  if (!as_tuple) return r;
  TensorObj* t = as_tensor(r);
  std::vector<Value> cols;
  for (int64_t j = 0; j < k; ++j)
    cols.push_back(c.node("Gather", {c.v(t), c.rec.const_i64_scalar(j)}, DType::Int64, {t->shape[0]}, {{"axis", int64_t{1}}}));
  return tuple_of(c, std::move(cols));
}

// torch.diff: prepend/append concatenated along dim, then n times x[1:] - x[:-1] along it (logical_xor
// for bool), as PyTorch's composite; once the dim is empty it stays empty.
Value diff(OpCall& c) {
  TensorObj* x = c.t(0);
  int64_t n = c.a.int_(1);
  if (x->rank() == 0) c.runtime_error("diff expects input to be at least one-dimensional");
  if (n < 0) c.runtime_error(fmt::format("order must be non-negative but got {}", n));
  int64_t dim = norm_dim(c.I, c.a.int_(2), x->rank());
  Value cur = Value::borrow(x);
  if (!c.a.is_none(3) || !c.a.is_none(4)) {
    std::vector<Value> parts;
    if (!c.a.is_none(3)) parts.push_back(Value::borrow(c.t(3)));
    parts.push_back(cur);
    if (!c.a.is_none(4)) parts.push_back(Value::borrow(c.t(4)));
    cur = call_op(c.T, "cat", {eval::new_list(c.I, std::move(parts)), Value::integer(dim)});
  }
  for (int64_t k = 0; k < n && is_tensor(cur); ++k) {
    TensorObj* t = as_tensor(cur);
    DimExpr len = t->shape[dim];
    if (len.is_const() && len.value() == 0) break;
    DimExpr out = ir::max(len - 1, DimExpr(0));
    Value a = slice_dim(c, t, dim, DimExpr(1), out), b = slice_dim(c, t, dim, DimExpr(0), out);
    cur = call_op(c.T, t->dtype == DType::Bool ? "logical_xor" : "sub", {a, b});
  }
  return cur;
}

// (a symbolic size or shift, e.g. Swin's shift set to 0 when the window covers a symbolic feature
// map: the split point is computed at run time, Python's modulo via ONNX's integer Mod).
// Without dims, the flattened tensor is rolled and reshaped back.
Value roll(OpCall& c) {
  TensorObj* x = c.t(0);
  std::vector<DimExpr> shifts = c.a.dims(1);
  std::vector<int64_t> dims = c.a.ints(2);
  if (dims.empty()) {
    if (shifts.size() != 1)
      c.runtime_error(fmt::format("shifts and dimensions must align. shifts: {}, dims:{}", shifts.size(), dims.size()));
    if (x->rank() == 1) dims = {0};
  } else if (shifts.size() != dims.size()) {
    c.runtime_error(fmt::format("shifts and dimensions must align. shifts: {}, dims:{}", shifts.size(), dims.size()));
  }
  Recorder& R = c.rec;
  ir::Value* v = c.v(x);
  std::vector<DimExpr> shape = x->shape;
  bool flat = dims.empty();
  if (flat) {
    shape = {product(x->shape)};
    v = R.emit("Reshape", {v, R.const_i64({-1})}, ir::Type::tensor(elem(x->dtype), shape));
    dims = {0};
  }
  ir::Type t = ir::Type::tensor(elem(x->dtype), shape);
  for (size_t i = 0; i < dims.size(); ++i) {
    int64_t d = norm_dim(c.I, dims[i], static_cast<int64_t>(shape.size()));
    DimExpr n = shape[d];
    ir::Value* split;  // n - (shift mod n), as a 1-element vector
    if (n.is_const() && n.value() == 0) continue;
    if (n.is_const() && shifts[i].is_const()) {
      int64_t s = ((shifts[i].value() % n.value()) + n.value()) % n.value();
      if (s == 0) continue;
      split = R.const_i64({n.value() - s});
    } else {
      ir::Type vt = ir::Type::tensor(ir::ElementType::Int64, {DimExpr(1)});
      ir::Value* nv = R.dim_vec(n);
      // (an extent that can be 0 rolls nothing; Mod by 0 is an error in ONNX Runtime)
      std::optional<int64_t> lo = n.is_const() ? n.value() : size_lower_bound(c.T, n, 1);
      ir::Value* divisor = lo && *lo >= 1 ? nv : R.emit("Max", {nv, R.const_i64({1})}, vt);
      ir::Value* m = R.emit("Mod", {R.dim_vec(shifts[i]), divisor}, vt);
      split = R.emit("Sub", {nv, m}, vt);
    }
    ir::Value* axes = R.const_i64({d});
    // The parts' lengths are only known together (they sum to n).
    std::vector<DimExpr> part = shape;
    part[d] = DimExpr::unknown();
    ir::Type pt = ir::Type::tensor(elem(x->dtype), part);
    ir::Value* tail = R.emit("Slice", {v, split, R.const_i64({std::numeric_limits<int64_t>::max()}), axes}, pt);
    ir::Value* head = R.emit("Slice", {v, R.const_i64({0}), split, axes}, pt);
    v = R.emit("Concat", {tail, head}, t, {{"axis", d}});
  }
  if (flat) v = reshape_value(c.T, v, x->shape, elem(x->dtype));
  return c.out(v, x->dtype, x->shape);
}

}  // namespace

// How a Reshape says a size that can be 0. ONNX's Reshape reads a 0 in its shape as "copy the input's
// dim" unless allowzero = 1, which arrived in opset 14; a size that can be 0 at run time (N - 1 at
// batch 1, a count of selected rows, a dim declared --dim S=0..) must come out as a 0:
//   * none can be 0: the compact form (static runs, the input's own dims copied by 0, the rest read
//     at run time);
//   * from opset 14: allowzero = 1 and the whole shape spelled out (exact for every value);
//   * before 14, one such size and every other at least 1: that size written as -1, which Reshape
//     infers from the element count (0 elements over a product that is not 0 is 0; exact);
//   * else (two of them before 14): the compact form, and the assumption said at the user's line
//     (an error where a --dim declaration allows the 0).
// Undeclared input dims count as at least 1 here (size_lower_bound's `undeclared`): the file is meant
// to be right at batch 1 without saying so, and a plain N keeps the compact form.
ir::Value* reshape_value(Torch& T, ir::Value* v, const std::vector<DimExpr>& shape, ir::ElementType e,
                         const std::vector<DimExpr>* copy_from) {
  Recorder& R = T.rec;
  auto copied = [&](size_t i) {
    return !shape[i].is_const() && copy_from && i < copy_from->size() && (*copy_from)[i] == shape[i];
  };
  std::vector<size_t> zero;  // sizes that can be 0 and are not a copy of the input's dim
  bool static_zero = false, others_positive = true;
  for (size_t i = 0; i < shape.size(); ++i) {
    const DimExpr& d = shape[i];
    if (d.is_const()) {
      if (d.value() == 0) zero.push_back(i), static_zero = true;
      continue;
    }
    std::optional<int64_t> lo = size_lower_bound(T, d, 1);
    if (lo && *lo >= 1) continue;
    if (copied(i))
      others_positive = false;  // (a copied 0 is a 0, but it leaves -1 nothing to infer from)
    else
      zero.push_back(i);
  }
  ir::Type type = ir::Type::tensor(e, shape);
  if (!zero.empty() && (T.out_opset >= 14 || static_zero))  // (a static 0 before 14: lowering says so)
    return R.emit("Reshape", {v, R.shape_value(shape)}, type, {{"allowzero", int64_t{1}}});
  std::optional<size_t> infer;
  if (zero.size() == 1 && others_positive) infer = zero[0];
  for (size_t i : zero)
    if (i != infer)
      assume_at_least(T, shape[i], 1, fmt::format("a reshape to the run-time size {}", shape[i].str()),
                      "ONNX's Reshape before opset 14 reads a 0 in its shape as \"copy the input's dim\" (--opset 14 "
                      "says it literally)");
  std::vector<ir::Value*> parts;
  std::vector<int64_t> run;
  for (size_t i = 0; i < shape.size(); ++i) {
    if (i == infer)
      run.push_back(-1);
    else if (shape[i].is_const())
      run.push_back(shape[i].value());
    else if (copied(i))
      run.push_back(0);
    else {
      if (!run.empty()) parts.push_back(R.const_i64(run)), run.clear();
      parts.push_back(R.dim_vec(shape[i]));
    }
  }
  if (!run.empty()) parts.push_back(R.const_i64(run));
  ir::Value* sv = parts.empty()       ? R.const_i64({})  // to a 0-d tensor
                  : parts.size() == 1 ? parts[0]
                                      : R.emit("Concat", parts, ir::Type::tensor(ir::ElementType::Int64, {int64_t(shape.size())}),
                                               {{"axis", int64_t{0}}});
  return R.emit("Reshape", {v, sv}, type);
}

const std::vector<OpDef>& shape_ops() {
  static const std::vector<OpDef> ops = {
      {"view(Tensor self, SymInt[] size) -> Tensor", kMethod, [](OpCall& c) { return reshape(c, true); }},
      {"stride(Tensor self, int? dim=None) -> Any", kMethod, stride},
      {"as_strided(Tensor self, SymInt[] size, SymInt[] stride, SymInt? storage_offset=None) -> Tensor", kFn | kMethod,
       as_strided},
      {"reshape(Tensor self, SymInt[] shape) -> Tensor", kFn | kMethod, [](OpCall& c) { return reshape(c, false); }},
      {"view_as(Tensor self, Tensor other) -> Tensor", kMethod,
       [](OpCall& c) { return reshape_to(c, c.t(0), infer_size(c, c.t(0), c.t(1)->shape), true); }},
      {"reshape_as(Tensor self, Tensor other) -> Tensor", kMethod,
       [](OpCall& c) { return reshape_maybe_copy(c, c.t(0), infer_size(c, c.t(0), c.t(1)->shape)); }},
      {"flatten.using_ints(Tensor self, int start_dim=0, int end_dim=-1) -> Tensor", kFn | kMethod, flatten},
      {"unflatten.int(Tensor self, int dim, SymInt[] sizes) -> Tensor", kFn | kMethod,
       [](OpCall& c) {
         TensorObj* x = c.t(0);
         int64_t d = norm_dim(c.I, c.a.int_(1), x->rank());
         std::vector<DimExpr> sizes = c.a.dims(2);
         // One -1 is inferred from the unflattened dim.
         int infer = -1;
         DimExpr known(1);
         for (size_t i = 0; i < sizes.size(); ++i) {
           if (sizes[i].is_const() && sizes[i].value() == -1) infer = static_cast<int>(i);
           else known = known * sizes[i];
         }
         if (infer >= 0) sizes[infer] = ir::floor_div(x->shape[d], known);
         std::vector<DimExpr> shape(x->shape.begin(), x->shape.begin() + d);
         shape.insert(shape.end(), sizes.begin(), sizes.end());
         shape.insert(shape.end(), x->shape.begin() + d + 1, x->shape.end());
         return reshape_to(c, x, shape, true);
       }},
      {"ravel(Tensor self) -> Tensor", kFn | kMethod,
       [](OpCall& c) { return reshape_maybe_copy(c, c.t(0), {product(c.t(0)->shape)}); }},
      {"squeeze(Tensor self) -> Tensor", kFn | kMethod,
       [](OpCall& c) {
         // Only dims statically 1 are removed: a symbolic size is assumed not to be 1 at run time
         // (said where it could be: size_assumptions.cpp).
         TensorObj* x = c.t(0);
         std::vector<DimExpr> shape;
         for (DimExpr d : x->shape) {
           if (d.is_const() && d.value() == 1) continue;
           assume_not_one(c.T, d, "squeeze() of a tensor of shape " + shape_text(x->shape),
                          "PyTorch removes that dim too and the exported result keeps it");
           shape.push_back(d);
         }
         return reshape_to(c, x, shape, true);
       }},
      {"squeeze.dim(Tensor self, int dim) -> Tensor", kFn | kMethod,
       [](OpCall& c) {
         TensorObj* x = c.t(0);
         if (x->rank() == 0) return Value::borrow(x);
         int64_t d = norm_dim(c.I, c.a.int_(1), x->rank());
         if (!x->shape[d].is_const())
           assume_not_one(c.T, x->shape[d], fmt::format("squeeze({}) of a tensor of shape {}", d, shape_text(x->shape)),
                          "PyTorch removes that dim and the exported result keeps it");
         if (!(x->shape[d].is_const() && x->shape[d].value() == 1)) return reshape_to(c, x, x->shape, true);
         std::vector<DimExpr> shape = x->shape;
         shape.erase(shape.begin() + d);
         return reshape_to(c, x, shape, true);
       }},
      {"squeeze.dims(Tensor self, int[] dim) -> Tensor", kFn | kMethod,
       [](OpCall& c) {
         // The listed dims that are 1 removed (each as squeeze(dim) decides it); a 0-d tensor stays.
         TensorObj* x = c.t(0);
         if (x->rank() == 0) return Value::borrow(x);
         std::vector<bool> drop(x->rank());
         for (int64_t d : c.a.ints(1)) {
           d = norm_dim(c.I, d, x->rank());
           if (drop[d]) c.runtime_error(fmt::format("dim {} appears multiple times in the list of dims", d));
           drop[d] = true;
           if (!x->shape[d].is_const())
             assume_not_one(c.T, x->shape[d], fmt::format("squeeze(({},)) of a tensor of shape {}", d, shape_text(x->shape)),
                            "PyTorch removes that dim and the exported result keeps it");
         }
         std::vector<DimExpr> shape;
         for (size_t i = 0; i < x->rank(); ++i)
           if (!(drop[i] && x->shape[i].is_const() && x->shape[i].value() == 1)) shape.push_back(x->shape[i]);
         return reshape_to(c, x, shape, true);
       }},
      {"unsqueeze(Tensor self, int dim) -> Tensor", kFn | kMethod,
       [](OpCall& c) { return unsqueeze_at(c, c.t(0), norm_dim(c.I, c.a.int_(1), c.t(0)->rank() + 1)); }},
      {"transpose.int(Tensor self, int dim0, int dim1) -> Tensor", kFn | kMethod, transpose},
      {"swapaxes(Tensor self, int axis0, int axis1) -> Tensor", kFn | kMethod, transpose},
      {"swapdims(Tensor self, int dim0, int dim1) -> Tensor", kFn | kMethod, transpose},
      {"permute(Tensor self, int[] dims) -> Tensor", kFn | kMethod,
       [](OpCall& c) {
         TensorObj* x = c.t(0);
         std::vector<int64_t> p = c.a.ints(1);
         if (p.size() != x->rank())
           c.runtime_error(fmt::format("permute(sparse_coo): number of dimensions in the tensor input does not match the "
                                       "length of the desired ordering of dimensions i.e. input.dim() = {} is not equal "
                                       "to len(dims) = {}",
                                       x->rank(), p.size()));
         std::vector<bool> seen(p.size());
         for (int64_t& d : p) {
           d = norm_dim(c.I, d, x->rank());
           if (seen[d]) c.runtime_error("permute(): duplicate dims are not allowed.");
           seen[d] = true;
         }
         return permute_to(c, x, p);
       }},
      {"t(Tensor self) -> Tensor", kFn | kMethod,
       [](OpCall& c) {
         TensorObj* x = c.t(0);
         if (x->rank() > 2) c.runtime_error(fmt::format("t() expects a tensor with <= 2 dimensions, but self is {}D", x->rank()));
         if (x->rank() < 2) return Value::borrow(x);
         return permute_to(c, x, {1, 0});
       }},
      {"contiguous(Tensor self, *, MemoryFormat memory_format=contiguous_format) -> Tensor", kMethod,
       [](OpCall& c) {
         // PyTorch returns self when it is contiguous, else a copy (writes to it do not reach self).
         TensorObj* x = c.t(0);
         if (certainly_contiguous(c, x)) return Value::borrow(x);
         return c.out(c.v(x), x->dtype, x->shape);
       }},
      // Every onnxify tensor is strided: PyTorch returns self (a cast copy for another dtype).
      {"to_dense(Tensor self, ScalarType? dtype=None, *, bool? masked_grad=None) -> Tensor", kMethod,
       [](OpCall& c) { return to(c, c.a.dtype(1), false); }},
      {"expand(Tensor self, SymInt[] size, *, bool implicit=False) -> Tensor", kMethod,
       [](OpCall& c) { return expand(c, c.t(0), c.a.dims(1)); }},
      {"expand_as(Tensor self, Tensor other) -> Tensor", kMethod, [](OpCall& c) { return expand(c, c.t(0), c.t(1)->shape); }},
      {"broadcast_to(Tensor self, SymInt[] size) -> Tensor", kFn | kMethod,
       [](OpCall& c) { return expand(c, c.t(0), c.a.dims(1)); }},
      {"repeat(Tensor self, SymInt[] repeats) -> Tensor", kMethod, repeat},
      {"tile(Tensor self, SymInt[] dims) -> Tensor", kFn | kMethod,
       [](OpCall& c) {
         // tile pads the repeats with leading 1s where repeat would refuse.
         TensorObj* x = c.t(0);
         std::vector<DimExpr> reps = c.a.dims(1);
         while (reps.size() < x->rank()) reps.insert(reps.begin(), DimExpr(1));
         std::vector<Value> items;
         for (DimExpr d : reps) items.push_back(make_size_value(c.T, d));
         return call_op(c.T, "repeat", {Value::borrow(x), eval::new_list(c.I, std::move(items))});
       }},
      {"constant_pad_nd(Tensor self, SymInt[] pad, Scalar value=0) -> Tensor", kFn,
       [](OpCall& c) {
         // pad lists (before, after) pairs from the last dim backwards; ONNX wants all befores, then all afters.
         TensorObj* x = c.t(0);
         std::vector<DimExpr> pad = c.a.dims(1);
         size_t r = x->rank(), n = pad.size() / 2;
         std::vector<DimExpr> pads(2 * r, DimExpr(0));
         std::vector<DimExpr> shape = x->shape;
         for (size_t i = 0; i < n; ++i) {
           size_t d = r - 1 - i;
           pads[d] = pad[2 * i];
           pads[d + r] = pad[2 * i + 1];
           shape[d] = shape[d] + pad[2 * i] + pad[2 * i + 1];
         }
         double v = c.a.scalar(2).as_double();
         return c.node("Pad", {c.v(x), c.rec.shape_value(pads), c.rec.const_scalar(elem(x->dtype), v)}, x->dtype, shape,
                       {{"mode", "constant"}});
       }},
      {"cat(Tensor[] tensors, int dim=0) -> Tensor", kFn, cat},
      {"concat(Tensor[] tensors, int dim=0) -> Tensor", kFn, cat},
      {"concatenate(Tensor[] tensors, int dim=0) -> Tensor", kFn, cat},
      {"stack(Tensor[] tensors, int dim=0) -> Tensor", kFn, stack},
      {"split.Tensor(Tensor self, SymInt split_size, int dim=0) -> Tensor[]", kFn | kMethod, split_int},
      {"split.sizes(Tensor self, SymInt[] split_size, int dim=0) -> Tensor[]", kFn | kMethod, split_list},
      {"split_with_sizes(Tensor self, SymInt[] split_sizes, int dim=0) -> Tensor[]", kFn | kMethod, split_list},
      {"chunk(Tensor self, int chunks, int dim=0) -> Tensor[]", kFn | kMethod, chunk},
      {"unbind.int(Tensor self, int dim=0) -> Tensor[]", kFn | kMethod, unbind},
      {"narrow(Tensor self, int dim, SymInt start, SymInt length) -> Tensor", kFn | kMethod,
       [](OpCall& c) {
         TensorObj* x = c.t(0);
         int64_t d = norm_dim(c.I, c.a.int_(1), x->rank());
         DimExpr start = c.a.dim(2);
         if (start.is_const() && start.value() < 0) start = start + x->shape[d];
         return slice_dim(c, x, d, start, c.a.dim(3));
       }},
      {"select.int(Tensor self, int dim, SymInt index) -> Tensor", kFn | kMethod,
       [](OpCall& c) {
         TensorObj* x = c.t(0);
         if (x->rank() == 0) c.fail(c.I.exc.IndexError, "select() cannot be applied to a 0-dim tensor.");
         int64_t d = norm_dim(c.I, c.a.int_(1), x->rank());
         DimExpr idx = c.a.dim(2);
         std::vector<DimExpr> shape = x->shape;
         shape.erase(shape.begin() + d);
         Value r = c.node("Gather", {c.v(x), c.rec.dim_scalar(idx)}, x->dtype, shape, {{"axis", d}});
         mark_index_view(c, r, x, d, make_size_value(c.T, idx));
         return r;
       }},
      {"flip(Tensor self, int[] dims) -> Tensor", kFn | kMethod,
       [](OpCall& c) {
         TensorObj* x = c.t(0);
         std::vector<int64_t> dims = c.a.ints(1);
         if (dims.empty()) return c.out(c.v(x), x->dtype, x->shape);
         for (int64_t& d : dims) d = norm_dim(c.I, d, x->rank());
         std::vector<int64_t> starts(dims.size(), -1), ends(dims.size(), std::numeric_limits<int64_t>::min()),
             steps(dims.size(), -1);
         return c.node("Slice", {c.v(x), c.rec.const_i64(starts), c.rec.const_i64(ends), c.rec.const_i64(dims),
                                 c.rec.const_i64(steps)},
                       x->dtype, x->shape);
       }},
      {"roll(Tensor self, SymInt[1] shifts, int[1] dims=[]) -> Tensor", kFn | kMethod, roll},
      {"nonzero(Tensor self, *, bool as_tuple=False) -> Tensor", kFn | kMethod, nonzero},
      {"diff(Tensor self, int n=1, int dim=-1, Tensor? prepend=None, Tensor? append=None) -> Tensor", kFn | kMethod,
       diff},
      // Real tensors have no conjugate or negative bit: PyTorch returns self (conj_physical a copy).
      {"conj(Tensor self) -> Tensor", kFn | kMethod, [](OpCall& c) { return real_self(c, "conj"); }},
      {"resolve_conj(Tensor self) -> Tensor", kFn | kMethod, [](OpCall& c) { return real_self(c, "resolve_conj"); }},
      {"resolve_neg(Tensor self) -> Tensor", kFn | kMethod, [](OpCall& c) { return real_self(c, "resolve_neg"); }},
      {"conj_physical(Tensor self) -> Tensor", kFn | kMethod,
       [](OpCall& c) {
         Value self = real_self(c, "conj_physical");
         if (!is_tensor(self)) return self;
         TensorObj* x = as_tensor(self);
         return c.out(c.v(x), x->dtype, x->shape);
       }},
      {"detach(Tensor self) -> Tensor", kFn | kMethod | kInplace | kFnInplace,
       [](OpCall& c) {
         TensorObj* x = c.t(0);
         Value r = c.out(c.v(x), x->dtype, x->shape);
         make_view(as_tensor(r), x, ViewSpec{ViewSpec::Kind::Alias});
         return r;
       }},
      {"clone(Tensor self, *, MemoryFormat? memory_format=None) -> Tensor", kFn | kMethod,
       [](OpCall& c) {
         // Values are single-assignment: a copy is a new tensor object over the same value.
         TensorObj* x = c.t(0);
         Value r = c.out(c.v(x), x->dtype, x->shape);
         return r;
       }},
      {"to.dtype(Tensor self, ScalarType dtype, bool non_blocking=False, bool copy=False, MemoryFormat? memory_format=None) -> Tensor",
       kMethod, [](OpCall& c) { return to(c, c.a.dtype(1), c.a.boolean(3)); }},
      {"to.device(Tensor self, Device? device=None, ScalarType? dtype=None, bool non_blocking=False, bool copy=False, MemoryFormat? memory_format=None) -> Tensor",
       kMethod, [](OpCall& c) { return to(c, c.a.dtype(2), c.a.boolean(4)); }},
      {"to.other(Tensor self, Tensor other, bool non_blocking=False, bool copy=False, MemoryFormat? memory_format=None) -> Tensor",
       kMethod, [](OpCall& c) { return to(c, c.t(1)->dtype, c.a.boolean(3)); }},
      {"to.prim_other(Tensor self, bool non_blocking=False, bool copy=False) -> Tensor", kMethod,
       [](OpCall& c) { return to(c, std::nullopt, c.a.boolean(2)); }},
  };
  return ops;
}

}  // namespace onnxify::torch
