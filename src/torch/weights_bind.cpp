// Binding a checkpoint to the model: every state_dict entry (parameters and persistent buffers, by
// qualified name) gets the checkpoint tensor as a graph initializer, a zero-copy view into the mapped
// file (DESIGN.md decision 9). Strict like load_state_dict(strict=True): missing, unexpected and
// shape-mismatched keys are all listed in one error. Without a checkpoint, tensors whose values are
// unknown (torch.empty, torch.randn) get deterministic random values and one warning.
#include <fmt/core.h>

#include <cmath>
#include <cstring>

#include "eval/containers.h"
#include "support/parallel.h"
#include "torch/driver.h"
#include "torch/ops.h"
#include "weights/weights.h"

namespace onnxify::torch {

using eval::Value;
using ir::DimExpr;

namespace {

// The IR element type of a checkpoint dtype: the one mapping (both tables spell dtypes as torch's
// str(dtype) minus "torch."). Undefined for dtypes ONNX has no type for (complex32).
ir::ElementType element_type_of(weights::DType d) {
  return ir::element_type_from_name(weights::name(d)).value_or(ir::ElementType::Undefined);
}

std::string dims_text(const std::vector<int64_t>& d) {
  std::string s = "[";
  for (size_t i = 0; i < d.size(); ++i) s += (i ? ", " : "") + std::to_string(d[i]);
  return s + "]";
}

std::string dims_text(const std::vector<DimExpr>& d) {
  std::string s = "[";
  for (size_t i = 0; i < d.size(); ++i) s += (i ? ", " : "") + d[i].str();
  return s + "]";
}

std::string joined(const std::vector<std::string>& items, size_t max = 12, const char* sep = ", ") {
  std::string out;
  for (size_t i = 0; i < items.size() && i < max; ++i) out += (i ? sep : "") + items[i];
  if (items.size() > max) out += fmt::format(", ... and {} more", items.size() - max);
  return out;
}

// The model's state_dict as (name, tensor) pairs, in state_dict order.
std::vector<std::pair<std::string, TensorObj*>> state_dict_entries(Session& s, std::vector<Value>& keep) {
  eval::Interp& I = *s.I;
  eval::Str* kw = I.intern("keep_vars");
  Value t = Value::boolean(true);
  eval::Args a;
  a.nkw = 1;
  a.kwnames = &kw;
  a.kwvals = &t;
  Value sd = eval::call_method(I, s.model, I.intern("state_dict"), a);
  keep.push_back(sd);
  std::vector<std::pair<std::string, TensorObj*>> out;
  eval::for_each(I, eval::call_method(I, sd, I.intern("items")), [&](const Value& pair) {
    const auto& items = eval::as_tuple(pair)->items;
    if (is_tensor(items[1])) {
      keep.push_back(items[1]);
      out.emplace_back(eval::as_str(items[0])->s, as_tensor(items[1]));
    }
    return true;
  });
  return out;
}

// Deterministic random values for a tensor named `name` (splitmix64 seeded by the name), uniform in
// [-b, b] with PyTorch's default bound 1/sqrt(fan_in).
ir::Tensor random_tensor(const std::string& name, TensorObj* t) {
  std::vector<int64_t> shape;
  int64_t n = 1;
  for (DimExpr d : t->shape) shape.push_back(d.value()), n *= d.value();
  uint64_t state = 0xcbf29ce484222325ull;
  for (unsigned char c : name) state = (state ^ c) * 0x100000001b3ull;
  auto next = [&]() {
    uint64_t z = (state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
  };
  int64_t fan_in = shape.size() >= 2 ? n / std::max<int64_t>(shape[0], 1) : std::max<int64_t>(n, 1);
  double bound = 1.0 / std::sqrt(static_cast<double>(std::max<int64_t>(fan_in, 1)));
  ir::ElementType e = elem(t->dtype);
  size_t w = ir::info(e).bits / 8;
  std::vector<uint8_t> bytes(static_cast<size_t>(n) * w);
  for (int64_t i = 0; i < n; ++i) {
    double u = static_cast<double>(next() >> 11) * (1.0 / 9007199254740992.0);  // [0, 1)
    double v = (2 * u - 1) * bound;
    uint8_t* p = bytes.data() + i * w;
    if (e == ir::ElementType::Float32) {
      float f = static_cast<float>(v);
      std::memcpy(p, &f, 4);
    } else if (e == ir::ElementType::Float64) {
      std::memcpy(p, &v, 8);
    } else if (e == ir::ElementType::Float16) {
      uint16_t h = ir::float_to_half(static_cast<float>(v));
      std::memcpy(p, &h, 2);
    } else if (e == ir::ElementType::BFloat16) {
      uint16_t h = ir::float_to_bfloat16(static_cast<float>(v));
      std::memcpy(p, &h, 2);
    } else {
      int64_t k = static_cast<int64_t>(next() % 3);  // small integers
      std::memcpy(p, &k, w);
    }
  }
  return ir::Tensor(e, std::move(shape), Bytes::from_vector(std::move(bytes)));
}

// Paths of the modules that stand in for PyTorch modules onnxify does not implement (their
// parameters are unknown; the module is reported when it is called).
std::vector<std::string> placeholder_paths(Session& s) {
  eval::Interp& I = *s.I;
  std::vector<std::string> out;
  eval::for_each(I, eval::call_method(I, s.model, I.intern("named_modules")), [&](const Value& pair) {
    const auto& items = eval::as_tuple(pair)->items;
    if (eval::getattr_opt(I, items[1], "_onnxify_placeholder")) out.push_back(eval::as_str(items[0])->s);
    return true;
  });
  return out;
}

void bind(Session& s, const std::string& name, TensorObj* t, ir::Value* v, DType from) {
  // A tensor registered as a view takes the checkpoint's values as a tensor of its own, instead of
  // writing them back into its base, when that write is refused or pointless: an expanded view
  // (torch.meshgrid's grids) shares its base's elements (PyTorch refuses writes through it), and a
  // base of random or uninitialized values (`register_buffer('mask', mask.data)` of a mask made
  // from torch.randperm) is no module tensor, so no checkpoint gives the rest of its values.
  bool detach = false;
  for (TensorObj* w = t; w->base && !detach; w = w->base.get())
    detach = w->view.kind == ViewSpec::Kind::Expand || w->base->random || w->base->uninitialized;
  if (detach) {
    t->base = {};
    t->view = ViewSpec();
  }
  try {
    assign_inplace(*s.T, t, cast_to(*s.T, v, from, t->dtype, t->shape));
  } catch (eval::PyException& e) {  // (a write back into the tensor it views, refused as PyTorch would)
    std::string type(s.I->type_of(e.exc)->name_view());
    throw Diagnostic::error(fmt::format("the checkpoint's '{}' cannot be written into the model's tensor: {}: {}", name,
                                        type, eval::str_string(*s.I, e.exc)));
  }
}

void bind_random(Session& s, const std::vector<std::pair<std::string, TensorObj*>>& entries) {
  std::vector<std::pair<const std::string*, TensorObj*>> todo;
  int64_t elements = 0;
  for (const auto& [name, t] : entries) {
    if (!t->uninitialized && !t->random) continue;
    for (DimExpr d : t->shape)
      if (!d.is_const())
        throw Diagnostic::error(fmt::format("'{}' has a symbolic shape {}; it needs values from a checkpoint", name,
                                            dims_text(t->shape)));
    if (elem(t->dtype) == ir::ElementType::Undefined) continue;
    todo.emplace_back(&name, t);
    int64_t n = 1;
    for (DimExpr d : t->shape) n *= d.value();
    elements += n;
  }
  // The values of each tensor depend on its name alone: made on all cores, bound in order.
  std::vector<ir::Tensor> values(todo.size());
  parallel_items(todo.size(), elements > (int64_t{1} << 20) ? 0 : 1,
                 [&](size_t i) { values[i] = random_tensor(*todo[i].first, todo[i].second); });
  for (size_t i = 0; i < todo.size(); ++i) {
    const std::string& name = *todo[i].first;
    ir::Value* v = s.T->rec.constant(std::move(values[i]), name);
    mark_opaque(*s.T, v, fmt::format("the weight '{}' (random: no --weights given)", name));
    bind(s, name, todo[i].second, v, todo[i].second->dtype);
  }
  size_t count = todo.size();
  if (count)
    s.T->warnings.push_back(Diagnostic::warning(
        fmt::format("no --weights given: {} parameter{} and buffer{} without values got deterministic random values",
                    count, count == 1 ? "" : "s", count == 1 ? "" : "s")));
}

// A Keras weights file names its tensors by Keras' variable paths. Keras' own saving code says which
// model tensor each path is (prelude _onnxify_keras.py); this renames the file's tensors to the model's
// state_dict names. As Keras loads: a state_dict entry no path reaches (a SeedGenerator's state) keeps
// the value the model built, and a file dataset in a group the model does not save is not read. A
// dataset in a group the model saves that no variable takes is unexpected; a path without a dataset
// is missing.
struct KerasRenamed {
  weights::StateDict sd;
  std::set<std::string> unreached;  // state_dict names no Keras path reaches
  // The Keras path of each state_dict name ("" for the further names of a tensor with several: a
  // mismatch is said once, by the first).
  std::map<std::string, std::string> path_of;
  std::vector<std::string> missing, unexpected;
};

KerasRenamed rename_keras(Session& s, const weights::StateDict& file,
                          const std::vector<std::pair<std::string, TensorObj*>>& entries) {
  eval::Interp& I = *s.I;
  KerasRenamed out;
  out.sd.key = file.key;
  out.sd.format = file.format;
  std::set<std::string> reached, groups, taken;
  try {
    Value mod = I.loader().import_module("_onnxify_keras", nullptr, 0, false, SourceRange{});
    Value res;
    if (file.keras_legacy.empty()) {
      res = eval::call(I, eval::getattr(I, mod, I.intern("weight_paths")), s.model);
    } else {
      // Keras 2's .h5: bound by the order of its layer lists.
      std::vector<Value> layer_list;
      for (const auto& [group, paths] : file.keras_legacy) {
        std::vector<Value> ps;
        for (const std::string& p : paths) ps.push_back(I.str(p));
        layer_list.push_back(eval::new_tuple(I, {I.str(group), eval::new_list(I, std::move(ps))}));
      }
      Value layers = eval::new_list(I, std::move(layer_list));
      res = eval::call(I, eval::getattr(I, mod, I.intern("legacy_weight_paths")), s.model, layers);
    }
    const auto& pair = eval::as_tuple(res)->items;
    Value why = pair[1];
    eval::for_each(I, eval::call_method(I, pair[0], I.intern("items")), [&](const Value& item) {
      const auto& kv = eval::as_tuple(item)->items;
      std::string path = eval::as_str(kv[0])->s;
      groups.insert(path.substr(0, path.rfind('/') + 1));
      if (kv[1].is_none()) {
        Value reason = eval::call_method(I, why, I.intern("get"), kv[0]);
        throw Diagnostic::error(fmt::format("the Keras weights' '{}' cannot be bound: {}", path,
                                            eval::str_string(I, reason)));
      }
      std::vector<std::string> names;
      eval::for_each(I, kv[1], [&](const Value& n) { return names.push_back(eval::as_str(n)->s), true; });
      reached.insert(names.begin(), names.end());
      const weights::Tensor* t = file.find(path);
      if (!t) {
        out.missing.push_back(fmt::format("{} (the model's {})", path, names.front()));
        return true;
      }
      taken.insert(path);
      for (const std::string& name : names) {
        out.sd.add({name, *t});
        out.path_of[name] = &name == &names.front() ? path : "";
      }
      return true;
    });
  } catch (eval::PyException& e) {
    throw s.failure(python_error(I, e.exc));
  }
  for (const auto& [name, t] : entries)
    if (!reached.count(name)) out.unreached.insert(name);
  for (const weights::NamedTensor& nt : file.tensors) {
    size_t slash = nt.name.rfind('/');
    std::string group = slash == std::string::npos ? "" : nt.name.substr(0, slash + 1);
    if (groups.count(group) && !taken.count(nt.name)) out.unexpected.push_back(nt.name);
  }
  return out;
}

}  // namespace

bool is_model_dtype(const std::string& dtype) {
  return dtype == "float32" || dtype == "float16" || dtype == "bfloat16" || dtype == "float64";
}

void convert_model_dtype(Session& s, const std::string& dtype) {
  eval::Interp& I = *s.I;
  try {
    Value torch_mod = I.loader().import_module("torch", nullptr, 0, false, SourceRange{});
    Value d = eval::getattr(I, torch_mod, I.intern(dtype));
    eval::call_method(I, s.model, I.intern("to"), d);
  } catch (eval::PyException& e) {
    throw s.failure(python_error(I, e.exc));
  }
}

void bind_weights(Session& s) {
  std::vector<Value> keep;
  std::vector<std::pair<std::string, TensorObj*>> entries;
  try {
    entries = state_dict_entries(s, keep);
  } catch (eval::PyException& e) {
    throw s.failure(python_error(*s.I, e.exc));
  }
  if (s.opts.weights.empty()) {
    bind_random(s, entries);
    return;
  }
  weights::StateDict sd;
  try {
    try {
      sd = weights::open_state_dict(s.opts.weights, s.opts.weights_key);
    } catch (const Diagnostic&) {
      // A model without parameters or buffers is saved as an empty state_dict, in which select()
      // finds no tensors: nothing to bind and nothing unexpected.
      if (entries.empty() && s.opts.weights_key.empty()) return;
      throw;
    }
  } catch (const Diagnostic& d) {
    throw BadInput{d};
  }
  std::vector<std::string> missing, unexpected, mismatched;
  std::set<std::string> keras_unreached;
  std::map<std::string, std::string> keras_path;
  const bool keras = sd.format == weights::Format::Keras;
  if (keras) {
    KerasRenamed k = rename_keras(s, sd, entries);
    sd = std::move(k.sd);
    keras_unreached = std::move(k.unreached);
    keras_path = std::move(k.path_of);
    missing = std::move(k.missing);
    unexpected = std::move(k.unexpected);
  }
  std::set<std::string> model_keys;
  for (const auto& [name, t] : entries) {
    model_keys.insert(name);
    const weights::Tensor* w = sd.find(name);
    if (!w) {
      // A Keras file holds what Keras saves; the rest keeps its built value when it has one.
      if (keras_unreached.count(name) && !t->uninitialized && !t->random) continue;
      if (!keras_unreached.count(name) && keras) continue;  // listed by path
      missing.push_back(name);
      continue;
    }
    bool same = w->shape.size() == t->rank();
    for (size_t i = 0; same && i < w->shape.size(); ++i) same = t->shape[i].is_const() && t->shape[i].value() == w->shape[i];
    if (!same) {
      auto kp = keras_path.find(name);
      if (kp != keras_path.end() && kp->second.empty()) continue;  // said by the tensor's first name
      std::string what = kp == keras_path.end() ? name : fmt::format("{} (the model's {})", kp->second, name);
      mismatched.push_back(fmt::format("{} is {} in the checkpoint, {} in the model", what, dims_text(w->shape),
                                       dims_text(t->shape)));
      continue;
    }
    ir::ElementType e = element_type_of(w->dtype);
    std::optional<DType> from = dtype_from_elem(e);
    if (e == ir::ElementType::Undefined || !from) {
      mismatched.push_back(fmt::format("{} has dtype {} in the checkpoint, which ONNX cannot hold", name,
                                       weights::name(w->dtype)));
      continue;
    }
    ir::Value* v = s.T->rec.constant(ir::Tensor(e, w->shape, w->contiguous_bytes()), name);
    mark_opaque(*s.T, v, fmt::format("the weight '{}'", name));
    s.T->checkpoint_weights.insert(v);
    bind(s, name, t, v, *from);
  }
  std::vector<std::string> placeholders = placeholder_paths(s);
  for (const weights::NamedTensor& nt : sd.tensors) {
    if (model_keys.count(nt.name)) continue;
    bool below_placeholder = false;
    for (const std::string& p : placeholders)
      below_placeholder |= p.empty() || nt.name.compare(0, p.size() + 1, p + ".") == 0;
    if (!below_placeholder) unexpected.push_back(nt.name);
  }
  if (missing.empty() && unexpected.empty() && mismatched.empty()) return;
  // An entry with no place in the model because the attribute that would hold it is an unknown
  // value (`nn.Parameter(torch.special.gammaln(...))` with an op onnxify lacks): that value is the
  // error, at the line that made it, not the mismatch it causes.
  for (const std::string& key : unexpected) {
    Value at = s.model;
    size_t from = 0;
    while (at && !eval::is_poison(at)) {
      size_t dot = key.find('.', from);
      at = eval::getattr_opt(*s.I, at, std::string_view(key).substr(from, dot == std::string::npos ? dot : dot - from));
      if (dot == std::string::npos) break;
      from = dot + 1;
    }
    if (!at || !eval::is_poison(at)) continue;
    const auto* p = eval::as<eval::Poison>(at);
    Diagnostic d = Diagnostic::error(fmt::format("the checkpoint entry '{}' has no place in the model: the attribute "
                                                 "that would hold it is unknown because {}",
                                                 key, p->reason),
                                     p->origin);
    d.with_help("the unknown value is made at this line; the checkpoint itself matches a model where it is known");
    throw DiagnosticList(s.failure(d));
  }
  std::string msg = fmt::format("the checkpoint does not match {}'s state_dict (strict, like load_state_dict):",
                                s.model_class);
  if (!missing.empty()) msg += fmt::format("\n  missing keys ({}): {}", missing.size(), joined(missing));
  if (!unexpected.empty()) msg += fmt::format("\n  unexpected keys ({}): {}", unexpected.size(), joined(unexpected));
  if (!mismatched.empty())
    msg += fmt::format("\n  size mismatches ({}): {}", mismatched.size(), joined(mismatched, 6, "; "));
  Diagnostic d = Diagnostic::error(msg).with_file(s.opts.weights);
  if (keras)
    d.with_help("check that --model builds the model the weights were saved from: Keras names each variable by the "
                "path its saving code walks to it (layer names included)");
  else if (!sd.key.empty() || !s.opts.weights_key.empty())
    d.with_help(fmt::format("the tensors were selected with --weights-key '{}'", sd.key));
  else
    d.with_help("check that --model builds the architecture the checkpoint was saved from; --weights-key selects a "
                "sub-dictionary");
  throw DiagnosticList(s.failure(d));
}

}  // namespace onnxify::torch
