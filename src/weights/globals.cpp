#include "weights/globals.h"

#include <fmt/core.h>

#include <cctype>
#include <iterator>
#include <optional>

#include "support/diagnostic.h"

namespace onnxify::weights {

namespace {

struct Row {
  GlobalId id;
  std::string_view module, name;
  GlobalRole role;
};

constexpr Row kRows[] = {
#define X(e, module, name, role) {GlobalId::e, module, name, GlobalRole::role},
    ONNXIFY_PICKLE_GLOBALS(X)
#undef X
};

// Python 2 spellings that Python 3's unpickler maps to today's names (Lib/_compat_pickle.py), for
// the modules a checkpoint plausibly names, and torch.load's own rename of torch.tensor.
struct ModuleRename {
  std::string_view from, to;
};
constexpr ModuleRename kModuleRenames[] = {
    {"__builtin__", "builtins"},
    {"exceptions", "builtins"},
    {"copy_reg", "copyreg"},
    {"commands", "subprocess"},
    {"cPickle", "pickle"},
    {"UserDict", "collections"},
    {"UserList", "collections"},
    {"Queue", "queue"},
    {"StringIO", "io"},
    {"cStringIO", "io"},
    {"urllib2", "urllib.request"},
    {"thread", "_thread"},
    {"torch.tensor", "torch._tensor"},
};
struct NameRename {
  std::string_view module, name, to_module, to_name;
};
constexpr NameRename kNameRenames[] = {
    {"__builtin__", "unicode", "builtins", "str"},     {"__builtin__", "long", "builtins", "int"},
    {"__builtin__", "xrange", "builtins", "range"},    {"__builtin__", "unichr", "builtins", "chr"},
    {"__builtin__", "reduce", "functools", "reduce"},  {"__builtin__", "intern", "sys", "intern"},
    {"__builtin__", "raw_input", "builtins", "input"}, {"itertools", "izip", "builtins", "zip"},
    {"itertools", "imap", "builtins", "map"},          {"itertools", "ifilter", "builtins", "filter"},
};

std::pair<std::string_view, std::string_view> canonical(std::string_view module, std::string_view name) {
  for (const NameRename& r : kNameRenames)
    if (r.module == module && r.name == name) return {r.to_module, r.to_name};
  for (const ModuleRename& r : kModuleRenames)
    if (r.from == module) return {r.to, name};
  return {module, name};
}

// Storage classes that name quantized dtypes onnxify does not read.
constexpr std::string_view kQuantizedStorages[] = {"QInt8Storage", "QInt32Storage", "QUInt8Storage",
                                                   "QUInt4x2Storage", "QUInt2x4Storage"};

[[noreturn]] void fail(std::string msg) { throw Diagnostic::error(std::move(msg)); }

std::string qualified(const GlobalObject& g) { return g.qualified(); }

const std::vector<Value>& tuple_items(const GlobalObject& g, const Value& args) {
  if (!args.is(Kind::Tuple))
    fail(
        fmt::format("'{}' is called with a {} instead of an argument tuple", qualified(g), args.type_name()));
  return args.seq().items;
}

void arity(const GlobalObject& g, const std::vector<Value>& items, size_t min, size_t max) {
  if (items.size() < min || items.size() > max) {
    std::string want = min == max ? std::to_string(min) : fmt::format("{} to {}", min, max);
    fail(fmt::format("'{}' takes {} arguments but the checkpoint passes {}", qualified(g), want,
                     items.size()));
  }
}

int64_t int_arg(const GlobalObject& g, const Value& v, const char* what) {
  if (!v.is_int()) fail(fmt::format("'{}' expects an int {}, got {}", qualified(g), what, v.type_name()));
  return v.as_int();
}

std::vector<int64_t> ints_arg(const GlobalObject& g, const Value& v, const char* what) {
  if (!v.is_sequence())
    fail(fmt::format("'{}' expects a tuple of ints as {}, got {}", qualified(g), what, v.type_name()));
  std::vector<int64_t> out;
  for (const Value& item : v.seq().items) out.push_back(int_arg(g, item, what));
  return out;
}

// torch._utils._rebuild_tensor*: a view of `storage` (dtype from the storage, or explicit for v3).
Value make_tensor(const GlobalObject& g, const std::vector<Value>& a, std::optional<DType> dtype,
                  Heap& heap) {
  if (!a[0].is(Kind::Storage))
    fail(fmt::format("'{}' expects a storage as its first argument, got {}", qualified(g), a[0].type_name()));
  auto* t = heap.make<TensorObject>();
  t->storage = &a[0].storage();
  t->tensor.dtype = dtype.value_or(t->storage->dtype);
  t->tensor.storage_offset = int_arg(g, a[1], "storage offset");
  t->tensor.shape = ints_arg(g, a[2], "size");
  t->tensor.strides = ints_arg(g, a[3], "stride");
  if (t->tensor.shape.size() != t->tensor.strides.size())
    fail(fmt::format("'{}' gets {} sizes but {} strides", qualified(g), t->tensor.shape.size(),
                     t->tensor.strides.size()));
  if (a.size() > 4) t->requires_grad = a[4].is_int() && a[4].as_int() != 0;
  return Value::object(Kind::Tensor, t);
}

const TensorObject& tensor_arg(const GlobalObject& g, const Value& v) {
  if (!v.is(Kind::Tensor)) fail(fmt::format("'{}' expects a tensor, got {}", qualified(g), v.type_name()));
  return v.tensor();
}

Value parameter(const TensorObject& data, const Value& requires_grad, Heap& heap) {
  auto* p = heap.make<TensorObject>();
  *p = data;
  p->parameter = true;
  p->requires_grad = requires_grad.is_int() && requires_grad.as_int() != 0;
  return Value::object(Kind::Tensor, p);
}

// The items of an iterable argument (Python would iterate it; pickles pass tuples and lists).
const std::vector<Value>& iterable(const GlobalObject& g, const Value& v) {
  if (!v.is_sequence() && !v.is(Kind::Set))
    fail(fmt::format("'{}' expects a list or tuple, got {}", qualified(g), v.type_name()));
  return v.seq().items;
}

// The dict(...) / OrderedDict(...) constructors: from another dict, or from (key, value) pairs.
void fill_dict(const GlobalObject& g, DictObject& d, const Value& src) {
  if (src.is(Kind::Dict)) {
    for (const auto& [k, v] : src.dict().items) d.set(k, v);
    return;
  }
  for (const Value& pair : iterable(g, src)) {
    if (!pair.is_sequence() || pair.seq().items.size() != 2)
      fail(fmt::format("'{}' expects (key, value) pairs, got {}", qualified(g), pair.type_name()));
    d.set(pair.seq().items[0], pair.seq().items[1]);
  }
}

// str -> bytes with an encoding, as _codecs.encode(s, 'latin1') (how protocol 2 pickles bytes).
Bytes encode(const GlobalObject& g, const std::string& text, const std::string& encoding) {
  std::string enc;
  for (char c : encoding)
    enc += static_cast<char>(c == '_' ? '-' : std::tolower(static_cast<unsigned char>(c)));
  if (enc == "utf-8" || enc == "utf8") return Bytes::copy_of(text.data(), text.size());
  if (enc != "latin1" && enc != "latin-1" && enc != "iso-8859-1" && enc != "l1")
    fail(fmt::format("'{}' with encoding '{}' is not supported (only latin-1 and utf-8)", qualified(g),
                     encoding));
  std::vector<uint8_t> out;
  for (size_t i = 0; i < text.size();) {
    unsigned char c = static_cast<unsigned char>(text[i]);
    uint32_t cp;
    if (c < 0x80) {
      cp = c;
      i += 1;
    } else if ((c >> 5) == 6 && i + 1 < text.size()) {
      cp = (c & 0x1f) << 6 | (static_cast<unsigned char>(text[i + 1]) & 0x3f);
      i += 2;
    } else {
      cp = 0x100;  // three- and four-byte sequences are all above U+00FF
    }
    if (cp > 0xff) fail(fmt::format("'{}': a character outside latin-1 cannot be encoded", qualified(g)));
    out.push_back(static_cast<uint8_t>(cp));
  }
  return Bytes::from_vector(std::move(out));
}

Value bytes_from_args(const GlobalObject& g, const std::vector<Value>& a, Heap& heap, bool bytearray) {
  if (a.empty()) return heap.bytes(Bytes(), bytearray);
  if (a[0].is(Kind::Bytes)) return heap.bytes(a[0].as_bytes(), bytearray);
  if (a[0].is(Kind::Str) && a.size() == 2 && a[1].is(Kind::Str))
    return heap.bytes(encode(g, a[0].as_str(), a[1].as_str()), bytearray);
  if (a[0].is_sequence()) {
    std::vector<uint8_t> out;
    for (const Value& v : a[0].seq().items) {
      int64_t b = int_arg(g, v, "byte");
      if (b < 0 || b > 255) fail(fmt::format("'{}': byte value {} out of range", qualified(g), b));
      out.push_back(static_cast<uint8_t>(b));
    }
    return heap.bytes(Bytes::from_vector(std::move(out)), bytearray);
  }
  fail(fmt::format("'{}' cannot be built from {}", qualified(g), a[0].type_name()));
}

const char* unsupported_reason(GlobalId id) {
  switch (id) {
    case GlobalId::RebuildSparse:
    case GlobalId::RebuildSparseCsr:
      return "a sparse tensor";
    case GlobalId::RebuildQTensor:
      return "a quantized tensor";
    case GlobalId::RebuildMeta:
      return "a meta tensor (it has no data)";
    case GlobalId::RebuildFromNumpy:
      return "a tensor of a device without storage";
    case GlobalId::RebuildWrapperSubclass:
      return "a tensor subclass without storage";
    case GlobalId::RebuildNested:
      return "a nested tensor";
    default:
      return "an object";
  }
}

}  // namespace

Value resolve_global(std::string_view module_in, std::string_view name_in, Heap& heap) {
  auto [module, name] = canonical(module_in, name_in);
  bool torch_module = module == "torch" || module.substr(0, 6) == "torch.";
  if (module == "torch") {
    if (auto dt = dtype_from_name(name)) return Value::dtype(*dt);
  }
  if (torch_module && name.size() > 7 && name.substr(name.size() - 7) == "Storage") {
    auto* g = heap.make<GlobalObject>();
    g->module = std::string(module);
    g->name = std::string(name);
    if (auto dt = dtype_from_storage_class(name)) {
      g->storage_dtype = *dt;
      return Value::object(Kind::Global, g);
    }
    if (name == "UntypedStorage" || name == "_UntypedStorage") {
      g->storage_dtype = DType::UInt8;
      g->untyped_storage = true;
      return Value::object(Kind::Global, g);
    }
    for (std::string_view q : kQuantizedStorages)
      if (name == q)
        fail(fmt::format("'{}.{}' holds quantized data, which onnxify does not read", module, name));
  }
  for (const Row& r : kRows) {
    if (r.module == module && r.name == name) {
      auto* g = heap.make<GlobalObject>();
      g->module = std::string(r.module);
      g->name = std::string(r.name);
      g->id = static_cast<int>(r.id);
      return Value::object(Kind::Global, g);
    }
  }
  std::string spelled;
  if (module != module_in || name != name_in) spelled = fmt::format(" (written '{}.{}')", module_in, name_in);
  std::string msg = fmt::format(
      "refusing to load '{}.{}'{}: the checkpoint tried to run code (onnxify never executes code from a "
      "checkpoint)",
      module, name, spelled);
  if (module.substr(0, 16) == "torch.nn.modules" || module == "__main__")
    msg += "; it pickles whole objects: save model.state_dict() instead";
  fail(msg);
}

Value call_global(const GlobalObject& g, const Value& args, Heap& heap, bool new_object) {
  const std::vector<Value>& a = tuple_items(g, args);
  if (g.id < 0) fail(fmt::format("the storage class '{}' cannot be called", qualified(g)));
  const Row& row = kRows[g.id];
  if (row.role == GlobalRole::Unsupported)
    fail(
        fmt::format("'{}' builds {}, which onnxify does not read", qualified(g), unsupported_reason(row.id)));
  if (new_object && row.role == GlobalRole::Function)
    fail(fmt::format("'{}' is a function; the pickle cannot create an instance of it", qualified(g)));
  if (row.role == GlobalRole::Record) {
    auto* inst = heap.make<InstanceObject>();
    inst->cls = const_cast<GlobalObject*>(&g);
    inst->args = args;
    return Value::object(Kind::Instance, inst);
  }

  switch (row.id) {
    case GlobalId::RebuildTensor:
      arity(g, a, 4, 4);
      return make_tensor(g, a, std::nullopt, heap);
    case GlobalId::RebuildTensorV2:
      arity(g, a, 6, 7);
      return make_tensor(g, a, std::nullopt, heap);
    case GlobalId::RebuildTensorV3:
      arity(g, a, 7, 8);
      if (!a[6].is(Kind::DType))
        fail(fmt::format("'{}' expects a dtype, got {}", qualified(g), a[6].type_name()));
      return make_tensor(g, a, a[6].as_dtype(), heap);
    case GlobalId::RebuildParameter:
      arity(g, a, 3, 3);
      return parameter(tensor_arg(g, a[0]), a[1], heap);
    case GlobalId::RebuildParameterWithState:
      arity(g, a, 4, 4);
      return parameter(tensor_arg(g, a[0]), a[1], heap);
    case GlobalId::RebuildFromType:
    case GlobalId::RebuildFromTypeV2: {
      // (func, new_type, args, state): new_type is torch.Tensor or nn.Parameter here; any other
      // subclass would have been refused when its global was loaded. torch nests this once; a
      // pickle could nest it as deep as its bytes allow, so the nesting is bounded.
      arity(g, a, 4, 4);
      if (!a[0].is(Kind::Global))
        fail(fmt::format("'{}' expects a function, got {}", qualified(g), a[0].type_name()));
      static thread_local int nesting = 0;
      if (nesting >= 8) fail(fmt::format("'{}' is nested more than 8 deep", qualified(g)));
      ++nesting;
      Value result;
      try {
        result = call_global(a[0].global(), a[2], heap, false);
      } catch (...) {
        --nesting;
        throw;
      }
      --nesting;
      if (a[1].is(Kind::Global) && a[1].global().id == static_cast<int>(GlobalId::Parameter) &&
          result.is(Kind::Tensor))
        result.tensor().parameter = true;
      return result;
    }
    case GlobalId::TorchTensor:
    case GlobalId::TorchTensorClass:
    case GlobalId::Parameter:
      fail(fmt::format("'{}' is constructed directly (an uninitialized or lazy parameter has no data)",
                       qualified(g)));
    case GlobalId::TorchSize: {
      arity(g, a, 0, 1);
      std::vector<Value> dims;
      if (!a.empty())
        for (const Value& d : iterable(g, a[0])) dims.push_back(Value::integer(int_arg(g, d, "dimension")));
      return heap.tuple(std::move(dims));
    }
    case GlobalId::OrderedDict:
    case GlobalId::Dict: {
      Value d = heap.dict(row.id == GlobalId::OrderedDict ? "collections.OrderedDict" : "dict");
      if (!new_object) {
        arity(g, a, 0, 1);
        if (!a.empty()) fill_dict(g, d.dict(), a[0]);
      }
      return d;
    }
    case GlobalId::DefaultDict: {
      // defaultdict(factory[, mapping]): the factory only matters for missing keys; drop it.
      Value d = heap.dict("collections.defaultdict");
      if (!new_object) {
        arity(g, a, 0, 2);
        if (a.size() == 2) fill_dict(g, d.dict(), a[1]);
      }
      return d;
    }
    case GlobalId::List:
    case GlobalId::Tuple:
    case GlobalId::Set:
    case GlobalId::FrozenSet: {
      std::vector<Value> items;
      if (!a.empty() && !(new_object && row.id != GlobalId::Tuple)) items = iterable(g, a[0]);
      if (row.id == GlobalId::List) return heap.list(std::move(items));
      if (row.id == GlobalId::Tuple) return heap.tuple(std::move(items));
      return heap.set(std::move(items), row.id == GlobalId::FrozenSet);
    }
    case GlobalId::BytesType:
    case GlobalId::ByteArray:
      return bytes_from_args(g, a, heap, row.id == GlobalId::ByteArray);
    case GlobalId::Int:
    case GlobalId::Bool:
      arity(g, a, 0, 1);
      if (a.empty()) return row.id == GlobalId::Bool ? Value::boolean(false) : Value::integer(0);
      if (!a[0].is_int()) fail(fmt::format("'{}' of a {} is not supported", qualified(g), a[0].type_name()));
      return row.id == GlobalId::Bool ? Value::boolean(a[0].as_int() != 0) : Value::integer(a[0].as_int());
    case GlobalId::Float:
      arity(g, a, 0, 1);
      if (a.empty()) return Value::real(0);
      if (a[0].is(Kind::Float)) return a[0];
      if (a[0].is(Kind::Int)) return Value::real(static_cast<double>(a[0].as_int()));
      fail(fmt::format("'{}' of a {} is not supported", qualified(g), a[0].type_name()));
    case GlobalId::Str:
      arity(g, a, 0, 1);
      if (a.empty()) return heap.str("");
      if (a[0].is(Kind::Str)) return a[0];
      fail(fmt::format("'{}' of a {} is not supported", qualified(g), a[0].type_name()));
    case GlobalId::CodecsEncode:
      arity(g, a, 1, 3);
      if (!a[0].is(Kind::Str))
        fail(fmt::format("'{}' expects a str, got {}", qualified(g), a[0].type_name()));
      return heap.bytes(
          encode(g, a[0].as_str(), a.size() > 1 && a[1].is(Kind::Str) ? a[1].as_str() : "utf-8"));
    case GlobalId::Reconstructor: {
      // copyreg._reconstructor(cls, base, state): protocol 0/1 objects.
      arity(g, a, 3, 3);
      if (!a[0].is(Kind::Global))
        fail(fmt::format("'{}' expects a class, got {}", qualified(g), a[0].type_name()));
      Value obj = call_global(a[0].global(), heap.tuple(), heap, true);
      if (!a[2].is_none()) build(obj, a[2], heap);
      return obj;
    }
    default:
      break;
  }
  fail(fmt::format("'{}' cannot be called", qualified(g)));
}

void build(const Value& target, const Value& state, Heap& heap) {
  // Python: an empty or None state changes nothing, whatever the target.
  if (state.is_none() || (state.is(Kind::Dict) && state.dict().items.empty())) return;
  switch (target.kind()) {
    case Kind::Dict: {
      // An OrderedDict's __dict__ (a state_dict's `_metadata`), maybe with slot state: (dict, slots).
      auto apply = [&](const Value& s) {
        if (s.is_none()) return;
        if (!s.is(Kind::Dict))
          fail(fmt::format("BUILD gives a {} state a {}", target.type_name(), s.type_name()));
        for (const auto& [k, v] : s.dict().items) target.dict().attrs.emplace_back(key_name(k), v);
      };
      if (state.is(Kind::Tuple) && state.seq().items.size() == 2) {
        apply(state.seq().items[0]);
        apply(state.seq().items[1]);
      } else {
        apply(state);
      }
      return;
    }
    case Kind::Instance:
      target.instance().state = state;
      return;
    case Kind::Tensor:
      // torch.Tensor.__setstate__: requires_grad and hooks of very old files, or a subclass's
      // __dict__; neither changes the data.
      return;
    default:
      break;
  }
  (void)heap;
  fail(fmt::format("BUILD cannot set the state of a {}", target.type_name()));
}

}  // namespace onnxify::weights
