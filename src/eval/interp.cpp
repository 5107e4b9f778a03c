// Interp: start-up (allocating every builtin type before any of them is initialized, since types,
// strs and dicts refer to each other), output buffering, and teardown.
#include "eval/interp.h"

#include <pthread.h>

#include <cstdio>

#include "eval/code.h"
#include "eval/internal.h"
#include "eval/loader.h"

namespace onnxify::eval {

void clear_type_cache();
void close_all_generators(Interp& I);

static Type* alloc_type(Interp& I, Type* meta) {
  Type* t = new Type();
  t->type = meta;
  if (meta) incref(meta);
  I.heap.link(t, sizeof(Type));
  return t;
}

void bootstrap_types(Interp& I) {
  // 1. Allocate every builtin type so that any of them can be referenced while initializing.
  I.t.type = alloc_type(I, nullptr);
  I.t.type->type = I.t.type;
  incref(I.t.type);
#define TYPE(member, name, layout) \
  if (!I.t.member) I.t.member = alloc_type(I, I.t.type);
#include "eval/types.def"
#undef TYPE
#define EXC(member, name, parent) I.exc.member = alloc_type(I, I.t.type);
#include "eval/exceptions.def"
#undef EXC
  // Layouts are needed before any object is made (has_layout checks).
#define TYPE(member, tname, lay) I.t.member->layout = Layout::lay;
#include "eval/types.def"
#undef TYPE
  I.tag_types_[static_cast<int>(Tag::Null)] = I.t.none;
  I.tag_types_[static_cast<int>(Tag::None)] = I.t.none;
  I.tag_types_[static_cast<int>(Tag::Bool)] = I.t.bool_;
  I.tag_types_[static_cast<int>(Tag::Int)] = I.t.int_;
  I.tag_types_[static_cast<int>(Tag::Float)] = I.t.float_;

  // 2. Strings: identifiers, slot names, one-character strs.
  for (int c = 0; c < 128; ++c) {
    char ch = static_cast<char>(c);
    I.ascii_chars[c] = I.intern(std::string_view(&ch, 1));
  }
#define NAME(member, text) I.names.member = I.intern(text);
#include "eval/names.def"
#undef NAME
  for (size_t s = 0; s < kSlotCount; ++s) I.slot_names[s] = I.intern(slot_table()[s].dunder);
  // Type names (the spec re-sets them; interning them now lets reprs work during bootstrap).
#define TYPE(member, tname, layout)                  \
  if (!I.t.member->name) {                           \
    I.t.member->name = I.intern(tname);              \
    incref(I.t.member->name);                        \
  }
#include "eval/types.def"
#undef TYPE
  I.empty_tuple = I.make<Tuple>(I.t.tuple);

  // 3. Initialize: object and type first (everything inherits their slots).
  init_object_types(I);
  init_number_types(I);
  init_str_type(I);
  init_bytes_types(I);
  init_sequence_types(I);
  init_dict_types(I);
  init_set_types(I);
  init_range_slice_types(I);
  init_iterator_types(I);
  init_function_types(I);
  init_exception_types(I);
  init_generator_types(I);
  init_poison_type(I);
}

Interp::Interp(Options o) : opts(std::move(o)) {
  prev_heap_ = tl_heap;
  tl_heap = &heap;
  heap.interp = this;
  heap.limit = opts.budgets.max_memory;
  steps_left = opts.budgets.max_steps;
  clear_type_cache();
  set_stack_bounds_from_current_thread();
  bootstrap_types(*this);
  modules = new_dict_ref(*this);
  loader_ = std::make_unique<ModuleLoader>(*this);
  init_builtins(*this);
  loader_->install_stdlib();
}

template <class T>
static void drop(Ref<T>& r) {
  r.release();
}
static void drop(Value& v) {
  if (v.is_obj()) v.release_obj();
}

Interp::~Interp() {
  flush();
  try {
    close_all_generators(*this);
  } catch (...) {
  }
  // Everything that refers to heap objects goes before the heap frees them all.
  loader_.reset();
  units_.clear();
  clear_type_cache();
  drop(builtins);
  drop(builtins_module);
  drop(modules);
  drop(empty_tuple);
  drop(notimplemented);
  drop(ellipsis);
  heap.teardown();
  tl_heap = prev_heap_;
}

void Interp::keep(std::unique_ptr<CodeUnit> unit) { units_.push_back(std::move(unit)); }

void Interp::write_out(std::string_view s) {
  outbuf_.append(s);
  if (outbuf_.size() > (1 << 16)) flush();
}

void Interp::write_err(std::string_view s) {
  if (opts.err) opts.err(s);
}

void Interp::flush() {
  if (outbuf_.empty()) return;
  if (opts.out) {
    opts.out(outbuf_);
  } else {
    std::fwrite(outbuf_.data(), 1, outbuf_.size(), stdout);
    std::fflush(stdout);
  }
  outbuf_.clear();
}

void Interp::add_embedded(EmbeddedModule m) { loader_->add_embedded(std::move(m)); }
void Interp::add_native_module(NativeModuleDef def) { loader_->add_native(std::move(def)); }

void Interp::set_stack_bounds_from_current_thread() {
  pthread_attr_t attr;
  void* addr = nullptr;
  size_t size = 0;
  if (pthread_getattr_np(pthread_self(), &attr) == 0) {
    pthread_attr_getstack(&attr, &addr, &size);
    pthread_attr_destroy(&attr);
  }
  if (addr == nullptr || size == 0) {
    // Unknown: assume 8 MiB below the current frame.
    stack_limit = static_cast<const char*>(__builtin_frame_address(0)) - (7u << 20);
    return;
  }
  // Keep a margin for the code that reports the error and for native helpers.
  size_t margin = size > (4u << 20) ? (512u << 10) : size / 8;
  stack_limit = static_cast<const char*>(addr) + margin;
}

void Interp::step_budget_exhausted() {
  steps_left = INT64_MAX / 2;  // let the error be reported
  fatal(*this,
        fmt::format("step budget exhausted: the program ran more than {} steps (statements, loop iterations and calls)",
                    opts.budgets.max_steps),
        "raise the budget with --max-steps N (or ONNXIFY_MAX_STEPS) if the program is expected to run this long");
}

void recursion_error(Interp& I, const char* where) {
  I.native_stack_ran_out = I.depth < I.opts.budgets.max_depth;
  raise(I, I.exc.RecursionError, std::string("maximum recursion depth exceeded") + where);
}

}  // namespace onnxify::eval
