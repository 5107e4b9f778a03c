// Random ops: torch.rand/randn/randint/randperm/normal/bernoulli/multinomial/poisson and their _like
// forms, the in-place random fills (normal_, uniform_, exponential_, ...) and dropout in training mode.
//
// While the model is built (module code, __init__) a draw is a random placeholder: a parameter or
// buffer whose values the checkpoint gives, which no conversion-time computation may read (core.h).
//
// In forward a draw is recorded: ONNX RandomUniform(Like) / RandomNormal(Like) of the result's shape
// and the distribution's transform of those (randint = low + floor(U * (high - low)), bernoulli =
// U < p, exponential = -log(1 - U) / lambda, randperm = the order of n uniforms, multinomial =
// Gumbel-max / Gumbel-top-k). The exported model draws new values on every run, as PyTorch does, from
// the same distributions; it cannot reproduce PyTorch's generator (a seed or `generator=` does not
// carry over), so a warning says the model is random. Values drawn in forward are run-time values:
// `if torch.rand(()) < p:` is a tensor-dependent branch (ONNX If), not a conversion-time decision.
#include <fmt/core.h>

#include <cfloat>
#include <cmath>

#include "torch/ops.h"

namespace onnxify::torch {

using eval::Value;
using ir::DimExpr;

namespace {

bool static_shape(const std::vector<DimExpr>& s, std::vector<int64_t>* out) {
  for (const DimExpr& d : s) {
    if (!d.is_const()) return false;
    out->push_back(d.value());
  }
  return true;
}

// One warning per export, at the first place forward draws random values: a model that injects noise
// in every layer would otherwise repeat it for each.
void warn_once(OpCall& c, std::string_view key, const std::string& text) {
  for (const Diagnostic& w : c.T.warnings)
    if (w.message().find(key) != std::string::npos) return;
  c.T.warnings.push_back(Diagnostic::warning(text, c.rec.location()));
}

constexpr std::string_view kDrawsKey = "draws random values in forward";

void warn_random(OpCall& c, const std::string& what) {
  warn_once(c, kDrawsKey,
            fmt::format("{} {} (the first such place): the exported model draws new ones on every run, from the same "
                        "distributions as PyTorch; they cannot equal PyTorch's (its seed and generators do not carry "
                        "over)",
                        what, kDrawsKey));
}

// Recorded draws of one shape, computed in `work` (float32, or float64 for float64 results: TensorRT's
// random ops make float32 and float16 only).
struct Draws {
  OpCall& c;
  std::vector<DimExpr> shape;
  DType work;

  Draws(OpCall& c, std::vector<DimExpr> shape, DType result)
      : c(c), shape(std::move(shape)), work(result == DType::Float64 ? DType::Float64 : DType::Float32) {}

  ir::ElementType we() const { return elem(work); }
  ir::Type type() const { return ir::Type::tensor(we(), shape); }
  ir::Value* k(double v) { return c.rec.const_scalar(we(), v); }
  // An elementwise op whose result has the draws' shape (its operands broadcast to it).
  ir::Value* op(std::string_view name, std::vector<ir::Value*> in) { return c.rec.emit(name, in, type()); }

  // U[0, 1) / N(0, 1) of the shape: the static-shape op, or its Like form on a ConstantOfShape of the
  // run-time shape.
  ir::Value* draw(const char* op_name) {
    Attrs at{{"dtype", int64_t{ir::info(we()).onnx}}};
    std::vector<int64_t> dims;
    if (static_shape(shape, &dims)) {
      at.push_back({"shape", dims});
      return c.rec.emit(op_name, {}, type(), at);
    }
    ir::Value* like = c.rec.emit("ConstantOfShape", {c.rec.shape_value(shape)},
                                 ir::Type::tensor(ir::ElementType::Float32, shape));
    return c.rec.emit(std::string(op_name) + "Like", {like}, type(), at);
  }
  ir::Value* uniform() { return draw("RandomUniform"); }
  ir::Value* normal() { return draw("RandomNormal"); }

  // A size (static or run-time) as a work-dtype scalar.
  ir::Value* size(DimExpr d) {
    if (d.is_const()) return k(static_cast<double>(d.value()));
    return cast_to(c.T, c.rec.dim_scalar(d), DType::Int64, work, {});
  }
  // A tensor operand in the work dtype.
  ir::Value* operand(TensorObj* t) { return cast_to(c.T, value_of(c.T, t), t->dtype, work, t->shape); }

  ir::Value* affine(ir::Value* x, double scale, double shift) { return op("Add", {op("Mul", {x, k(scale)}), k(shift)}); }
  // Integers uniform in [lo, hi): floor(lo + U * (hi - lo)), kept below hi where rounding reaches it.
  ir::Value* integers(DimExpr lo, DimExpr hi) {
    ir::Value* l = size(lo);
    ir::Value* h = size(hi);
    ir::Value* span = c.rec.emit("Sub", {h, l}, ir::Type::tensor(we(), {}));
    ir::Value* r = op("Floor", {op("Add", {op("Mul", {uniform(), span}), l})});
    return op("Min", {r, c.rec.emit("Sub", {h, k(1)}, ir::Type::tensor(we(), {}))});
  }
  // Gumbel(0, 1) noise: -log(-log(U)).
  ir::Value* gumbel() { return op("Neg", {op("Log", {op("Neg", {op("Log", {uniform()})})})}); }

  // The draws as a tensor of dtype `dt`.
  Value out(ir::Value* v, DType dt) { return c.out(cast_to(c.T, v, work, dt, shape), dt, shape); }
  // Writes the draws into `x` (an in-place fill in forward).
  Value write(TensorObj* x, ir::Value* v) {
    assign_inplace(c.T, x, cast_to(c.T, v, work, x->dtype, x->shape));
    return Value::borrow(x);
  }
};

DType dtype_or(OpCall& c, size_t i, DType dflt) {
  std::optional<DType> d = c.a.dtype(i);
  return d ? *d : dflt;
}

// A random factory: a placeholder while the model is built, else `record` (which gets the draws of
// `shape` and gives the result).
template <class F>
Value factory(OpCall& c, std::vector<DimExpr> shape, DType dt, F record) {
  if (c.T.building) return random_placeholder(c, std::move(shape), dt);
  if (elem(dt) == ir::ElementType::Undefined) return c.unsupported(fmt::format("tensors of dtype torch.{}", info(dt).name));
  warn_random(c, "torch." + c.name());
  Draws d(c, std::move(shape), dt);
  return record(d);
}

// An in-place random fill: while the model is built the tensor becomes a random placeholder (the
// checkpoint gives a parameter's values); in forward it is rewritten with `record`'s draws.
Value placeholder_inplace(OpCall& c) {
  make_random_inplace(c.t(0));
  return Value::borrow(c.t(0));
}

template <class F>
Value fill_inplace(OpCall& c, F record) {
  TensorObj* x = c.t(0);
  if (c.T.building) return placeholder_inplace(c);
  warn_random(c, "Tensor." + c.name());
  Draws d(c, x->shape, x->dtype);
  return d.write(x, record(d));
}

// float32 holds every integer up to 2^24; wider (or run-time) ranges draw in float64.
bool wide_range(DimExpr lo, DimExpr hi) {
  return !lo.is_const() || !hi.is_const() || hi.value() - lo.value() > (int64_t{1} << 24);
}

Value randint(OpCall& c, std::vector<DimExpr> shape, DimExpr lo, DimExpr hi, DType dt) {
  if (lo.is_const() && hi.is_const() && lo.value() >= hi.value())
    c.runtime_error(fmt::format("random_ expects 'from' to be less than 'to', but got from={} >= to={}", lo.value(),
                                hi.value()));
  return factory(c, std::move(shape), dt, [&](Draws& d) {
    if (wide_range(lo, hi)) d.work = DType::Float64;
    return d.out(d.integers(lo, hi), dt);
  });
}

// bernoulli: 1 where U < p (p a tensor broadcast to the draws, or a number), in dtype `dt`.
ir::Value* bernoulli_draws(Draws& d, ir::Value* p) {
  return cast_to(d.c.T, d.c.rec.emit("Less", {d.uniform(), p}, ir::Type::tensor(ir::ElementType::Bool, d.shape)),
                 DType::Bool, d.work, d.shape);
}

// multinomial(probs, n, replacement): Gumbel-max per sample with replacement (argmax over classes of
// log p + G, n independent rows), Gumbel-top-k without (the n largest keys: a sample without
// replacement in drawing order).
Value multinomial(OpCall& c) {
  TensorObj* p = c.t(0);
  if (p->rank() == 0 || p->rank() > 2) c.runtime_error("prob_dist must be 1 or 2 dim");
  DimExpr n = c.a.dim(1);
  bool replacement = c.a.boolean(2);
  DimExpr classes = p->shape.back();
  if (!replacement && n.is_const() && classes.is_const() && n.value() > classes.value())
    c.runtime_error("cannot sample n_sample > prob_dist.size(-1) samples without replacement");
  std::vector<DimExpr> shape = p->shape;
  shape.back() = n;
  if (c.T.building) return random_placeholder(c, std::move(shape), DType::Int64);
  warn_random(c, "torch.multinomial");
  const int64_t last = static_cast<int64_t>(p->rank()) - 1;
  DType work = p->dtype == DType::Float64 ? DType::Float64 : DType::Float32;
  ir::Value* logp = c.rec.emit("Log", {cast_to(c.T, c.v(p), p->dtype, work, p->shape)}, ir::Type::tensor(elem(work), p->shape));
  if (replacement && !(n.is_const() && n.value() == 1)) {
    std::vector<DimExpr> keys_shape = p->shape;
    keys_shape.insert(keys_shape.end() - 1, n);
    Draws d(c, keys_shape, work);
    ir::Value* lp = c.rec.emit("Unsqueeze", {logp, c.rec.const_i64({last})},
                               ir::Type::tensor(elem(work), [&] {
                                 std::vector<DimExpr> s = p->shape;
                                 s.insert(s.end() - 1, DimExpr(1));
                                 return s;
                               }()));
    ir::Value* keys = d.op("Add", {lp, d.gumbel()});
    return c.node("ArgMax", {keys}, DType::Int64, shape, {{"axis", last + 1}, {"keepdims", int64_t{0}}});
  }
  Draws d(c, p->shape, work);
  ir::Value* keys = d.op("Add", {logp, d.gumbel()});
  ir::Node* top = c.rec.node("TopK", {keys, c.rec.dim_vec(n)}, 2);
  top->set_attr("axis", last);
  top->set_attr("largest", int64_t{1});
  top->set_attr("sorted", int64_t{1});
  top->output(0)->set_type(ir::Type::tensor(elem(work), shape));
  top->output(1)->set_type(ir::Type::tensor(ir::ElementType::Int64, shape));
  return c.out(top->output(1), DType::Int64, shape);
}

// randperm(n): the order of n uniform draws (TopK's indices), a uniformly random permutation.
Value randperm(OpCall& c) {
  DimExpr n = c.a.dim(0);
  DType dt = dtype_or(c, 2, DType::Int64);
  return factory(c, {n}, dt, [&](Draws& d) {
    ir::Node* top = c.rec.node("TopK", {d.uniform(), c.rec.dim_vec(n)}, 2);
    top->set_attr("axis", int64_t{0});
    top->set_attr("largest", int64_t{1});
    top->set_attr("sorted", int64_t{1});
    top->output(0)->set_type(d.type());
    top->output(1)->set_type(ir::Type::tensor(ir::ElementType::Int64, {n}));
    return c.out(cast_to(c.T, top->output(1), DType::Int64, dt, {n}), dt, {n});
  });
}

// torch.dropout & co with train=True in forward. PyTorch applies them whenever train is true (in
// eval mode too: F.dropout(x, p) defaults to training=True), so the exported model does as well:
// a keep mask drawn per element (per channel for the feature forms: shape [N, C, 1, ...]) scaled by
// 1 / (1 - p); the alpha forms keep the mean and variance of SELU activations with PyTorch's affine
// correction: x * keep * a + b, b = (keep - 1) * alpha' * a + alpha' * a * p.
Value dropout(OpCall& c, bool feature, bool alpha) {
  TensorObj* x = c.t(0);
  double p = c.a.real(1);
  if (!c.a.boolean(2) || p == 0.0) return Value::borrow(x);
  if (p < 0.0 || p > 1.0) c.value_error(fmt::format("dropout probability has to be between 0 and 1, but got {}", p));
  if (c.T.building) return random_placeholder(c, x->shape, x->dtype);
  if (!is_floating(x->dtype)) return c.unsupported(fmt::format("dropout of a torch.{} tensor", info(x->dtype).name));
  warn_once(c, "with training=True in forward",
            fmt::format("{} with training=True in forward (the first such place) drops values at random on every run "
                        "of the exported model, as PyTorch does in eval mode too; pass training=self.training to drop "
                        "only while training",
                        c.name()));
  if (p == 1.0) return c.out(c.rec.emit("Mul", {c.v(x), c.rec.const_scalar(elem(x->dtype), 0)}, x->ir_type()), x->dtype, x->shape);
  std::vector<DimExpr> noise_shape = x->shape;
  if (feature) {
    if (x->rank() < 2) c.runtime_error("Feature dropout requires at least 2 dimensions in the input");
    for (size_t i = 2; i < noise_shape.size(); ++i) noise_shape[i] = DimExpr(1);
  }
  Draws d(c, noise_shape, x->dtype);
  ir::Value* keep = bernoulli_draws(d, d.k(1 - p));  // 1 kept, 0 dropped
  ir::Value* xv = d.operand(x);
  Draws full(c, x->shape, x->dtype);
  ir::Value* y;
  if (!alpha) {
    y = full.op("Mul", {xv, d.op("Mul", {keep, d.k(1 / (1 - p))})});
  } else {
    const double al = 1.7580993408473766;
    double a = 1.0 / std::sqrt((al * al * p + 1) * (1 - p));
    ir::Value* b = d.op("Add", {d.op("Mul", {d.op("Sub", {keep, d.k(1)}), d.k(al * a)}), d.k(al * a * p)});
    y = full.op("Add", {full.op("Mul", {xv, d.op("Mul", {keep, d.k(a)})}), b});
  }
  return full.out(y, x->dtype);
}

Value random_from_to(OpCall& c, DimExpr lo, DimExpr hi) {
  return fill_inplace(c, [&](Draws& d) {
    if (wide_range(lo, hi)) d.work = DType::Float64;
    return d.integers(lo, hi);
  });
}

}  // namespace

Value random_placeholder(OpCall& c, std::vector<DimExpr> shape, DType dt) {
  Value r = fill_tensor(c, std::move(shape), 0, dt, true);
  if (is_tensor(r)) as_tensor(r)->random = true;
  return r;
}

const std::vector<OpDef>& random_ops() {
  static const std::vector<OpDef> ops = {
      {"rand(SymInt[] size, *, Generator? generator=None, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None, bool requires_grad=False) -> Tensor",
       kFn, [](OpCall& c) {
         DType dt = dtype_or(c, 2, c.T.default_dtype);
         return factory(c, c.a.dims(0), dt, [&](Draws& d) { return d.out(d.uniform(), dt); });
       }},
      {"randn(SymInt[] size, *, Generator? generator=None, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None, bool requires_grad=False) -> Tensor",
       kFn, [](OpCall& c) {
         DType dt = dtype_or(c, 2, c.T.default_dtype);
         return factory(c, c.a.dims(0), dt, [&](Draws& d) { return d.out(d.normal(), dt); });
       }},
      {"rand_like(Tensor self, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None, MemoryFormat? memory_format=None, bool requires_grad=False) -> Tensor",
       kFn, [](OpCall& c) {
         DType dt = dtype_or(c, 1, c.t(0)->dtype);
         return factory(c, c.t(0)->shape, dt, [&](Draws& d) { return d.out(d.uniform(), dt); });
       }},
      {"randn_like(Tensor self, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None, MemoryFormat? memory_format=None, bool requires_grad=False) -> Tensor",
       kFn, [](OpCall& c) {
         DType dt = dtype_or(c, 1, c.t(0)->dtype);
         return factory(c, c.t(0)->shape, dt, [&](Draws& d) { return d.out(d.normal(), dt); });
       }},
      // normal(mean, std): mean + std * N(0, 1), broadcast.
      {"normal.Tensor_Tensor(Tensor mean, Tensor std, *, Generator? generator=None) -> Tensor", kFn,
       [](OpCall& c) {
         TensorObj *m = c.t(0), *s = c.t(1);
         DType dt = promote_types(m->dtype, s->dtype);
         return factory(c, broadcast_shapes(c.I, m->shape, s->shape), dt, [&](Draws& d) {
           return d.out(d.op("Add", {d.op("Mul", {d.normal(), d.operand(s)}), d.operand(m)}), dt);
         });
       }},
      {"normal.Tensor_float(Tensor mean, float std=1, *, Generator? generator=None) -> Tensor", kFn,
       [](OpCall& c) {
         TensorObj* m = c.t(0);
         double s = c.a.real(1);
         return factory(c, m->shape, m->dtype, [&](Draws& d) {
           return d.out(d.op("Add", {d.op("Mul", {d.normal(), d.k(s)}), d.operand(m)}), m->dtype);
         });
       }},
      {"normal.float_Tensor(float mean, Tensor std, *, Generator? generator=None) -> Tensor", kFn,
       [](OpCall& c) {
         TensorObj* s = c.t(1);
         double m = c.a.real(0);
         return factory(c, s->shape, s->dtype, [&](Draws& d) {
           return d.out(d.op("Add", {d.op("Mul", {d.normal(), d.operand(s)}), d.k(m)}), s->dtype);
         });
       }},
      {"normal.float_float(float mean, float std, SymInt[] size, *, Generator? generator=None, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None) -> Tensor",
       kFn, [](OpCall& c) {
         DType dt = dtype_or(c, 4, c.T.default_dtype);
         double m = c.a.real(0), s = c.a.real(1);
         return factory(c, c.a.dims(2), dt, [&](Draws& d) { return d.out(d.affine(d.normal(), s, m), dt); });
       }},
      {"randint(SymInt high, SymInt[] size, *, Generator? generator=None, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None, bool requires_grad=False) -> Tensor",
       kFn, [](OpCall& c) { return randint(c, c.a.dims(1), DimExpr(0), c.a.dim(0), dtype_or(c, 3, DType::Int64)); }},
      {"randint.low(SymInt low, SymInt high, SymInt[] size, *, Generator? generator=None, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None, bool requires_grad=False) -> Tensor",
       kFn, [](OpCall& c) { return randint(c, c.a.dims(2), c.a.dim(0), c.a.dim(1), dtype_or(c, 4, DType::Int64)); }},
      {"randint_like(Tensor self, SymInt high, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None, MemoryFormat? memory_format=None) -> Tensor",
       kFn, [](OpCall& c) { return randint(c, c.t(0)->shape, DimExpr(0), c.a.dim(1), dtype_or(c, 2, c.t(0)->dtype)); }},
      {"randint_like.low_dtype(Tensor self, SymInt low, SymInt high, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None, MemoryFormat? memory_format=None) -> Tensor",
       kFn, [](OpCall& c) { return randint(c, c.t(0)->shape, c.a.dim(1), c.a.dim(2), dtype_or(c, 3, c.t(0)->dtype)); }},
      {"randperm(SymInt n, *, Generator? generator=None, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None, bool requires_grad=False) -> Tensor",
       kFn, randperm},
      {"bernoulli(Tensor self, *, Generator? generator=None) -> Tensor", kFn | kMethod,
       [](OpCall& c) {
         TensorObj* p = c.t(0);
         return factory(c, p->shape, p->dtype, [&](Draws& d) { return d.out(bernoulli_draws(d, d.operand(p)), p->dtype); });
       }},
      {"bernoulli.p(Tensor self, float p, *, Generator? generator=None) -> Tensor", kFn | kMethod,
       [](OpCall& c) {
         TensorObj* x = c.t(0);
         double p = c.a.real(1);
         return factory(c, x->shape, x->dtype, [&](Draws& d) { return d.out(bernoulli_draws(d, d.k(p)), x->dtype); });
       }},
      {"poisson(Tensor self, Generator? generator=None) -> Tensor", kFn,
       [](OpCall& c) {
         if (c.T.building) return random_placeholder(c, c.t(0)->shape, c.t(0)->dtype);
         return c.unsupported("torch.poisson in forward: ONNX has no op that draws Poisson values");
       }},
      {"multinomial(Tensor self, SymInt num_samples, bool replacement=False, *, Generator? generator=None) -> Tensor",
       kFn | kMethod, multinomial},
      // In-place fills (nn.init, weight.data.normal_(), torch.empty(n).uniform_(a, b) as noise).
      {"normal_(Tensor self, float mean=0, float std=1, *, Generator? generator=None) -> Tensor", kMethod,
       [](OpCall& c) {
         double m = c.a.real(1), s = c.a.real(2);
         return fill_inplace(c, [&](Draws& d) { return d.affine(d.normal(), s, m); });
       }},
      {"uniform_(Tensor self, float from=0, float to=1, *, Generator? generator=None) -> Tensor", kMethod,
       [](OpCall& c) {
         double a = c.a.real(1), b = c.a.real(2);
         return fill_inplace(c, [&](Draws& d) { return d.affine(d.uniform(), b - a, a); });
       }},
      // -log(1 - U) / lambda (1 - U lies in (0, 1]), at least the smallest normal number: PyTorch's
      // exponential_ never gives 0, and a 0 (U = 0) made F.gumbel_softmax's -log(e) infinite and its
      // softmax NaN.
      {"exponential_(Tensor self, float lambd=1, *, Generator? generator=None) -> Tensor", kMethod,
       [](OpCall& c) {
         double l = c.a.real(1);
         return fill_inplace(c, [&](Draws& d) {
           double tiny = d.work == DType::Float64 ? DBL_MIN : FLT_MIN;
           ir::Value* e = d.op("Neg", {d.op("Log", {d.op("Sub", {d.k(1), d.uniform()})})});
           return d.op("Div", {d.op("Max", {e, d.k(tiny)}), d.k(l)});
         });
       }},
      // median + sigma * tan(pi * (U - 1/2)).
      {"cauchy_(Tensor self, float median=0, float sigma=1, *, Generator? generator=None) -> Tensor", kMethod,
       [](OpCall& c) {
         double m = c.a.real(1), s = c.a.real(2);
         return fill_inplace(c, [&](Draws& d) { return d.affine(d.op("Tan", {d.affine(d.uniform(), M_PI, -M_PI / 2)}), s, m); });
       }},
      {"log_normal_(Tensor self, float mean=1, float std=2, *, Generator? generator=None) -> Tensor", kMethod,
       [](OpCall& c) {
         double m = c.a.real(1), s = c.a.real(2);
         return fill_inplace(c, [&](Draws& d) { return d.op("Exp", {d.affine(d.normal(), s, m)}); });
       }},
      // The number of Bernoulli(p) trials up to the first success: ceil(log(1 - U) / log(1 - p)), at least 1.
      {"geometric_(Tensor self, float p, *, Generator? generator=None) -> Tensor", kMethod,
       [](OpCall& c) {
         double p = c.a.real(1);
         return fill_inplace(c, [&](Draws& d) {
           ir::Value* t = d.op("Div", {d.op("Log", {d.op("Sub", {d.k(1), d.uniform()})}), d.k(std::log1p(-p))});
           return d.op("Max", {d.op("Ceil", {t}), d.k(1)});
         });
       }},
      {"random_(Tensor self, *, Generator? generator=None) -> Tensor", kMethod,
       [](OpCall& c) {
         if (c.T.building) return placeholder_inplace(c);
         return c.unsupported("Tensor.random_() without bounds in forward (give from/to: x.random_(0, n))");
       }},
      {"random_.to(Tensor self, int to, *, Generator? generator=None) -> Tensor", kMethod,
       [](OpCall& c) { return random_from_to(c, DimExpr(0), DimExpr(c.a.int_(1))); }},
      {"random_.from(Tensor self, int from, int? to, *, Generator? generator=None) -> Tensor", kMethod,
       [](OpCall& c) {
         std::optional<int64_t> to = c.a.opt_int(2);
         if (!to) {
           if (c.T.building) return placeholder_inplace(c);
           return c.unsupported("Tensor.random_(from, None) in forward (give an upper bound)");
         }
         return random_from_to(c, DimExpr(c.a.int_(1)), DimExpr(*to));
       }},
      {"bernoulli_.float(Tensor self, float p=0.5, *, Generator? generator=None) -> Tensor", kMethod,
       [](OpCall& c) {
         double p = c.a.real(1);
         return fill_inplace(c, [&](Draws& d) { return bernoulli_draws(d, d.k(p)); });
       }},
      {"bernoulli_.Tensor(Tensor self, Tensor p, *, Generator? generator=None) -> Tensor", kMethod,
       [](OpCall& c) {
         TensorObj* p = c.t(1);
         return fill_inplace(c, [&](Draws& d) { return bernoulli_draws(d, d.operand(p)); });
       }},
      {"dropout(Tensor input, float p, bool train) -> Tensor", kFn | kFnInplace,
       [](OpCall& c) { return dropout(c, false, false); }},
      {"feature_dropout(Tensor input, float p, bool train) -> Tensor", kFn | kFnInplace,
       [](OpCall& c) { return dropout(c, true, false); }},
      {"alpha_dropout(Tensor input, float p, bool train) -> Tensor", kFn | kFnInplace,
       [](OpCall& c) { return dropout(c, false, true); }},
      {"feature_alpha_dropout(Tensor input, float p, bool train) -> Tensor", kFn | kFnInplace,
       [](OpCall& c) { return dropout(c, true, true); }},
  };
  return ops;
}

}  // namespace onnxify::torch
