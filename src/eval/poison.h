// Poison values: unknown values carried until they matter (DESIGN.md decision 6).
#pragma once

#include <string>
#include <string_view>

#include "eval/interp.h"

namespace onnxify::eval {

// A poison value named `what` ("torch.nn"), unknown because of `reason` ("module 'torch' is not
// available: ..."), made at `origin` (the innermost running location when not given).
Value make_poison(Interp& I, std::string what, std::string reason, SourceRange origin = {});

// The diagnostic of an unknown value that mattered: a Diagnostic of its own type so that the loader
// can tell "this installed package's top-level code needs a value nobody knows" (its module becomes
// unknown for its importer, loader.h) from every other error.
class UnknownValueError : public Diagnostic {
 public:
  explicit UnknownValueError(Diagnostic d) : Diagnostic(std::move(d)) {}
};

// Throws the diagnostic for a poison that matters: `use` says how it was used ("a condition").
// Shows where the poison was made (a note) and where it mattered (the current location).
[[noreturn]] void poison_matters(Interp& I, const Value& poison, std::string_view use);

const Value* first_poison(const Value* vals, size_t n);

// The first poison among the positional and keyword arguments, or null.
const Value* first_poison_arg(const Args& a);

// The result of calling a poison-transparent function `name` with an unknown argument.
Value transparent_call_result(Interp& I, const Value& poison, std::string_view name);

// The first poison in v: v itself or an item of a (nested) tuple or list, or null.
const Value* find_poison(const Value& v);

// A poison derived from `from` (same reason and origin), named `what` ("type(x)", "(x is None)").
Value derive_poison(Interp& I, const Value& from, std::string what);

// The class that stands for an unknown class used as a base (`class Context(ssl.SSLContext)` of a
// module onnxify refuses): a real class named after it, so the subclass is a real class that can be
// decorated, stored and compared, while making an instance of it, or of any subclass, gives an
// unknown value (calling into the unknown class is what is refused). One per unknown value.
Value opaque_class(Interp& I, const Value& poison);

// The name of a value in a poison's description: the poison's own name, a short repr, or <type>.
std::string poison_operand(Interp& I, const Value& v);

}  // namespace onnxify::eval
