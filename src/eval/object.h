// The object model: call arguments, type slots, Type (every Python class, native or written in
// Python), and the native layouts objects come in.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "eval/value.h"

namespace onnxify::eval {

class Interp;
struct Str;

// Arguments of a call, vectorcall style: positional values, then keyword values with their names.
// Nothing is owned; the caller keeps the values alive for the duration of the call.
struct Args {
  const Value* pos = nullptr;
  uint32_t npos = 0;
  uint32_t nkw = 0;
  const Value* kwvals = nullptr;
  Str* const* kwnames = nullptr;

  Args() = default;
  Args(const Value* p, uint32_t n) : pos(p), npos(n) {}
  Args(const std::vector<Value>& v) : pos(v.data()), npos(static_cast<uint32_t>(v.size())) {}
  const Value& operator[](size_t i) const { return pos[i]; }
  // The same arguments without the first positional one (self of a method).
  Args shifted() const {
    Args a = *this;
    ++a.pos;
    --a.npos;
    return a;
  }
};

// Truth of a condition. Symbolic: the value decides at run time (a symbolic tensor); the statement
// executor hands such conditions to the ControlFlowHook (eval.h).
enum Truth : int { kFalse = 0, kTrue = 1, kSymbolic = 2 };

using UnaryFn = Value (*)(Interp&, const Value& self);
using BinaryFn = Value (*)(Interp&, const Value& self, const Value& other);
using HashFn = int64_t (*)(Interp&, const Value& self);
using LenFn = int64_t (*)(Interp&, const Value& self);
using BoolFn = Truth (*)(Interp&, const Value& self);
using NextFn = Value (*)(Interp&, const Value& self);  // Null when exhausted
using CallFn = Value (*)(Interp&, const Value& self, const Args& args);
// Returns Null when the attribute is missing (the caller raises AttributeError or falls back to
// __getattr__), so hasattr/getattr-with-default never need a C++ exception.
using GetAttrFn = Value (*)(Interp&, const Value& self, Str* name);
using SetAttrFn = void (*)(Interp&, const Value& self, Str* name, const Value& v);
using DelAttrFn = void (*)(Interp&, const Value& self, Str* name);
// obj is Null when the descriptor is read from the class itself.
using DescrGetFn = Value (*)(Interp&, const Value& self, const Value& obj, const Value& owner);
using DescrSetFn = void (*)(Interp&, const Value& self, const Value& obj, const Value& v);
using DescrDeleteFn = void (*)(Interp&, const Value& self, const Value& obj);
using InitFn = void (*)(Interp&, const Value& self, const Args& args);
using NewFn = Value (*)(Interp&, Type* cls, const Args& args);
using SetItemFn = void (*)(Interp&, const Value& self, const Value& key, const Value& v);
using DelItemFn = void (*)(Interp&, const Value& self, const Value& key);
using ContainsFn = bool (*)(Interp&, const Value& self, const Value& item);

#define ONNXIFY_SLOTKIND_Unary UnaryFn
#define ONNXIFY_SLOTKIND_Binary BinaryFn
#define ONNXIFY_SLOTKIND_Hash HashFn
#define ONNXIFY_SLOTKIND_Len LenFn
#define ONNXIFY_SLOTKIND_Bool BoolFn
#define ONNXIFY_SLOTKIND_Next NextFn
#define ONNXIFY_SLOTKIND_Call CallFn
#define ONNXIFY_SLOTKIND_GetAttr GetAttrFn
#define ONNXIFY_SLOTKIND_SetAttr SetAttrFn
#define ONNXIFY_SLOTKIND_DelAttr DelAttrFn
#define ONNXIFY_SLOTKIND_DescrGet DescrGetFn
#define ONNXIFY_SLOTKIND_DescrSet DescrSetFn
#define ONNXIFY_SLOTKIND_DescrDelete DescrDeleteFn
#define ONNXIFY_SLOTKIND_Init InitFn
#define ONNXIFY_SLOTKIND_New NewFn
#define ONNXIFY_SLOTKIND_SetItem SetItemFn
#define ONNXIFY_SLOTKIND_DelItem DelItemFn
#define ONNXIFY_SLOTKIND_Contains ContainsFn

struct Slots {
#define SLOT(member, dunder, kind) ONNXIFY_SLOTKIND_##kind member = nullptr;
#include "eval/slots.def"
#undef SLOT
};

enum class SlotId : uint8_t {
#define SLOT(member, dunder, kind) member,
#include "eval/slots.def"
#undef SLOT
  kCount
};

enum class SlotKind : uint8_t {
  Unary, Binary, Hash, Len, Bool, Next, Call, GetAttr, SetAttr, DelAttr, DescrGet, DescrSet,
  DescrDelete, Init, New, SetItem, DelItem, Contains
};

struct SlotInfo {
  SlotId id;
  const char* dunder;
  SlotKind kind;
};
// One row per slot, in slots.def order.
const SlotInfo* slot_table();
constexpr size_t kSlotCount = static_cast<size_t>(SlotId::kCount);

// The C++ class an object is, so hot paths can downcast without dynamic_cast. Subclasses written
// in Python keep the layout of their native base (a `class L(list)` instance is a List).
#define ONNXIFY_LAYOUTS(X) \
  X(Object)                \
  X(Type)                  \
  X(Int)                   \
  X(Float)                 \
  X(Complex)               \
  X(Str)                   \
  X(Bytes)                 \
  X(Tuple)                 \
  X(List)                  \
  X(Dict)                  \
  X(Set)                   \
  X(Range)                 \
  X(Slice)                 \
  X(Function)              \
  X(Native)                \
  X(Method)                \
  X(Cell)                  \
  X(Module)                \
  X(Exception)             \
  X(Generator)             \
  X(Poison)                \
  X(Other)

enum class Layout : uint8_t {
#define X(name) name,
  ONNXIFY_LAYOUTS(X)
#undef X
};

// Type flags.
enum : uint32_t {
  kTypeHeap = 1u << 0,         // defined by a class statement (attributes settable, slots trampolines)
  kTypeBase = 1u << 1,         // may be subclassed
  kTypeHasGetattr = 1u << 2,   // some class in the MRO defines __getattr__
  kTypeAbstract = 1u << 3,     // __abstractmethods__ is non-empty
  kTypeInstanceDict = 1u << 4, // instances carry a __dict__
  kTypeReady = 1u << 5,
};

// Creates a bare instance of a native layout with type `cls` (object.__new__'s helper).
using AllocFn = Value (*)(Interp&, Type* cls);

struct Type : Object {
  Type();
  ~Type() override;

  Str* name = nullptr;  // owned reference
  std::string qualname;
  std::vector<Type*> bases;  // owned references
  std::vector<Type*> mro;    // self first; owned references except self
  std::vector<Type*> subclasses;  // borrowed: types that have this one in their MRO
  Type* solid = nullptr;     // the native type whose layout instances have
  Layout layout = Layout::Object;
  uint32_t flags = 0;
  uint32_t version = 1;      // bumped when this type's or an ancestor's dict changes
  AllocFn alloc = nullptr;
  Slots slots;

  bool is_heap() const { return flags & kTypeHeap; }
  bool is_subtype_of(const Type* t) const {
    if (t == this) return true;
    for (Type* m : mro)
      if (m == t) return true;
    return false;
  }
  std::string_view name_view() const;
};

}  // namespace onnxify::eval
