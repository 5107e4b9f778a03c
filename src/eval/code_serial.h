// The evaluator's program form (code.h) as bytes and back: what the compiled-module cache
// (code_cache.h) stores for a source file, so that a module imported again is not parsed,
// resolved and lowered again.
//
// Everything lowering produced is written: the unit's nodes, code objects, parameter descriptions
// (FuncDef) and match patterns, each table in its order, pointers as indices into those tables,
// every name once in a string table (interned once when read), constants by value. What lowering
// computes from the finished tree is computed again on reading, by the same functions
// (compile.h: block summaries, the if/while/for list, constant frozensets' layout). Lookup caches
// start empty. The bytes depend on nothing but the unit: the cache keys them by the source text
// and the binary that wrote them.
#pragma once

#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>

#include "eval/code.h"

namespace onnxify::eval {

// serialize_code: the unit holds something the form has no encoding for (a constant of another
// type). deserialize_code: the bytes are not a unit this binary wrote (truncated, an index out of
// range, a node kind where another is needed). Either way the caller compiles the source instead.
struct CodeBytesError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

std::string serialize_code(Interp& I, CodeUnit& unit);

// The unit serialize_code's bytes describe, for `file` (the source the bytes were made from: its
// positions, its text for diagnostics) as module `module_name`.
std::unique_ptr<CodeUnit> deserialize_code(Interp& I, std::string_view bytes, std::shared_ptr<const SourceFile> file,
                                           const std::string& module_name);

}  // namespace onnxify::eval
