// Tensor indexing and functionalized index assignment (see index.h for the rules).
#include "torch/index.h"

#include <fmt/core.h>

#include <limits>

#include "torch/ops.h"

namespace onnxify::torch {

using eval::Interp;
using eval::Value;
using ir::DimExpr;

namespace {

constexpr int64_t kIntMax = std::numeric_limits<int64_t>::max();

struct Entry {
  enum class Kind : uint8_t { Int, Slice, None, Ellipsis, Tensor };
  Entry() = default;
  explicit Entry(Kind k) : kind(k) {}
  Kind kind = Kind::None;
  DimExpr i;                     // Int
  Value start, stop, step;       // Slice (Null = absent)
  TensorObj* t = nullptr;        // Tensor (integer or bool)
  Value keep;                    // keeps a tensor made from a list alive
};

// PyTorch's treatSequenceAsTuple (python_variable_indexing.cpp, NumPy's old rule, still in 2.14 with a
// deprecation warning): a list index shorter than 32 that holds a tensor, a sequence, a slice, `...` or
// None is read as a tuple of indices (`x[[*idx.permute(2, 1, 0)]]`), not as one integer-list index.
bool sequence_as_tuple(Interp& I, const std::vector<Value>& items) {
  if (items.size() >= 32) return false;
  for (const Value& v : items)
    if (is_tensor(v) || eval::is_list(v) || eval::is_tuple(v) || v.is_none() || v.is(I.ellipsis) ||
        eval::has_layout(v, eval::Layout::Slice))
      return true;
  return false;
}

// The index as entries (a tuple is several; anything else one).
std::vector<Entry> parse_key(Torch& T, const Value& key) {
  Interp& I = T.I;
  std::vector<Value> items = eval::is_tuple(key) ? eval::as_tuple(key)->items : std::vector<Value>{key};
  if (eval::is_list(key) && sequence_as_tuple(I, eval::as_list(key)->items)) items = eval::as_list(key)->items;
  for (Value& v : items) numpy_operand(I, v, &v);  // x[np_array] as PyTorch indexes with it
  std::vector<Entry> out;
  for (const Value& v : items) {
    Entry e;
    if (v.is_none()) {
      e.kind = Entry::Kind::None;
    } else if (v.is(I.ellipsis)) {
      e.kind = Entry::Kind::Ellipsis;
    } else if (v.is_bool()) {
      throw Diagnostic::error("indexing a tensor with a Python bool is not supported by onnxify", T.rec.location());
    } else if (eval::has_layout(v, eval::Layout::Slice)) {
      auto* s = eval::as<eval::Slice>(v);
      e.kind = Entry::Kind::Slice;
      if (!s->start.is_none()) e.start = s->start;
      if (!s->stop.is_none()) e.stop = s->stop;
      if (!s->step.is_none()) e.step = s->step;
    } else if (is_tensor(v)) {
      e.kind = Entry::Kind::Tensor;
      e.t = as_tensor(v);
      if (e.t->rank() == 0 && is_integral(e.t->dtype, false) && to_dim(I, v, &e.i)) {
        e.kind = Entry::Kind::Int;  // a 0-d index known at conversion time is an int
      } else if (!is_integral(e.t->dtype, true)) {
        eval::raise(I, I.exc.IndexError, "tensors used as indices must be long, int, byte or bool tensors");
      }
    } else if (eval::is_list(v) || eval::is_tuple(v) || eval::has_layout(v, eval::Layout::Range)) {
      // (a range, or a tuple inside the index tuple, is a sequence of ints to PyTorch: x[range(2),
      // range(2)], x[:, (0, 2)])
      e.kind = Entry::Kind::Tensor;
      if (eval::is_list(v) || eval::is_tuple(v)) {
        e.keep = call_op(T, "tensor", {v});
      } else {
        auto* r = eval::as<eval::Range>(v);
        e.keep = call_op(T, "arange", {Value::integer(r->start), Value::integer(r->start + r->length() * r->step),
                                       Value::integer(r->step)});
      }
      if (!is_tensor(e.keep)) throw Diagnostic::error("bad list index", T.rec.location());
      e.t = as_tensor(e.keep);
    } else if (to_dim(I, v, &e.i)) {
      e.kind = Entry::Kind::Int;
    } else {
      eval::raisef(I, I.exc.IndexError,
                   "only integers, slices (`:`), ellipsis (`...`), None and long or byte Variables are valid indices "
                   "(got {})",
                   eval::type_name(I, v));
    }
    out.push_back(std::move(e));
  }
  return out;
}

size_t dims_consumed(const Entry& e) {
  switch (e.kind) {
    case Entry::Kind::Int:
    case Entry::Kind::Slice: return 1;
    case Entry::Kind::Tensor:
      return e.t->dtype == DType::Bool || e.t->dtype == DType::UInt8 ? std::max<size_t>(e.t->rank(), 1) : 1;
    default: return 0;
  }
}

// Expands the Ellipsis (or appends one) so that the entries consume exactly `rank` dims.
std::vector<Entry> expand_ellipsis(Torch& T, std::vector<Entry> es, size_t rank) {
  size_t used = 0, ell = 0;
  for (const Entry& e : es) used += dims_consumed(e), ell += e.kind == Entry::Kind::Ellipsis;
  if (ell > 1) eval::raise(T.I, T.I.exc.IndexError, "an index can only have a single ellipsis ('...')");
  if (used > rank)
    eval::raisef(T.I, T.I.exc.IndexError, "too many indices for tensor of dimension {}", rank);
  std::vector<Entry> out;
  bool done = false;
  for (Entry& e : es) {
    if (e.kind == Entry::Kind::Ellipsis) {
      for (size_t k = 0; k < rank - used; ++k) out.push_back(Entry(Entry::Kind::Slice));
      done = true;
    } else {
      out.push_back(std::move(e));
    }
  }
  if (!done)
    for (size_t k = 0; k < rank - used; ++k) out.push_back(Entry(Entry::Kind::Slice));
  return out;
}

// A slice bound as a DimExpr: a Python int, a SymInt, or an integer tensor of one element (through
// its __index__ in PyTorch: `row[:i]` with `i` a Loop's counter), whose run-time value becomes a
// size read from it.
bool bound(Interp& I, const Value& v, DimExpr* out) {
  if (!v) return false;
  if (to_run_time_dim(I, v, out)) return true;
  eval::raise(I, I.exc.TypeError, "slice indices must be integers or None or have an __index__ method");
}

// Python's slice.indices for a dim of size n (symbolic bounds: the sign of `-n` or `k - n` decided by
// the sizes' bounds, else assumed and said, else read exactly; size_assumptions.cpp).
struct SliceRange {
  DimExpr start, stop, len;
  int64_t step = 1;
};

SliceRange slice_range(Torch& T, const Entry& e, DimExpr n) {
  Interp& I = T.I;
  SliceRange r;
  DimExpr st;
  if (e.step) {
    if (!to_dim(I, e.step, &st) || !st.is_const())
      throw Diagnostic::error("a slice step must be a static integer", T.rec.location());
    r.step = st.value();
    if (r.step <= 0) eval::raise(I, I.exc.ValueError, "step must be greater than zero");
  }
  auto clamp = [&](DimExpr b) {
    // A negative bound counts from the end, then both clamp to [0, n].
    std::optional<bool> sign = b.is_const() ? std::optional<bool>(b.value() < 0) : slice_bound_from_end(T, b);
    if (!sign) {
      // A sign only the run time knows: both readings in one expression, [b < 0] being
      // min(max(-b, 0), 1) for an integer b.
      DimExpr negative = ir::min(ir::max(-b, DimExpr(0)), DimExpr(1));
      return simplify_sizes(T, ir::min(ir::max(b + n * negative, DimExpr(0)), n));
    }
    bool from_end = *sign;
    if (from_end) b = b + n;
    if (b.is_const() && n.is_const()) return DimExpr(std::max<int64_t>(0, std::min(b.value(), n.value())));
    if (from_end) return simplify_sizes(T, ir::max(b, DimExpr(0)));
    return simplify_sizes(T, ir::min(b, n));
  };
  DimExpr b;
  r.start = bound(I, e.start, &b) ? clamp(b) : DimExpr(0);
  r.stop = bound(I, e.stop, &b) ? clamp(b) : n;
  DimExpr span = r.stop - r.start;
  r.len = span.is_const() ? DimExpr(std::max<int64_t>(0, (span.value() + r.step - 1) / r.step))
                          : ir::max(ir::ceil_div(span, DimExpr(r.step)), DimExpr(0));
  return r;
}

DimExpr norm_int_index(Torch& T, DimExpr i, DimExpr n, size_t dim) {
  if (i.is_const() && n.is_const()) {
    int64_t k = i.value();
    if (k < -n.value() || k >= n.value())
      eval::raisef(T.I, T.I.exc.IndexError, "index {} is out of bounds for dimension {} with size {}", k, dim, n.value());
    return k < 0 ? k + n.value() : k;
  }
  if (i.is_const() && i.value() < 0) return i + n;
  return i;
}

struct Basic {
  ir::Value* v;
  std::vector<DimExpr> shape;
  // For each remaining advanced entry: the dim of `v` it indexes.
  std::vector<std::pair<size_t, TensorObj*>> advanced;
};

// Applies ints, slices and Nones; returns the tensor and where the advanced indices apply.
Basic apply_basic(Torch& T, TensorObj* x, const std::vector<Entry>& es) {
  Recorder& R = T.rec;
  ir::ElementType et = elem(x->dtype);
  Basic b{value_of(T, x), x->shape, {}};
  size_t in_dim = 0, out_dim = 0;  // position in x / in b.v
  // Slices first (they keep dims), then ints (remove dims, from the back), then Nones.
  std::vector<int64_t> s_axes, s_starts, s_ends, s_steps;
  std::vector<ir::Value*> dyn_starts, dyn_ends;
  bool dynamic = false;
  std::vector<std::pair<size_t, DimExpr>> ints;  // dim of b (before removal), index
  std::vector<size_t> nones;                     // output positions of new dims
  std::vector<DimExpr> shape = x->shape;
  std::vector<std::pair<size_t, TensorObj*>> adv;
  for (const Entry& e : es) {
    switch (e.kind) {
      case Entry::Kind::None: nones.push_back(out_dim++); break;
      case Entry::Kind::Int: {
        ints.emplace_back(in_dim, norm_int_index(T, e.i, x->shape[in_dim], in_dim));
        ++in_dim;
        break;
      }
      case Entry::Kind::Slice: {
        SliceRange r = slice_range(T, e, x->shape[in_dim]);
        bool full = r.step == 1 && r.start == DimExpr(0) && r.stop == x->shape[in_dim];
        if (!full) {
          s_axes.push_back(static_cast<int64_t>(in_dim));
          s_steps.push_back(r.step);
          DimExpr bs, be;
          bool has_start = bound(T.I, e.start, &bs), has_stop = bound(T.I, e.stop, &be);
          // Slice clamps like Python: pass the bounds as written (INT64_MAX for an absent stop).
          DimExpr st = has_start ? bs : DimExpr(0);
          DimExpr sp = has_stop ? be : DimExpr(kIntMax);
          if (!st.is_const() || !sp.is_const()) dynamic = true;
          dyn_starts.push_back(R.dim_vec(st));
          dyn_ends.push_back(sp.is_const() ? R.const_i64({sp.value()}) : R.dim_vec(sp));
          s_starts.push_back(st.is_const() ? st.value() : 0);
          s_ends.push_back(sp.is_const() ? sp.value() : 0);
          shape[in_dim] = r.len;
        }
        ++in_dim;
        ++out_dim;
        break;
      }
      case Entry::Kind::Tensor: {
        adv.emplace_back(in_dim, e.t);
        size_t k = dims_consumed(e);
        in_dim += k;
        out_dim += k;
        break;
      }
      case Entry::Kind::Ellipsis: break;
    }
  }
  if (!s_axes.empty()) {
    auto bounds = [&](const std::vector<ir::Value*>& parts, const std::vector<int64_t>& consts) {
      if (!dynamic) return R.const_i64(consts);
      if (parts.size() == 1) return parts[0];
      return R.emit("Concat", parts, ir::Type::tensor(ir::ElementType::Int64, {int64_t(parts.size())}),
                    {{"axis", int64_t{0}}});
    };
    ir::Value* starts = bounds(dyn_starts, s_starts);
    ir::Value* ends = bounds(dyn_ends, s_ends);
    b.v = R.emit("Slice", {b.v, starts, ends, R.const_i64(s_axes), R.const_i64(s_steps)}, ir::Type::tensor(et, shape));
  }
  b.shape = shape;
  // Ints: Gather with a scalar index removes the dim (from the back so earlier dims keep their place).
  for (auto it = ints.rbegin(); it != ints.rend(); ++it) {
    b.shape.erase(b.shape.begin() + it->first);
    b.v = R.emit("Gather", {b.v, R.dim_scalar(it->second)}, ir::Type::tensor(et, b.shape), {{"axis", int64_t(it->first)}});
  }
  // Advanced entries: their dims shift left by the ints removed before them.
  for (auto& [d, t] : adv) {
    size_t removed = 0;
    for (auto& [id, _] : ints) removed += id < d;
    b.advanced.emplace_back(d - removed, t);
  }
  // Nones: new size-1 dims at their output positions.
  if (!nones.empty()) {
    std::vector<int64_t> axes;
    for (size_t p : nones) {
      axes.push_back(static_cast<int64_t>(p));
      b.shape.insert(b.shape.begin() + p, DimExpr(1));
      for (auto& [d, t] : b.advanced)
        if (d >= p) ++d;
    }
    b.v = R.emit("Unsqueeze", {b.v, R.const_i64(axes)}, ir::Type::tensor(et, b.shape));
  }
  return b;
}

// One advanced index over one dim of the basic result: int64 positions, negatives normalized.
struct AdvIndex {
  size_t dim;
  ir::Value* idx;
  std::vector<DimExpr> shape;
};

Value apply_advanced(Torch& T, TensorObj* x, Basic b) {
  Recorder& R = T.rec;
  ir::ElementType et = elem(x->dtype);
  const ir::ElementType i64 = ir::ElementType::Int64;
  if (b.advanced.size() == 1 && b.advanced[0].second->dtype != DType::Bool &&
      b.advanced[0].second->dtype != DType::UInt8) {
    // One integer index tensor: Gather along its dim (negative indices count from the end, as Gather does).
    auto [d, t] = b.advanced[0];
    std::vector<DimExpr> shape(b.shape.begin(), b.shape.begin() + d);
    shape.insert(shape.end(), t->shape.begin(), t->shape.end());
    shape.insert(shape.end(), b.shape.begin() + d + 1, b.shape.end());
    ir::Value* idx = cast_to(T, value_of(T, t), t->dtype, DType::Int64, t->shape);
    return new_tensor(T, R.emit("Gather", {b.v, idx}, ir::Type::tensor(et, shape), {{"axis", int64_t(d)}}), x->dtype, shape);
  }
  // General case (PyTorch's advanced indexing): the index tensors (a k-dim mask is k index vectors,
  // from NonZero) broadcast together to B; the indexed dims move to the front and one GatherND reads
  // B + the other dims; then B goes back to where the indexed dims were when they were adjacent.
  std::vector<AdvIndex> idx;
  for (auto& [d, t] : b.advanced) {
    if (t->dtype == DType::Bool || t->dtype == DType::UInt8) {
      size_t k = t->rank();
      if (k == 0) return unsupported(T, "indexing with a 0-d boolean tensor", "use torch.where or an if statement");
      for (size_t j = 0; j < k; ++j) {
        DimExpr md = t->shape[j], xd = b.shape[d + j];
        if (md.is_const() && xd.is_const() && md.value() != xd.value())
          eval::raisef(T.I, T.I.exc.IndexError,
                       "The shape of the mask [{}] at index {} does not match the shape of the indexed tensor [{}] at "
                       "index {}",
                       md.value(), j, xd.value(), d + j);
      }
      ir::Value* nz = nullptr;
      DimExpr count;
      if (auto known = known_values(T, t)) {
        // A mask known at conversion time: its true positions are a constant, their count static.
        const auto& ms = known->shape();
        std::vector<int64_t> pos;
        for (int64_t e = 0; e < known->numel(); ++e)
          if (known->int_at(e) != 0) pos.push_back(e);
        std::vector<int64_t> flat(k * pos.size());
        for (size_t p = 0; p < pos.size(); ++p)
          for (size_t j = k, rest = static_cast<size_t>(pos[p]); j-- > 0;) {
            flat[j * pos.size() + p] = static_cast<int64_t>(rest % static_cast<size_t>(ms[j]));
            rest /= static_cast<size_t>(ms[j]);
          }
        count = DimExpr(static_cast<int64_t>(pos.size()));
        nz = R.constant(ir::Tensor::from_values<int64_t>(i64, {int64_t(k), count.value()}, flat));
      } else {
        ir::Value* m = cast_to(T, value_of(T, t), t->dtype, DType::Bool, t->shape);
        nz = R.emit("NonZero", {m}, ir::Type::tensor(i64, {int64_t(k), DimExpr::unknown()}));
        count = R.fresh_symbol(nz, 1);
        nz->set_type(ir::Type::tensor(i64, {int64_t(k), count}));
      }
      for (size_t j = 0; j < k; ++j)
        idx.push_back({d + j, R.emit("Gather", {nz, R.const_i64_scalar(int64_t(j))}, ir::Type::tensor(i64, {count}),
                                     {{"axis", int64_t{0}}}),
                       {count}});
    } else {
      ir::Value* v = cast_to(T, value_of(T, t), t->dtype, DType::Int64, t->shape);
      // Negative positions count from the end of their dim.
      ir::Type vt = ir::Type::tensor(i64, t->shape);
      ir::Value* zero = R.const_i64_scalar(0);
      ir::Value* neg = R.emit("Less", {v, zero}, ir::Type::tensor(ir::ElementType::Bool, t->shape));
      v = R.emit("Where", {neg, R.emit("Add", {v, R.dim_scalar(b.shape[d])}, vt), v}, vt);
      idx.push_back({d, v, t->shape});
    }
  }
  std::vector<DimExpr> bshape;
  for (const AdvIndex& a : idx) bshape = broadcast_shapes(T.I, bshape, a.shape);
  size_t rank = b.shape.size(), nb = bshape.size(), m = idx.size();
  std::vector<bool> indexed(rank);
  for (const AdvIndex& a : idx) {
    if (indexed[a.dim]) return unsupported(T, "two index tensors for one dim", "index each dim once");
    indexed[a.dim] = true;
  }
  bool adjacent = true;
  for (size_t i = 1; i < m; ++i) adjacent &= idx[i].dim == idx[i - 1].dim + 1;
  std::vector<int64_t> perm;
  for (const AdvIndex& a : idx) perm.push_back(int64_t(a.dim));
  std::vector<DimExpr> rest;
  for (size_t i = 0; i < rank; ++i)
    if (!indexed[i]) perm.push_back(int64_t(i)), rest.push_back(b.shape[i]);
  ir::Value* data = b.v;
  bool identity = true;
  for (size_t i = 0; i < rank; ++i) identity &= perm[i] == int64_t(i);
  if (!identity) {
    std::vector<DimExpr> ps;
    for (int64_t p : perm) ps.push_back(b.shape[p]);
    data = R.emit("Transpose", {data}, ir::Type::tensor(et, ps), {{"perm", perm}});
  }
  // Indices [B..., m]: each index broadcast to B, stacked on a new last axis.
  std::vector<DimExpr> b1(bshape);
  b1.push_back(DimExpr(1));
  ir::Value* bvec = R.shape_value(bshape);
  std::vector<ir::Value*> cols;
  for (const AdvIndex& a : idx) {
    ir::Value* v = a.shape == bshape ? a.idx : R.emit("Expand", {a.idx, bvec}, ir::Type::tensor(i64, bshape));
    cols.push_back(R.emit("Unsqueeze", {v, R.const_i64({int64_t(nb)})}, ir::Type::tensor(i64, b1)));
  }
  std::vector<DimExpr> bm(bshape);
  bm.push_back(DimExpr(int64_t(m)));
  ir::Value* indices = cols.size() == 1 ? cols[0]
                                        : R.emit("Concat", cols, ir::Type::tensor(i64, bm), {{"axis", int64_t(nb)}});
  std::vector<DimExpr> shape(bshape);
  shape.insert(shape.end(), rest.begin(), rest.end());
  ir::Value* out = R.emit("GatherND", {data, indices}, ir::Type::tensor(et, shape));
  size_t first = idx[0].dim;
  if (adjacent && first > 0) {
    // [B, rest] -> [rest[:first], B, rest[first:]]
    std::vector<int64_t> back;
    for (size_t i = 0; i < first; ++i) back.push_back(int64_t(nb + i));
    for (size_t i = 0; i < nb; ++i) back.push_back(int64_t(i));
    for (size_t i = nb + first; i < shape.size(); ++i) back.push_back(int64_t(i));
    std::vector<DimExpr> s2;
    for (int64_t p : back) s2.push_back(shape[p]);
    out = R.emit("Transpose", {out}, ir::Type::tensor(et, s2), {{"perm", back}});
    shape = s2;
  }
  return new_tensor(T, out, x->dtype, shape);
}

// base[key] = v for a key with index tensors: the positions base[key] reads (the same indexing
// applied to arange(numel) in base's shape) receive v broadcast to that result, one ScatterElements
// over the flattened tensor. PyTorch's placement rules hold by construction.
ir::Value* index_put_advanced(Torch& T, TensorObj* base, const Value& key, ir::Value* v,
                              const std::vector<DimExpr>& v_shape) {
  Recorder& R = T.rec;
  const ir::ElementType i64 = ir::ElementType::Int64;
  ir::ElementType et = elem(base->dtype);
  DimExpr n = product(base->shape);
  ir::Value* lin = R.emit("Range", {R.const_i64_scalar(0), R.dim_scalar(n), R.const_i64_scalar(1)},
                          ir::Type::tensor(i64, {n}));
  lin = reshape_value(T, lin, base->shape, i64);
  Value pos_t = new_tensor(T, lin, DType::Int64, base->shape);
  Value sel = index_get(T, as_tensor(pos_t), key, false);
  if (!is_tensor(sel)) return value_of(T, base);  // unsupported (reported)
  TensorObj* s = as_tensor(sel);
  // v must broadcast to the indexed result (statically mismatching sizes are PyTorch's error; sizes
  // only known at run time are checked by Expand then).
  auto text = [](const std::vector<DimExpr>& d) {
    std::string r = "[";
    for (size_t i = 0; i < d.size(); ++i) r += (i ? ", " : "") + d[i].str();
    return r + "]";
  };
  bool ok = v_shape.size() <= s->shape.size();
  for (size_t i = 0; ok && i < v_shape.size(); ++i) {
    DimExpr a = v_shape[v_shape.size() - 1 - i], b = s->shape[s->shape.size() - 1 - i];
    ok = !(a.is_const() && b.is_const() && a.value() != b.value() && a.value() != 1);
  }
  if (!ok)
    eval::raisef(T.I, T.I.exc.RuntimeError,
                 "shape mismatch: value tensor of shape {} cannot be broadcast to indexing result of shape {}",
                 text(v_shape), text(s->shape));
  DimExpr m = product(s->shape);
  if (v_shape != s->shape) v = R.emit("Expand", {v, R.shape_value(s->shape)}, ir::Type::tensor(et, s->shape));
  ir::Value* flat_v = R.emit("Reshape", {v, R.const_i64({-1})}, ir::Type::tensor(et, {m}));
  ir::Value* flat_i = R.emit("Reshape", {value_of(T, s), R.const_i64({-1})}, ir::Type::tensor(i64, {m}));
  ir::Value* flat_x = R.emit("Reshape", {value_of(T, base), R.const_i64({-1})}, ir::Type::tensor(et, {n}));
  ir::Value* out = R.emit("ScatterElements", {flat_x, flat_i, flat_v}, ir::Type::tensor(et, {n}), {{"axis", int64_t{0}}});
  return reshape_value(T, out, base->shape, elem(base->dtype));
}

// The updates of scatter / scatter_add / scatter_reduce: src cut to the index's shape (PyTorch reads
// only src's leading part), or a scalar value expanded to it.
ir::Value* scatter_updates(OpCall& c, bool value_form) {
  TensorObj* x = c.t(0);
  TensorObj* idx = c.t(2);
  if (idx->dtype != DType::Int64) c.runtime_error("scatter(): Expected dtype int64 for index");
  if (idx->rank() != x->rank() && !(x->rank() == 0 && idx->rank() <= 1))
    c.runtime_error("Index tensor must have the same number of dimensions as self tensor");
  Recorder& R = c.rec;
  ir::ElementType et = elem(x->dtype);
  ir::Value* upd;
  if (value_form) {
    Operand o = operand(c.I, c.a.raw(3));
    upd = R.emit("Expand", {operand_value(c.T, o, x->dtype), R.shape_value(idx->shape)}, ir::Type::tensor(et, idx->shape));
  } else {
    TensorObj* src = c.t(3);
    if (src->dtype != x->dtype)
      c.runtime_error(fmt::format("scatter(): Expected self.dtype to be equal to src.dtype"));
    if (src->rank() != idx->rank())
      c.runtime_error("Index tensor must have the same number of dimensions as src tensor");
    upd = c.v(src);
    if (src->shape != idx->shape) {
      std::vector<int64_t> axes;
      for (size_t i = 0; i < idx->rank(); ++i) axes.push_back(int64_t(i));
      upd = R.emit("Slice", {upd, R.const_i64(std::vector<int64_t>(idx->rank(), 0)), R.shape_value(idx->shape), R.const_i64(axes)},
                   ir::Type::tensor(et, idx->shape));
    }
  }
  return upd;
}

// scatter / scatter_add / scatter.reduce: ScatterElements.
Value scatter(OpCall& c, const std::string& reduction, bool value_form) {
  TensorObj* x = c.t(0);
  int64_t d = norm_dim(c.I, c.a.int_(1), x->rank());
  ir::Value* upd = scatter_updates(c, value_form);
  Attrs attrs{{"axis", d}};
  if (!reduction.empty()) attrs.push_back({"reduction", reduction});
  return c.node("ScatterElements", {c.v(x), c.v(c.t(2)), upd}, x->dtype, x->shape, attrs);
}

// The identity of a scatter_reduce reduction as a 0-d constant of element type e: 0 (sum, mean),
// 1 (prod), the lowest value (amax: -inf for floats) or the highest (amin).
ir::Value* reduction_identity(Recorder& R, ir::ElementType e, const std::string& reduce) {
  if (reduce == "sum" || reduce == "mean") return R.const_scalar(e, 0);
  if (reduce == "prod") return R.const_scalar(e, 1);
  const bool high = reduce == "amin";
  auto ext = [&](auto zero) {
    using T = decltype(zero);
    T v = high ? std::numeric_limits<T>::max() : std::numeric_limits<T>::lowest();
    return R.constant(ir::Tensor::from_values<T>(e, {}, {v}));
  };
  switch (e) {
    case ir::ElementType::Int64: return ext(int64_t{});
    case ir::ElementType::Int32: return ext(int32_t{});
    case ir::ElementType::Int16: return ext(int16_t{});
    case ir::ElementType::Int8: return ext(int8_t{});
    case ir::ElementType::UInt8: return ext(uint8_t{});
    default: return R.const_scalar(e, high ? std::numeric_limits<double>::infinity()
                                           : -std::numeric_limits<double>::infinity());
  }
}

// scatter_reduce(self, dim, index, src, reduce, include_self): ScatterElements with the reduction
// (sum/prod: add/mul; amax/amin: max/min, from opset 18). include_self=False: the positions the
// index writes start from the reduction's identity instead of self (which positions: a scatter-add of
// ones, exact with repeated indices). mean: the sum and the count scattered alike and divided (floor
// division for integers, as PyTorch rounds).
Value scatter_reduce(OpCall& c) {
  TensorObj* x = c.t(0);
  TensorObj* idx = c.t(2);
  const std::string reduce = c.a.str(4);
  const bool include_self = c.a.boolean(5);
  static const char* const kOnnx[][2] = {{"sum", "add"}, {"prod", "mul"}, {"mean", "add"}, {"amax", "max"},
                                         {"amin", "min"}};
  const char* onnx = nullptr;
  for (const auto& [torch_name, onnx_name] : kOnnx)
    if (reduce == torch_name) onnx = onnx_name;
  if (!onnx) c.runtime_error(fmt::format("reduce argument must be either sum, prod, mean, amax or amin, got {}", reduce));
  if (include_self && reduce != "mean") return scatter(c, onnx, false);
  if (x->dtype == DType::Bool && reduce == "mean")
    c.runtime_error("\"scatter_gather_tensor_cpu_reduce_mean\" not implemented for 'Bool'");
  if (x->dtype == DType::Bool)
    return c.unsupported(fmt::format("scatter_reduce of a bool tensor with reduce='{}'{}", reduce,
                                     include_self ? "" : " and include_self=False"));
  int64_t d = norm_dim(c.I, c.a.int_(1), x->rank());
  Recorder& R = c.rec;
  const ir::ElementType et = elem(x->dtype);
  const ir::Type xt = x->ir_type();
  ir::Value* iv = c.v(idx);
  ir::Value* upd = scatter_updates(c, false);
  auto full = [&](ir::ElementType e, double v, const std::vector<DimExpr>& shape) {
    return R.emit("Expand", {R.const_scalar(e, v), R.shape_value(shape)}, ir::Type::tensor(e, shape));
  };
  auto scatter_with = [&](ir::Value* base, ir::Value* u, const ir::Type& t, const char* how) {
    return R.emit("ScatterElements", {base, iv, u}, t, {{"axis", d}, {"reduction", std::string(how)}});
  };
  // How many updates each position receives (float32: ScatterElements' add on every target).
  const ir::Type ct = ir::Type::tensor(ir::ElementType::Float32, x->shape);
  ir::Value* hits = scatter_with(full(ir::ElementType::Float32, 0, x->shape),
                                full(ir::ElementType::Float32, 1, idx->shape), ct, "add");
  ir::Value* base = c.v(x);
  ir::Value* written = nullptr;
  if (!include_self) {
    written = R.emit("Greater", {hits, R.const_scalar(ir::ElementType::Float32, 0)},
                     ir::Type::tensor(ir::ElementType::Bool, x->shape));
    base = R.emit("Where", {written, reduction_identity(R, et, reduce), base}, xt);
  }
  ir::Value* out = scatter_with(base, upd, xt, onnx);
  if (reduce != "mean") return c.out(out, x->dtype, x->shape);
  // mean: the sum over (self, if included, and) the updates, divided by their count; a position no
  // update reaches keeps self (count 1 with self, else the sum of nothing is self's own value there).
  ir::Value* count = include_self ? R.emit("Add", {hits, R.const_scalar(ir::ElementType::Float32, 1)}, ct)
                                  : R.emit("Max", {hits, R.const_scalar(ir::ElementType::Float32, 1)}, ct);
  count = R.emit("Cast", {count}, xt, {{"to", int64_t{ir::info(et).onnx}}});
  if (is_floating(x->dtype)) return c.node("Div", {out, count}, x->dtype, x->shape);
  // Floor division: the remainder Mod (with the divisor's sign, here positive) takes away first.
  ir::Value* rem = R.emit("Mod", {out, count}, xt);
  return c.node("Div", {R.emit("Sub", {out, rem}, xt), count}, x->dtype, x->shape);
}

// PyTorch's reduce names for scatter(..., reduce=) to ONNX's reductions.
std::string scatter_reduction(OpCall& c, const std::string& r) {
  if (r == "add") return "add";
  if (r == "multiply") return "mul";
  c.runtime_error("reduce argument must be either add or multiply.");
}

}  // namespace

Value index_get(Torch& T, TensorObj* base, const Value& key, bool as_view) {
  std::vector<Entry> es = expand_ellipsis(T, parse_key(T, key), base->rank());
  Basic b = apply_basic(T, base, es);
  if (!b.advanced.empty()) return apply_advanced(T, base, std::move(b));
  Value r = new_tensor(T, b.v, base->dtype, b.shape);
  if (as_view) make_view(as_tensor(r), base, ViewSpec{ViewSpec::Kind::Index, key});
  return r;
}

bool index_keeps_contiguous(Torch& T, TensorObj* base, const Value& key) {
  std::vector<Entry> es = expand_ellipsis(T, parse_key(T, key), base->rank());
  size_t d = 0;
  bool leading = true;  // still in the leading ints
  for (const Entry& e : es) {
    if (e.kind == Entry::Kind::None) continue;
    if (e.kind == Entry::Kind::Tensor) return false;
    if (e.kind == Entry::Kind::Int) {
      if (!leading) return false;
    } else {
      SliceRange r = slice_range(T, e, base->shape[d]);
      bool full = r.step == 1 && r.start == DimExpr(0) && r.stop == base->shape[d];
      if (!leading && !full) return false;
      if (r.step != 1) return false;
      leading = false;
    }
    ++d;
  }
  return true;
}

std::optional<std::vector<int64_t>> index_view_strides(Torch& T, TensorObj* base, const Value& key,
                                                       const std::vector<int64_t>& base_strides) {
  std::vector<Entry> es = expand_ellipsis(T, parse_key(T, key), base->rank());
  std::vector<int64_t> out;
  size_t d = 0;
  for (const Entry& e : es) {
    switch (e.kind) {
      case Entry::Kind::Tensor: return std::nullopt;  // advanced indexing copies
      case Entry::Kind::None: out.push_back(1); continue;  // a new dim of size 1: its stride never matters
      case Entry::Kind::Int: break;                        // the dim is gone
      case Entry::Kind::Slice: {
        SliceRange r = slice_range(T, e, base->shape[d]);
        out.push_back(base_strides[d] * r.step);
        break;
      }
      case Entry::Kind::Ellipsis: break;
    }
    ++d;
  }
  for (; d < base->rank(); ++d) out.push_back(base_strides[d]);  // dims the key leaves whole
  return out;
}

ir::Value* index_put_value(Torch& T, TensorObj* base, const Value& key, ir::Value* v, DType v_dtype,
                           const std::vector<DimExpr>& v_shape) {
  Recorder& R = T.rec;
  ir::ElementType et = elem(base->dtype);
  std::vector<Entry> es = expand_ellipsis(T, parse_key(T, key), base->rank());
  v = cast_to(T, v, v_dtype, base->dtype, v_shape);
  bool has_tensor = false;
  for (const Entry& e : es) has_tensor |= e.kind == Entry::Kind::Tensor;
  if (has_tensor) {
    // x[mask] = scalar with a mask over x's leading dims (the rest untouched): Where, the mask
    // broadcast over the trailing dims.
    bool leading_mask = es[0].kind == Entry::Kind::Tensor && es[0].t->dtype == DType::Bool && es[0].t->rank() >= 1 &&
                        es[0].t->rank() <= base->rank();
    for (size_t i = 1; leading_mask && i < es.size(); ++i)
      leading_mask = es[i].kind == Entry::Kind::Slice && !es[i].start && !es[i].stop && !es[i].step;
    for (size_t i = 0; leading_mask && i < es[0].t->rank(); ++i) leading_mask = es[0].t->shape[i] == base->shape[i];
    bool scalar_like = true;
    for (DimExpr d : v_shape) scalar_like &= d.is_const() && d.value() == 1;
    if (leading_mask && scalar_like) {
      TensorObj* m = es[0].t;
      ir::Value* vm = value_of(T, m);
      if (m->rank() < base->rank()) {
        std::vector<int64_t> axes;
        std::vector<DimExpr> ms = m->shape;
        for (size_t i = m->rank(); i < base->rank(); ++i) axes.push_back(int64_t(i)), ms.push_back(DimExpr(1));
        vm = R.emit("Unsqueeze", {vm, R.const_i64(axes)}, ir::Type::tensor(ir::ElementType::Bool, ms));
      }
      ir::Value* sv = v_shape.empty() ? v : R.emit("Reshape", {v, R.const_i64({})}, ir::Type::tensor(et, {}));
      return select_value(T, vm, sv, value_of(T, base), base->dtype, base->shape);
    }
    return index_put_advanced(T, base, key, v, v_shape);
  }
  // The indexed region as a grid over the leading k dims (k = the last indexed dim + 1): one index
  // vector per dim (Range for a slice, the index for an int), combined into ScatterND indices.
  std::vector<DimExpr> view_shape;  // the shape x[key] has (Nones included, ints removed)
  std::vector<DimExpr> grid;        // L_0..L_{k-1}
  std::vector<ir::Value*> ranges;
  size_t d = 0, k = 0;
  for (size_t i = 0; i < es.size(); ++i) {
    const Entry& e = es[i];
    if (e.kind == Entry::Kind::None) {
      view_shape.push_back(DimExpr(1));
      continue;
    }
    bool full = false;
    if (e.kind == Entry::Kind::Slice) {
      SliceRange r = slice_range(T, e, base->shape[d]);
      full = r.step == 1 && r.start == DimExpr(0) && r.stop == base->shape[d];
      view_shape.push_back(r.len);
      grid.push_back(r.len);
      ranges.push_back(R.emit("Range", {R.dim_scalar(r.start), R.dim_scalar(r.start + r.len * r.step), R.const_i64_scalar(r.step)},
                              ir::Type::tensor(ir::ElementType::Int64, {r.len})));
    } else {
      DimExpr idx = norm_int_index(T, e.i, base->shape[d], d);
      grid.push_back(DimExpr(1));
      ranges.push_back(R.dim_vec(idx));
    }
    ++d;
    if (!full) k = d;
  }
  if (k == 0) {
    // The whole tensor: x[...] = v.
    return R.emit("Expand", {v, R.shape_value(base->shape)}, base->ir_type());
  }
  grid.resize(k);
  ranges.resize(k);
  std::vector<DimExpr> region(grid);  // the updates' shape: grid + untouched trailing dims
  region.insert(region.end(), base->shape.begin() + k, base->shape.end());
  // Updates: v broadcast to x[key]'s shape, then laid out over the grid (ints as size-1 dims).
  ir::Value* upd = R.emit("Expand", {v, R.shape_value(view_shape)}, ir::Type::tensor(et, view_shape));
  upd = reshape_value(T, upd, region, et);
  // Indices: [L_0, ..., L_{k-1}, k].
  std::vector<DimExpr> gk(grid);
  gk.push_back(DimExpr(1));
  std::vector<ir::Value*> cols;
  ir::Value* grid_shape = R.shape_value(grid);
  for (size_t i = 0; i < k; ++i) {
    std::vector<DimExpr> s(k, DimExpr(1));
    s[i] = grid[i];
    ir::Value* r = reshape_value(T, ranges[i], s, ir::ElementType::Int64);
    r = R.emit("Expand", {r, grid_shape}, ir::Type::tensor(ir::ElementType::Int64, grid));
    cols.push_back(R.emit("Unsqueeze", {r, R.const_i64({int64_t(k)})}, ir::Type::tensor(ir::ElementType::Int64, gk)));
  }
  std::vector<DimExpr> ishape(grid);
  ishape.push_back(DimExpr(int64_t(k)));
  ir::Value* indices = cols.size() == 1 ? cols[0]
                                        : R.emit("Concat", cols, ir::Type::tensor(ir::ElementType::Int64, ishape),
                                                 {{"axis", int64_t(k)}});
  return R.emit("ScatterND", {value_of(T, base), indices, upd}, base->ir_type());
}

void index_set(Torch& T, TensorObj* base, const Value& key, const Value& value_in) {
  Value value = value_in;
  if (numpy_operand(T.I, value_in, &value) && is_tensor(value))  // (a numpy scalar is a number here)
    eval::raise(T.I, T.I.exc.TypeError, "can't assign a numpy.ndarray to a torch tensor (PyTorch refuses it too: "
                                        "convert it with torch.from_numpy)");
  ir::Value* v;
  DType dt;
  std::vector<DimExpr> shape;
  if (is_tensor(value)) {
    TensorObj* t = as_tensor(value);
    v = value_of(T, t);
    dt = t->dtype;
    shape = t->shape;
  } else {
    Operand o = operand(T.I, value);
    dt = base->dtype;
    v = operand_value(T, o, dt);
  }
  assign_inplace(T, base, index_put_value(T, base, key, v, dt, shape));
}

const std::vector<OpDef>& index_ops() {
  static const std::vector<OpDef> ops = {
      {"index_select(Tensor self, int dim, Tensor index) -> Tensor", kFn | kMethod,
       [](OpCall& c) {
         TensorObj* x = c.t(0);
         TensorObj* idx = c.t(2);
         if (idx->rank() > 1) c.runtime_error("index_select(): Index is supposed to be a vector");
         int64_t d = norm_dim(c.I, c.a.int_(1), x->rank());
         std::vector<DimExpr> shape = x->shape;
         if (!shape.empty()) shape[d] = idx->rank() ? idx->shape[0] : DimExpr(1);
         ir::Value* i = cast_to(c.T, c.v(idx), idx->dtype, DType::Int64, idx->shape);
         // A 0-d index selects one entry and keeps the dim (size 1); ONNX's Gather with a scalar
         // index would remove it.
         if (idx->rank() == 0 && x->rank() > 0)
           i = c.rec.emit("Reshape", {i, c.rec.const_i64({1})}, ir::Type::tensor(ir::ElementType::Int64, {DimExpr(1)}));
         return c.node("Gather", {c.v(x), i}, x->dtype, shape, {{"axis", d}});
       }},
      {"gather(Tensor self, int dim, Tensor index, *, bool sparse_grad=False) -> Tensor", kFn | kMethod,
       [](OpCall& c) {
         TensorObj* x = c.t(0);
         TensorObj* idx = c.t(2);
         int64_t d = norm_dim(c.I, c.a.int_(1), x->rank());
         if (idx->rank() != x->rank())
           c.runtime_error("Index tensor must have the same number of dimensions as input tensor");
         return c.node("GatherElements", {c.v(x), cast_to(c.T, c.v(idx), idx->dtype, DType::Int64, idx->shape)}, x->dtype,
                       idx->shape, {{"axis", d}});
       }},
      {"scatter.src(Tensor self, int dim, Tensor index, Tensor src) -> Tensor", kFn | kMethod | kInplace,
       [](OpCall& c) { return scatter(c, "", false); }},
      {"scatter.value(Tensor self, int dim, Tensor index, Scalar value) -> Tensor", kFn | kMethod | kInplace,
       [](OpCall& c) { return scatter(c, "", true); }},
      {"scatter.reduce(Tensor self, int dim, Tensor index, Tensor src, *, str reduce) -> Tensor", kFn | kMethod | kInplace,
       [](OpCall& c) { return scatter(c, scatter_reduction(c, c.a.str(4)), false); }},
      {"scatter.value_reduce(Tensor self, int dim, Tensor index, Scalar value, *, str reduce) -> Tensor",
       kFn | kMethod | kInplace, [](OpCall& c) { return scatter(c, scatter_reduction(c, c.a.str(4)), true); }},
      {"scatter_add(Tensor self, int dim, Tensor index, Tensor src) -> Tensor", kFn | kMethod | kInplace,
       [](OpCall& c) { return scatter(c, "add", false); }},
      {"scatter_reduce.two(Tensor self, int dim, Tensor index, Tensor src, str reduce, *, bool include_self=True) -> Tensor",
       kFn | kMethod | kInplace,
       scatter_reduce},
  };
  return ops;
}

}  // namespace onnxify::torch
