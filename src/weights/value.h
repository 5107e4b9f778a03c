// The data model a checkpoint's pickle is read into: Python's data types (None, bool, int, float,
// str, bytes, tuple, list, dict, set), plus tensors, storages, dtypes, references to allowlisted
// globals, and opaque instances of allowlisted data classes (argparse.Namespace, numpy scalars, …).
//
// Ownership: every container lives in a Heap and Values point into it. A pickle can build shared
// and even cyclic structures (memo GET of a list inside itself); an arena frees them all at once,
// without recursion and without leaking cycles, and Value stays a 16-byte copyable handle.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <type_traits>
#include <unordered_map>
#include <utility>
#include <vector>

#include "support/bytes.h"
#include "weights/dtype.h"
#include "weights/tensor.h"

namespace onnxify::weights {

// X(Enum, Python type name used in messages)
#define ONNXIFY_WEIGHTS_VALUE_KINDS(X) \
  X(None, "NoneType")                  \
  X(Bool, "bool")                      \
  X(Int, "int")                        \
  X(BigInt, "int")                     \
  X(Float, "float")                    \
  X(Str, "str")                        \
  X(Bytes, "bytes")                    \
  X(Tuple, "tuple")                    \
  X(List, "list")                      \
  X(Dict, "dict")                      \
  X(Set, "set")                        \
  X(Global, "global")                  \
  X(DType, "torch.dtype")              \
  X(Storage, "storage")                \
  X(Tensor, "tensor")                  \
  X(Instance, "object")

enum class Kind : uint8_t {
#define X(e, py) e,
  ONNXIFY_WEIGHTS_VALUE_KINDS(X)
#undef X
};
std::string_view kind_name(Kind k);

struct HeapObject {
  virtual ~HeapObject() = default;
};
struct StrObject;
struct BytesObject;
struct BigIntObject;
struct SeqObject;
struct DictObject;
struct GlobalObject;
struct StorageObject;
struct TensorObject;
struct InstanceObject;

class Value {
 public:
  Value() : kind_(Kind::None), i_(0) {}
  static Value none() { return Value(); }
  static Value boolean(bool b) {
    Value v(Kind::Bool);
    v.i_ = b;
    return v;
  }
  static Value integer(int64_t i) {
    Value v(Kind::Int);
    v.i_ = i;
    return v;
  }
  static Value real(double f) {
    Value v(Kind::Float);
    v.f_ = f;
    return v;
  }
  static Value dtype(DType t) {
    Value v(Kind::DType);
    v.i_ = static_cast<int64_t>(t);
    return v;
  }
  static Value object(Kind k, HeapObject* p) {
    Value v(k);
    v.p_ = p;
    return v;
  }

  Kind kind() const { return kind_; }
  bool is(Kind k) const { return kind_ == k; }
  bool is_none() const { return kind_ == Kind::None; }
  // Python's int includes bool; BigInt never fits int64_t.
  bool is_int() const { return kind_ == Kind::Int || kind_ == Kind::Bool; }
  bool is_sequence() const { return kind_ == Kind::Tuple || kind_ == Kind::List; }

  bool as_bool() const { return i_ != 0; }
  int64_t as_int() const { return i_; }
  double as_float() const { return f_; }
  DType as_dtype() const { return static_cast<DType>(i_); }
  const std::string& as_str() const;
  const Bytes& as_bytes() const;
  SeqObject& seq() const;  // Tuple, List, Set
  DictObject& dict() const;
  GlobalObject& global() const;
  StorageObject& storage() const;
  TensorObject& tensor() const;
  InstanceObject& instance() const;
  BigIntObject& bigint() const;
  HeapObject* pointer() const { return kind_ >= Kind::Str && kind_ != Kind::DType ? p_ : nullptr; }

  // The Python type name for messages ("int", "dict", "collections.OrderedDict", …).
  std::string type_name() const;

 private:
  explicit Value(Kind k) : kind_(k), i_(0) {}
  Kind kind_;
  union {
    int64_t i_;
    double f_;
    HeapObject* p_;
  };
};

struct StrObject : HeapObject {
  std::string text;  // UTF-8 (lone surrogates kept as CESU-style bytes, as Python's surrogatepass)
};

struct BytesObject : HeapObject {
  Bytes data;  // zero-copy view into the pickle where it was a BINBYTES
  bool bytearray = false;
};

// An int that does not fit int64_t: two's complement, little-endian, as pickle's LONG1/LONG4.
struct BigIntObject : HeapObject {
  std::vector<uint8_t> le;
  std::string decimal() const;
};

struct SeqObject : HeapObject {
  std::vector<Value> items;
  bool frozen = false;  // frozenset (sets only)
};

// dict and collections.OrderedDict (and defaultdict): insertion-ordered, keys compared as Python
// compares hashable keys (1 == 1.0 == True).
struct DictObject : HeapObject {
  std::string type = "dict";
  std::vector<std::pair<Value, Value>> items;
  // Attributes set by BUILD (a state_dict's `_metadata`).
  std::vector<std::pair<std::string, Value>> attrs;

  // Throws Diagnostic for an unhashable key (list, dict, set), as Python raises TypeError.
  void set(const Value& key, const Value& value);
  const Value* get(const Value& key) const;

 private:
  std::unordered_map<std::string, size_t> index_;
};

// A reference to an allowlisted global (see globals.h for the table).
struct GlobalObject : HeapObject {
  std::string module, name;
  int id = -1;            // row of the globals table, or -1 for storage classes
  DType storage_dtype{};  // for storage classes
  bool untyped_storage = false;
  std::string qualified() const { return module + "." + name; }
};

// A storage a tensor views: its bytes come from a zip record, a legacy file's data section, or a
// slice of another storage (legacy storage views). `data` may be filled after the pickle is read.
struct StorageObject : HeapObject {
  DType dtype = DType::UInt8;
  std::string key;
  int64_t numel = 0;  // elements of dtype, as the pickle declares
  Bytes data;
  bool loaded = false;
  // Legacy storage views: a window of `root`, in root elements.
  StorageObject* view_of = nullptr;
  int64_t view_offset = 0;
};

struct TensorObject : HeapObject {
  Tensor tensor;  // storage bytes bound by the loader once they are known
  StorageObject* storage = nullptr;
  bool requires_grad = false;
  bool parameter = false;
};

// An instance of an allowlisted data class that onnxify does not model (argparse.Namespace,
// numpy scalars and arrays, torch.device, complex, …): kept opaque, never constructed.
struct InstanceObject : HeapObject {
  GlobalObject* cls = nullptr;
  Value args;   // a Tuple
  Value state;  // None until BUILD
};

// The arena. Everything built while reading one checkpoint lives here until the Checkpoint goes.
class Heap {
 public:
  template <typename T>
  T* make() {
    auto p = std::make_unique<T>();
    T* raw = p.get();
    objects_.push_back(std::move(p));
    if constexpr (std::is_same_v<T, TensorObject>) tensors_.push_back(raw);
    if constexpr (std::is_same_v<T, StorageObject>) storages_.push_back(raw);
    return raw;
  }
  Value str(std::string s);
  Value bytes(Bytes b, bool bytearray = false);
  Value tuple(std::vector<Value> items = {});
  Value list(std::vector<Value> items = {});
  Value set(std::vector<Value> items = {}, bool frozen = false);
  Value dict(std::string type = "dict");
  Value bigint(std::vector<uint8_t> le);  // normalises to Int when it fits

  const std::vector<TensorObject*>& tensors() const { return tensors_; }
  const std::vector<StorageObject*>& storages() const { return storages_; }
  size_t size() const { return objects_.size(); }

 private:
  std::vector<std::unique_ptr<HeapObject>> objects_;
  std::vector<TensorObject*> tensors_;
  std::vector<StorageObject*> storages_;
};

// Python's repr() of data values (the unit tests compare it with CPython's). Tensors print as
// tensor(float32[2, 3]), other opaque things as <module.name>. Cycles print as Python prints them
// ("[...]", "{...}"); output past `max_bytes` is cut and ends in "...".
std::string repr(const Value& v, size_t max_bytes = size_t{1} << 20);

// A Python-style key name for paths: str as-is, ints in decimal, others as repr().
std::string key_name(const Value& v);

}  // namespace onnxify::weights
