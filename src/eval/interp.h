// Interp: one interpreter — heap, builtin types, interned names, modules, budgets, hooks.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "eval/heap.h"
#include "eval/objects.h"
#include "support/diagnostic.h"

namespace onnxify::eval {

struct Frame;
struct CodeUnit;
class ControlFlowHook;
class FileStamps;
class ModuleLoader;

// A Python exception in flight. Python `raise` throws one; `except` catches it. Everything that
// is not a Python exception (budgets, poison that matters, unsupported features) is a Diagnostic
// thrown directly, which Python code cannot catch.
struct PyException {
  Value exc;  // an Exc object
};

// Limits that keep untrusted code from running forever or exhausting the machine (DESIGN.md 8).
struct Budgets {
  int64_t max_steps = 200'000'000;   // statements + loop iterations + calls
  int64_t max_depth = 1000;          // Python call depth (like sys.getrecursionlimit())
  uint64_t max_memory = 2ull << 30;  // bytes held by Python objects
};

struct Options {
  Budgets budgets;
  std::vector<std::string> path;  // import roots searched after the script's own folder
  // Where print() writes. Default: stdout.
  std::function<void(std::string_view)> out;
  // Where warnings.warn and logging write, when enabled. Default: discarded.
  std::function<void(std::string_view)> err;
  // The compiled-module cache's folder (code_cache.h; default_code_cache_dir()); "": no cache.
  std::string code_cache;
};

// A module whose Python source is compiled into the binary (the stdlib subset, the torch prelude).
struct EmbeddedModule {
  std::string name;      // dotted module name, e.g. "torch.nn.functional"
  std::string filename;  // shown in diagnostics, e.g. "<onnxify>/torch/nn/functional.py"
  std::string_view source;
  bool is_package = false;
};

// A module implemented in C++: `init` fills the module's namespace.
struct NativeModuleDef {
  std::string name;
  void (*init)(Interp& I, Module* m);
};

class Interp {
 public:
  explicit Interp(Options opts = {});
  ~Interp();
  Interp(const Interp&) = delete;
  Interp& operator=(const Interp&) = delete;

  Options opts;
  Heap heap;

  struct Types {
#define TYPE(member, name, layout) Type* member = nullptr;
#include "eval/types.def"
#undef TYPE
  } t;
  struct Exceptions {
#define EXC(member, name, parent) Type* member = nullptr;
#include "eval/exceptions.def"
#undef EXC
  } exc;
  struct Names {
#define NAME(member, text) Str* member = nullptr;
#include "eval/names.def"
#undef NAME
  } names;

  // The type of any value (tagged ones included).
  Type* type_of(const Value& v) const {
    if (v.is_obj()) return v.obj()->type;
    return tag_types_[static_cast<int>(v.tag())];
  }

  Str* slot_names[kSlotCount] = {};  // "__repr__", ... by SlotId
  Str* ascii_chars[128] = {};        // the one-character ASCII strs (interned)
  uint32_t next_type_version = 1;

  Value notimplemented, ellipsis;
  Ref<Dict> builtins;      // the builtins module's namespace
  Ref<Module> builtins_module;
  Ref<Dict> modules;       // sys.modules
  Ref<Tuple> empty_tuple;

  // ---- allocation -----------------------------------------------------------------------------
  // A new object of C++ class T and Python type `type` (with a __dict__ when the type's instances
  // have one).
  template <class T>
  Ref<T> make(Type* type, size_t extra_bytes = 0) {
    T* o = new T();
    o->type = type;
    incref(type);
    heap.link(o, sizeof(T) + extra_bytes);
    if (type->flags & 16u /* kTypeInstanceDict */) give_instance_dict(o);
    return Ref<T>::adopt(o);
  }
  void give_instance_dict(Object* o);

  // ---- strings ----------------------------------------------------------------------------------
  // The unique str object with this text (identifiers, attribute names, dict keys from code).
  Str* intern(std::string_view s);
  Value str(std::string_view s);  // a new str (interned when short and identifier-like)
  Value str(std::string&& s);
  Value str(const char* s) { return str(std::string_view(s)); }
  Value str(const std::string& s) { return str(std::string_view(s)); }

  // ---- budgets -----------------------------------------------------------------------------------
  int64_t steps_left = 0;
  int64_t depth = 0;
  const char* stack_limit = nullptr;  // lowest safe address of the running C++ stack
  bool native_stack_ran_out = false;  // the last RecursionError came from the native stack check
  void step_budget_exhausted();
  inline void tick() {
    if (--steps_left < 0) step_budget_exhausted();
  }
  // Sets stack_limit for the calling thread's stack.
  void set_stack_bounds_from_current_thread();

  // ---- execution state ---------------------------------------------------------------------------
  Frame* frame = nullptr;  // innermost running Python frame
  ControlFlowHook* control_flow_hook = nullptr;
  // Sizes only known when the exported model runs (the torch stage's SymInt, set by it): the
  // builtins that keep them symbolic ask these first; each gives Null to go on as usual. Only the
  // builtins ask: the evaluator's own uses of a length or an int need concrete ones.
  struct SymbolicHooks {
    // len(v): a tensor whose first dim is symbolic has that size as its length.
    Value (*len)(Interp& I, const Value& v) = nullptr;
    // int(v): a symbolic size is already an integer (kept symbolic).
    Value (*to_int)(Interp& I, const Value& v) = nullptr;
    // float(v): a symbolic size or a one-element tensor only known at run time is a run-time Python
    // float (a zero-dim float tensor, as N / 2 is), or Null for float() as usual.
    Value (*to_float)(Interp& I, const Value& v) = nullptr;
    // math.NAME(args) when an argument is a value only known at run time (a symbolic size, a
    // one-element tensor): the same function recorded as tensor ops (a run-time float, or a size for
    // floor/ceil/trunc), or Null for math's usual conversion (and its error).
    Value (*math)(Interp& I, const char* name, const Args& a) = nullptr;
    // min(a, b) / max(a, b) of sizes when the comparison is only known at run time.
    Value (*min_max)(Interp& I, const Value& a, const Value& b, bool is_max) = nullptr;
    // range(...) with a bound only known at run time, outside a `for` statement (which becomes a Loop):
    // what stands for it as data (`torch.LongTensor(range(x.size(0)))`), or Null when no bound is symbolic.
    Value (*range)(Interp& I, const Args& a) = nullptr;
    // `v is None` for a value that is None only on some runs (a tensor merged with None after a
    // tensor-dependent `if`): a bool known when the model runs, or Null when v is not None. Set by
    // the torch stage once such a value exists.
    Value (*is_none)(Interp& I, const Value& v) = nullptr;
    // isinstance(v, int) in model code: a symbolic size is an int, as PyTorch's sizes are
    // (`isinstance(d, int)` checks of shape helpers); not in the embedded library (builtins.cpp).
    bool (*is_int)(const Value& v) = nullptr;
    // list(v) / l.extend(v) / l += v where v's length is only known at run time (a tensor whose first
    // dim is symbolic, a list a Loop appended to): appends what stands for its items to `l` and gives
    // true, or false to go on as usual (and report the run-time length where it iterates).
    bool (*extend)(Interp& I, List* l, const Value& v) = nullptr;
    // seq * n (either order) for a list and a size only known at run time (`[prompt] * x.size(0)`
    // then torch.cat): a list standing for the items repeated n times, or Null to go on as usual.
    Value (*repeat)(Interp& I, const Value& seq, const Value& n) = nullptr;
    // sum/min/max/any/all(v) (one positional argument, no key) over such a list: the reduction
    // recorded over its items (`start`: sum's, Null for the others), or Null to go on as usual.
    Value (*reduce)(Interp& I, const char* name, const Value& v, const Value& start) = nullptr;
    // seq[key] for a list or tuple and a key that is not an int (a size or an integer only known at
    // run time: `self.weights[i]` in a Loop): the item selected at run time when every item is a
    // number, or Null to go on as usual (key.__index__(), and its error).
    Value (*item_at)(Interp& I, const std::vector<Value>& items, const Value& key) = nullptr;
    // bool(v) where Python needs a bool (not an if/while test, which records both branches) and v's
    // truth is only known at run time: kTrue/kFalse when the values it depends on are the
    // checkpoint's only (onnxify's torch decides it from them, with a warning), else kSymbolic.
    Truth (*settle)(Interp& I, const Value& v) = nullptr;
    // A decision the builtin takes that holds only if the run-time size `n` is at least `k` (zip of
    // a run-time batch with a list of k items reads k rows): said by the torch stage (a warning at
    // the user's line, or an error where the user declared smaller sizes possible).
    void (*assume_at_least)(Interp& I, const Value& n, int64_t k, const char* what) = nullptr;
  } symbolic;
  // Above 0 while an `assert` statement's test runs: a Python bool asked of a value only known at
  // run time there (`assert list(y.shape) == [b, h, n]` with symbolic sizes) gives up the check
  // (SymbolicAssertion), as a symbolic assertion at the top of the test passes (exec_stmt.cpp).
  int assert_depth = 0;
  // Iterations one `for`/`while` statement may run before it is an error (0: no limit). The torch
  // stage sets it while recording forward (`--max-unroll`): a Python loop there is unrolled.
  int64_t max_unroll = 0;
  // Where the innermost frame is (for diagnostics raised by native code).
  SourceRange current_range() const;
  // The innermost location in user code: frames running embedded library source are skipped.
  SourceRange user_range() const;

  // ---- modules -----------------------------------------------------------------------------------
  ModuleLoader& loader() { return *loader_; }
  // When set, every path the importer and the file functions look at is stamped there (the state
  // of an interpreter kept between exports is reused only while the stamps hold; file_stamps.h).
  FileStamps* stamps = nullptr;
  void add_embedded(EmbeddedModule m);
  void add_native_module(NativeModuleDef def);

  // Keeps compiled code alive for the interpreter's lifetime (functions point into it).
  void keep(std::unique_ptr<CodeUnit> unit);

  // Output of print(); buffered, flushed at exit and when large.
  void write_out(std::string_view s);
  void write_err(std::string_view s);
  void flush();

 private:
  friend void bootstrap_types(Interp& I);
  Type* tag_types_[6] = {};
  // The interned strings (types_str.cpp): interning is on every module's import path (lowering,
  // the compiled-module cache's string tables: a fifth of reading keras' cached modules). An
  // open-addressing table of (XXH3 hash, string) slots, so a probe compares stored hashes and reads a
  // string's bytes only on a hash match (std::unordered_map walked nodes and keys: a cache miss each).
  struct InternSlot {
    uint64_t hash = 0;
    Str* str = nullptr;
  };
  std::vector<InternSlot> interned_;  // a power of two long, at most half full
  size_t interned_count_ = 0;
  std::vector<std::unique_ptr<CodeUnit>> units_;
  std::unique_ptr<ModuleLoader> loader_;
  std::string outbuf_;
  Heap* prev_heap_ = nullptr;
};

}  // namespace onnxify::eval
