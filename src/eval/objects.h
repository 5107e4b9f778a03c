// The native object layouts: the C++ classes behind str, tuple, list, dict, set, functions, ...
// Their Python behaviour (methods, slots) lives in the matching types_*.cpp file; this header only
// has the data and the C++ operations the evaluator uses directly.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "eval/object.h"
#include "support/source.h"

namespace onnxify::eval {

struct Code;

// An instance of a subclass of int (bool's values and plain ints are tagged Values).
struct BoxedInt : Object {
  int64_t v = 0;
};
// An instance of a subclass of float.
struct BoxedFloat : Object {
  double v = 0;
};

struct Complex : Object {
  double re = 0, im = 0;
};

struct Str : Object {
  std::string s;
  int64_t hash = -1;   // cached; -1 = not computed
  int64_t cplen = 0;   // length in code points
  bool ascii = true;
  bool interned = false;
  // The last code point index utf8_offset() found in a non-ASCII string and its byte offset: walks
  // start there, so scanning a string by index (regexes, s[i] in a loop) is linear, not quadratic.
  mutable int64_t cp_hint = 0;
  mutable size_t byte_hint = 0;
  std::string_view view() const { return s; }
};

// bytes and bytearray (mutable when type is bytearray).
struct Bytes : Object {
  std::string s;
  int64_t hash = -1;
};

struct Tuple : Object {
  std::vector<Value> items;
  int64_t size() const { return static_cast<int64_t>(items.size()); }
};

struct List : Object {
  std::vector<Value> items;
  int64_t size() const { return static_cast<int64_t>(items.size()); }
};

// An insertion-ordered hash map, the layout of CPython's compact dict: `entries` in insertion
// order (deleted ones have a Null key until the next compaction) and an open-addressing index of
// positions into it. Small dicts (instance dicts, kwargs) skip the index and scan the entries.
struct DictEntry {
  int64_t hash;
  Value key;
  Value value;
};

struct Dict : Object {
  std::vector<DictEntry> entries;
  std::vector<int32_t> index;  // empty while entries are few; -1 empty slot
  int64_t used = 0;            // live entries
  uint32_t keys_version = 0;   // changes whenever a key is added or removed (for lookup caches)

  int64_t size() const { return used; }
};

// set and frozenset: CPython's open-addressing table (same probe sequence and resize policy), so
// iteration order, and therefore printed sets of ints, match CPython.
struct SetEntry {
  int64_t hash = 0;
  Value key;  // Null = never used; dummy marked by hash == -1 and key Null
};

struct Set : Object {
  std::vector<SetEntry> table;
  int64_t mask = 7;
  int64_t fill = 0;  // active + dummy
  int64_t used = 0;  // active
  int64_t hash = -1;  // frozenset cache
  int64_t finger = 0;  // where pop() starts looking
  int64_t size() const { return used; }
};

struct Range : Object {
  int64_t start = 0, stop = 0, step = 1;
  int64_t length() const;
};

struct Slice : Object {
  Value start, stop, step;
};

struct Cell : Object {
  Value v;  // Null when empty
};

// A Python function: code plus the environment it closes over.
struct Function : Object {
  Code* code = nullptr;  // owned by the module's CodeUnit, which outlives every function
  Ref<Dict> globals;
  Value builtins;            // the builtins dict at creation time
  std::vector<Value> defaults;     // positional defaults (the last N parameters)
  Ref<Dict> kwdefaults;          // may be null
  std::vector<Ref<Cell>> closure;  // one per free variable of code
  Value name, qualname, doc, module, annotations;
  // A pure library function (os.path.join): called with an unknown argument it gives an unknown
  // result without running, as a function of an unavailable module would.
  bool poison_transparent = false;
};

using NativeFn = Value (*)(Interp& I, const Value& self, const Args& args);

// A function implemented in C++. When `self` is set the function is bound (a module function,
// or a method bound to its object). Flags say how it behaves as a class attribute.
enum : uint32_t {
  kNativeMethod = 1,   // binds self when read through an instance (a method descriptor)
  kNativeStatic = 2,   // a staticmethod of a native type
  kNativeClass = 4,    // a classmethod of a native type
  kNativePoisonTransparent = 8,  // an unknown argument gives an unknown result without a call (math.sqrt)
};
struct NativeFunc : Object {
  NativeFn fn = nullptr;
  const char* name = "";
  uint32_t flags = 0;
  Value self;       // bound object, Null when unbound
  Value data;       // free data for closures written in C++
  Type* owner = nullptr;  // for methods: the type that defines it (borrowed; types are long-lived)
  const char* doc = nullptr;
};

// A bound method of a Python function (or of anything callable, for classmethods).
struct Method : Object {
  Value func;
  Value self;
};

// A slot wrapper: the Python-visible face of a native slot (`object.__init__`, `int.__add__`).
struct SlotWrapper : Object {
  SlotId slot;
  Type* owner = nullptr;  // borrowed
  Value self;              // bound when read through an instance
};

// A native attribute (CPython's getset descriptor), e.g. `function.__name__`, `slice.start`.
using GetterFn = Value (*)(Interp&, const Value& self);
using SetterFn = void (*)(Interp&, const Value& self, const Value& v);  // v Null = delete
struct GetSet : Object {
  const char* name = "";
  GetterFn get = nullptr;
  SetterFn set = nullptr;
  Type* owner = nullptr;
};

// property, staticmethod, classmethod.
struct Property : Object {
  Value fget, fset, fdel, doc;
  Value name;
};
struct StaticMethod : Object {
  Value func;
};
struct ClassMethod : Object {
  Value func;
};

struct Module : Object {
  Value name;  // str
  // The namespace is Object::dict.
};

// A frame of a traceback: where the exception passed through.
struct TraceEntry {
  SourceRange range;
  std::string function;        // "<module>" for module code
  const void* frame = nullptr;  // the frame that added it (a frame adds itself once)
  uint32_t repeats = 0;         // further frames at the same line (recursion), folded into this one
};

// BaseException and every subclass.
struct Exc : Object {
  Value args;  // tuple
  Value cause, context, notes;
  bool suppress_context = false;
  std::vector<TraceEntry> traceback;  // innermost first, at most kMaxTraceback; the outermost kept last
  uint32_t traceback_omitted = 0;     // frames dropped from the middle
  static constexpr size_t kMaxTraceback = 64;
  Value value;  // StopIteration.value / SystemExit.code helper
};

// A poison value (DESIGN.md decision 6): something we could not evaluate, carried along until it
// matters. `what` names the value ("torch.nn.Module"), `reason` says why it is unknown, `origin`
// is where it was made.
struct Poison : Object {
  std::string what;
  std::string reason;
  SourceRange origin;
  // Its cause is already an error of this run (an unsupported module, an unknown value that reached
  // the graph): a later use that needs its value stops the run without a second, misleading error.
  bool reported = false;
  // Made by a tensor method onnxify lacks (`x.unsupported_view(...)`), or derived from such a value:
  // it may be a view of a real tensor, so writing into it (an in-place method, item assignment)
  // would be lost silently; that is an error where it happens.
  bool may_alias = false;
  // The stand-in class made when this value is used as a base class (opaque_class), made once.
  Value opaque_class;
};

// ---- convenience checks ------------------------------------------------------------------------

inline bool has_layout(const Value& v, Layout l) { return v.is_obj() && v.obj()->type->layout == l; }
inline bool is_str(const Value& v) { return has_layout(v, Layout::Str); }
inline bool is_tuple(const Value& v) { return has_layout(v, Layout::Tuple); }
inline bool is_list(const Value& v) { return has_layout(v, Layout::List); }
inline bool is_dict(const Value& v) { return has_layout(v, Layout::Dict); }
inline bool is_type(const Value& v) { return has_layout(v, Layout::Type); }
inline bool is_poison(const Value& v) { return has_layout(v, Layout::Poison); }
inline bool is_exc(const Value& v) { return has_layout(v, Layout::Exception); }

template <class T>
T* as(const Value& v) {
  return static_cast<T*>(v.obj());
}
inline Str* as_str(const Value& v) { return static_cast<Str*>(v.obj()); }
inline Tuple* as_tuple(const Value& v) { return static_cast<Tuple*>(v.obj()); }
inline List* as_list(const Value& v) { return static_cast<List*>(v.obj()); }
inline Dict* as_dict(const Value& v) { return static_cast<Dict*>(v.obj()); }
inline Type* as_type(const Value& v) { return static_cast<Type*>(v.obj()); }

}  // namespace onnxify::eval
