// Declarations shared by the evaluator's implementation files (not part of the public API).
#pragma once

#include <string>
#include <string_view>

#include "eval/containers.h"
#include "eval/ops.h"

namespace onnxify::eval {

using VoidFn = void (*)();
VoidFn slot_get(const Slots& s, SlotId id);
void slot_set(Slots& s, SlotId id, VoidFn fn);
// The trampoline that calls the Python-level dunder for a slot (slot_tramp.cpp).
VoidFn slot_trampoline(SlotId id);
// Calls a native slot through a generic argument list (what a slot wrapper does).
Value call_slot(Interp& I, Type* owner, SlotId id, const Value& self, const Args& a, const char* name);

// Gives `t` (and every subclass) a fresh version: attribute caches keyed on the old one miss.
void type_modified(Interp& I, Type* t);
// Recomputes the slots of a class written in Python from the dunders along its MRO.
void update_slots(Interp& I, Type* t);
// C3 linearization; raises TypeError when the bases admit none.
std::vector<Type*> compute_mro(Interp& I, Type* t);
// type(name, bases, ns) with metaclass `meta` (what a class statement ends with).
Value type_new_impl(Interp& I, Type* meta, Str* name, const std::vector<Value>& bases, Dict* ns,
                    const Args& kwargs);
// The most derived metaclass of `meta` and the bases' types.
Type* calculate_metaclass(Interp& I, Type* meta, const std::vector<Value>& bases);

// Generic descriptor/attribute helpers.
bool is_data_descriptor(Interp& I, const Value& d);
// Calls `f` (read from a class, not bound) as a method of `self`.
Value call_unbound(Interp& I, const Value& f, const Value& self, const Args& a);
Value call_unbound(Interp& I, const Value& f, const Value& self);
Value call_unbound(Interp& I, const Value& f, const Value& self, const Value& a0);
Value call_unbound(Interp& I, const Value& f, const Value& self, const Value& a0, const Value& a1);

// Per-type bootstrap functions (one per types_*.cpp), called by the Interp constructor in order.
void init_object_types(Interp& I);
void init_number_types(Interp& I);
void init_str_type(Interp& I);
void init_bytes_types(Interp& I);
void init_sequence_types(Interp& I);
void init_dict_types(Interp& I);
void init_set_types(Interp& I);
void init_range_slice_types(Interp& I);
void init_function_types(Interp& I);
void init_exception_types(Interp& I);
void init_iterator_types(Interp& I);
void init_generator_types(Interp& I);
void init_poison_type(Interp& I);
void init_builtins(Interp& I);

// Formatting helpers (format.cpp, float_format.cpp).
std::string float_repr(double d);
std::string int_to_string(int64_t v, int base, bool alt = false, bool upper = false);
// format(v, spec) for ints, floats and strs (the format-spec mini-language).
std::string format_int(Interp& I, int64_t v, std::string_view spec);
std::string format_float(Interp& I, double d, std::string_view spec);
std::string format_str(Interp& I, std::string_view s, std::string_view spec);
std::string format_complex(Interp& I, double re, double im, std::string_view spec);
// format(v, spec) for any value (calls __format__).
std::string format_value(Interp& I, const Value& v, std::string_view spec);
// str % args
Value percent_format(Interp& I, std::string_view fmt, const Value& args, bool is_bytes);
// str.format(*args, **kwargs)
std::string str_format(Interp& I, std::string_view fmt, const Args& a);
// Parses an int literal/str like int(s, base); false (nothing raised) when it does not parse.
bool parse_int(std::string_view s, int base, int64_t* out, bool* overflow);
bool parse_float(std::string_view s, double* out);

// Numbers.
Value int_floordiv(Interp& I, int64_t a, int64_t b);
Value int_mod(Interp& I, int64_t a, int64_t b);
Value int_pow(Interp& I, int64_t a, int64_t b);
int64_t hash_int(int64_t v);
int64_t hash_double(double d);
double float_floordiv(Interp& I, double a, double b);
double float_mod(Interp& I, double a, double b);
[[noreturn]] void int_overflow(Interp& I, const char* what);

// The ident/name of the i-th slot as an interned str.
Str* slot_name(Interp& I, SlotId id);

// Type checks for error messages: "'int' object is not iterable".
[[noreturn]] void raise_type_error_obj(Interp& I, const char* fmt_before, const Value& v, const char* after);

}  // namespace onnxify::eval
