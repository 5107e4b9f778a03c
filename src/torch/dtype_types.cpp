// The Python objects torch.dtype (one per row of the dtype table), torch.device and torch.Size.
#include <fmt/core.h>

#include "torch/core.h"
#include "torch/schema.h"

namespace onnxify::torch {

using eval::Args;
using eval::Interp;
using eval::Value;

namespace {

DType dt(const Value& v) { return eval::as<DTypeObj>(v)->dtype; }

Value dtype_repr(Interp& I, const Value& v) { return I.str(fmt::format("torch.{}", info(dt(v)).name)); }
Value dtype_is_floating(Interp& I, const Value& v) { return Value::boolean(is_floating(dt(v))); }
Value dtype_is_complex(Interp& I, const Value& v) { return Value::boolean(is_complex(dt(v))); }
Value dtype_is_signed(Interp& I, const Value& v) {
  DType t = dt(v);
  return Value::boolean(!(t == DType::UInt8 || t == DType::Bool || t == DType::QUInt8));
}
Value dtype_itemsize(Interp& I, const Value& v) { return Value::integer(info(dt(v)).itemsize); }
Value dtype_reduce(Interp& I, const Value& self, const Args&) { return I.str(std::string(info(dt(self)).name)); }
Value dtype_new(Interp& I, eval::Type*, const Args&) { eval::raise(I, I.exc.TypeError, "cannot create 'torch.dtype' instances"); }
Value dtype_alloc(Interp& I, eval::Type* cls) { return I.make<DTypeObj>(cls).take_value(); }

// ---- device ----

DeviceObj* dev(const Value& v) { return eval::as<DeviceObj>(v); }

Value device_alloc(Interp& I, eval::Type* cls) { return I.make<DeviceObj>(cls).take_value(); }

const char* const kDeviceTypes[] = {"cpu", "cuda", "mps", "xpu", "meta", "hip", "xla", "lazy", "ipu", "vulkan", "mkldnn", "opengl", "opencl", "ideep", "ort", "ve", "hpu", "fpga", "msnpu"};

Value device_new(Interp& I, eval::Type* cls, const Args& a) {
  static const eval::Signature sig("device", "type, index=None");
  Value v[2];
  sig.bind(I, a, v);
  Torch& T = torch_state();
  if (v[0].is_obj() && v[0].obj()->type == T.device_type) return v[0];
  auto d = I.make<DeviceObj>(cls);
  int64_t idx;
  if (eval::int_value(v[0], &idx)) {  // torch.device(0) is cuda:0
    d->kind = "cuda";
    d->index = idx;
    return d.take_value();
  }
  if (!eval::is_str(v[0])) eval::raisef(I, I.exc.TypeError, "device() received an invalid combination of arguments");
  std::string s = eval::as_str(v[0])->s;
  size_t colon = s.find(':');
  std::string type = s.substr(0, colon);
  bool known = false;
  for (const char* t : kDeviceTypes) known |= type == t;
  if (!known)
    eval::raisef(I, I.exc.RuntimeError,
                 "Expected one of cpu, cuda, ipu, xpu, mkldnn, opengl, opencl, ideep, hip, ve, fpga, ort, xla, lazy, "
                 "vulkan, mps, meta, hpu device type at start of device string: {}",
                 s);
  d->kind = type;
  if (colon != std::string::npos) {
    try {
      d->index = std::stoll(s.substr(colon + 1));
    } catch (...) {
      eval::raisef(I, I.exc.RuntimeError, "Invalid device string: '{}'", s);
    }
  }
  if (v[1] && !v[1].is_none()) {
    if (colon != std::string::npos)
      eval::raise(I, I.exc.RuntimeError, "type (string) must not include an index because index was passed explicitly");
    d->index = eval::index(I, v[1]);
  }
  return d.take_value();
}

Value device_repr(Interp& I, const Value& v) {
  if (dev(v)->index >= 0) return I.str(fmt::format("device(type='{}', index={})", dev(v)->kind, dev(v)->index));
  return I.str(fmt::format("device(type='{}')", dev(v)->kind));
}
Value device_str(Interp& I, const Value& v) {
  if (dev(v)->index >= 0) return I.str(fmt::format("{}:{}", dev(v)->kind, dev(v)->index));
  return I.str(dev(v)->kind);
}
Value device_eq(Interp& I, const Value& a, const Value& b) {
  Torch& T = torch_state();
  if (!b.is_obj() || b.obj()->type != T.device_type) return I.notimplemented;
  return Value::boolean(dev(a)->kind == dev(b)->kind && dev(a)->index == dev(b)->index);
}
Value device_ne(Interp& I, const Value& a, const Value& b) {
  Value r = device_eq(I, a, b);
  return r.is_bool() ? Value::boolean(!r.b()) : r;
}
int64_t device_hash(Interp& I, const Value& v) {
  return static_cast<int64_t>(std::hash<std::string>()(dev(v)->kind) ^ static_cast<size_t>(dev(v)->index + 7)) &
         0x3fffffffffffffffll;
}
Value device_type(Interp& I, const Value& v) { return I.str(dev(v)->kind); }
Value device_index(Interp& I, const Value& v) {
  return dev(v)->index < 0 ? Value::none() : Value::integer(dev(v)->index);
}

// ---- torch.Size: a tuple of ints / SymInts ----

Value size_new(Interp& I, eval::Type* cls, const Args& a) {
  static const eval::Signature sig("Size", "sizes=()");
  Value v[1];
  sig.bind(I, a, v);
  auto t = I.make<eval::Tuple>(cls);
  if (v[0]) {
    for (const Value& x : eval::to_vector(I, v[0])) {
      ir::DimExpr d;
      if (!to_dim(I, x, &d))
        eval::raisef(I, I.exc.TypeError, "torch.Size() takes an iterable of 'int' (item 0 is '{}')", eval::type_name(I, x));
      t->items.push_back(x);
    }
  }
  return t.take_value();
}

Value size_repr(Interp& I, const Value& v) {
  std::string s = "torch.Size([";
  const auto& items = eval::as_tuple(v)->items;
  for (size_t i = 0; i < items.size(); ++i) s += (i ? ", " : "") + eval::repr_string(I, items[i]);
  return I.str(s + "])");
}

Value size_numel(Interp& I, const Value& self, const Args& a) {
  eval::check_nargs(I, a, "numel", 0, 0);
  ir::DimExpr p(1);
  for (const Value& x : eval::as_tuple(self)->items) {
    ir::DimExpr d;
    to_dim(I, x, &d);
    p = p * d;
  }
  return make_size_value(torch_state(), p);
}

Value size_getitem(Interp& I, const Value& self, const Value& key) {
  // Slices of a Size are Sizes.
  Value r = I.t.tuple->slots.getitem(I, self, key);
  if (eval::is_tuple(r) && eval::has_layout(key, eval::Layout::Slice)) {
    auto t = I.make<eval::Tuple>(torch_state().size_type);
    t->items = eval::as_tuple(r)->items;
    return t.take_value();
  }
  return r;
}

Value tuple_alloc(Interp& I, eval::Type* cls) { return I.make<eval::Tuple>(cls).take_value(); }

}  // namespace

void init_dtype_types(Torch& T) {
  Interp& I = T.I;
  {
    eval::TypeSpec s;
    s.name = "dtype";
    s.module = "torch";
    s.flags = 0;
    s.alloc = &dtype_alloc;
    s.slots.new_ = &dtype_new;
    s.slots.repr = &dtype_repr;
    s.getsets = {{"is_floating_point", &dtype_is_floating},
                 {"is_complex", &dtype_is_complex},
                 {"is_signed", &dtype_is_signed},
                 {"itemsize", &dtype_itemsize}};
    s.methods = {{"__reduce__", &dtype_reduce}};
    T.dtype_type = eval::new_native_type(I, s);
    for (const DTypeInfo& d : all_dtypes()) {
      auto o = I.make<DTypeObj>(T.dtype_type);
      o->dtype = d.dtype;
      T.dtype_objects.push_back(o.take_value());
    }
  }
  {
    eval::TypeSpec s;
    s.name = "device";
    s.module = "torch";
    s.flags = 0;
    s.alloc = &device_alloc;
    s.slots.new_ = &device_new;
    s.slots.repr = &device_repr;
    s.slots.str = &device_str;
    s.slots.eq = &device_eq;
    s.slots.ne = &device_ne;
    s.slots.hash = &device_hash;
    s.getsets = {{"type", &device_type}, {"index", &device_index}};
    T.device_type = eval::new_native_type(I, s);
    auto cpu = I.make<DeviceObj>(T.device_type);
    T.cpu_device = cpu.take_value();
  }
  {
    eval::TypeSpec s;
    s.name = "Size";
    s.module = "torch";
    s.base = I.t.tuple;
    s.layout = eval::Layout::Tuple;
    s.alloc = &tuple_alloc;
    s.slots.new_ = &size_new;
    s.slots.repr = &size_repr;
    s.slots.getitem = &size_getitem;
    s.methods = {{"numel", &size_numel}};
    T.size_type = eval::new_native_type(I, s);
  }
}

}  // namespace onnxify::torch
