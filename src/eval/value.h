// Value: the evaluator's tagged value type, and Object: the header of every heap object.
//
// None, bools, ints and floats live inside the 16-byte Value without a heap allocation (the hot
// loops of model code are int arithmetic on shapes); everything else is a refcounted Object. A
// Value owns one reference when it holds an object. `Null` is not a Python value: it is the
// evaluator's "nothing here" (an unbound local, a missing dict entry, an exhausted iterator), so
// those common outcomes never need a C++ exception.
#pragma once

#include <cstdint>
#include <cstring>
#include <utility>

namespace onnxify::eval {

struct Object;
struct Type;
struct Dict;

enum class Tag : uint8_t { Null = 0, None, Bool, Int, Float, Obj };

// Frees an object whose refcount reached zero (heap.cpp). Never call directly.
void dealloc(Object* o) noexcept;

// Set while the heap tears down (destructors run in any order, cycles included): references are
// then not counted at all, so no destructor touches an object whose destructor already ran.
extern thread_local bool tl_heap_teardown;

// The header of every heap object. Objects are C++ classes deriving from Object; the virtual
// destructor releases what they own. `type` is the Python type (a strong reference); `dict` is the
// instance `__dict__` for types whose instances have one (user classes, modules, functions,
// subclasses of builtins), null otherwise.
struct Object {
  Object() = default;
  Object(const Object&) = delete;
  Object& operator=(const Object&) = delete;
  virtual ~Object();

  Type* type = nullptr;
  Dict* dict = nullptr;
  uint32_t refcnt = 0;
  uint32_t heap_bytes = 0;  // bytes charged to the memory budget for this object's own payload
  Object* heap_prev = nullptr;
  Object* heap_next = nullptr;
};

inline void incref(Object* o) noexcept { ++o->refcnt; }
inline void decref(Object* o) noexcept {
  if (__builtin_expect(tl_heap_teardown, 0)) return;
  if (--o->refcnt == 0) dealloc(o);
}

class Value {
 public:
  Value() noexcept : tag_(Tag::Null) { u_.i = 0; }
  Value(const Value& o) noexcept : tag_(o.tag_), u_(o.u_) {
    if (tag_ == Tag::Obj) incref(u_.o);
  }
  Value(Value&& o) noexcept : tag_(o.tag_), u_(o.u_) { o.tag_ = Tag::Null; }
  ~Value() {
    if (tag_ == Tag::Obj) decref(u_.o);
  }
  Value& operator=(const Value& o) noexcept {
    if (o.tag_ == Tag::Obj) incref(o.u_.o);
    release();
    tag_ = o.tag_;
    u_ = o.u_;
    return *this;
  }
  Value& operator=(Value&& o) noexcept {
    if (this != &o) {
      release();
      tag_ = o.tag_;
      u_ = o.u_;
      o.tag_ = Tag::Null;
    }
    return *this;
  }

  static Value none() { return Value(Tag::None, 0); }
  static Value boolean(bool b) { return Value(Tag::Bool, b ? 1 : 0); }
  static Value integer(int64_t i) { return Value(Tag::Int, i); }
  static Value real(double d) {
    Value v;
    v.tag_ = Tag::Float;
    v.u_.f = d;
    return v;
  }
  // A new reference to `o` (the caller keeps its own).
  static Value borrow(Object* o) {
    incref(o);
    return adopt_raw(o);
  }
  // Takes over a reference the caller owns (e.g. a freshly made object with refcnt 1).
  static Value adopt_raw(Object* o) {
    Value v;
    v.tag_ = Tag::Obj;
    v.u_.o = o;
    return v;
  }

  Tag tag() const { return tag_; }
  bool is_null() const { return tag_ == Tag::Null; }
  explicit operator bool() const { return tag_ != Tag::Null; }  // "is there a value"
  bool is_none() const { return tag_ == Tag::None; }
  bool is_bool() const { return tag_ == Tag::Bool; }
  bool is_int() const { return tag_ == Tag::Int; }
  // int or bool (bool is a subclass of int)
  bool is_intlike() const { return tag_ == Tag::Int || tag_ == Tag::Bool; }
  bool is_float() const { return tag_ == Tag::Float; }
  bool is_obj() const { return tag_ == Tag::Obj; }

  int64_t i() const { return u_.i; }  // int or bool payload
  bool b() const { return u_.i != 0; }
  double f() const { return u_.f; }
  Object* obj() const { return u_.o; }
  // Gives up the reference without decrementing it.
  Object* release_obj() {
    tag_ = Tag::Null;
    return u_.o;
  }

  // Identity (Python `is`).
  bool is(const Value& o) const {
    if (tag_ != o.tag_) return false;
    if (tag_ == Tag::Float) return std::memcmp(&u_.f, &o.u_.f, sizeof(double)) == 0;
    return u_.i == o.u_.i;
  }

  // Raw payload access for caches that hold values without owning them.
  uint64_t raw_bits() const { return static_cast<uint64_t>(u_.i); }
  static Value from_raw_borrow(Tag t, uint64_t bits) {
    Value v;
    v.tag_ = t;
    v.u_.i = static_cast<int64_t>(bits);
    if (t == Tag::Obj) incref(v.u_.o);
    return v;
  }

  void swap(Value& o) noexcept {
    std::swap(tag_, o.tag_);
    std::swap(u_, o.u_);
  }

 private:
  Value(Tag t, int64_t i) : tag_(t) { u_.i = i; }
  void release() {
    if (tag_ == Tag::Obj) decref(u_.o);
  }
  Tag tag_;
  union {
    int64_t i;
    double f;
    Object* o;
  } u_;
};

static_assert(sizeof(Value) == 16);

// A strong reference to an object of a known C++ class.
template <class T>
class Ref {
 public:
  Ref() = default;
  Ref(std::nullptr_t) {}
  explicit Ref(T* p) : p_(p) {  // borrow
    if (p_) incref(p_);
  }
  static Ref adopt(T* p) {
    Ref r;
    r.p_ = p;
    return r;
  }
  Ref(const Ref& o) : p_(o.p_) {
    if (p_) incref(p_);
  }
  Ref(Ref&& o) noexcept : p_(o.p_) { o.p_ = nullptr; }
  template <class U>
  Ref(const Ref<U>& o) : p_(o.get()) {
    if (p_) incref(p_);
  }
  ~Ref() {
    if (p_) decref(p_);
  }
  Ref& operator=(Ref o) noexcept {
    std::swap(p_, o.p_);
    return *this;
  }
  T* get() const { return p_; }
  T* operator->() const { return p_; }
  T& operator*() const { return *p_; }
  explicit operator bool() const { return p_ != nullptr; }
  T* release() {
    T* p = p_;
    p_ = nullptr;
    return p;
  }
  Value value() const { return p_ ? Value::borrow(p_) : Value(); }
  // Moves the reference into a Value.
  Value take_value() {
    if (!p_) return Value();
    return Value::adopt_raw(release());
  }

 private:
  T* p_ = nullptr;
};

}  // namespace onnxify::eval
