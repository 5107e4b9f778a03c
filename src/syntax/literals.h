// Values of literal tokens: string bodies (escapes, CPython's error messages) and numbers.
// Pure functions over the source text, shared by the parser and its tests.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "syntax/arena.h"
#include "syntax/ast.h"

namespace onnxify::syntax {

struct LiteralError {
  uint32_t offset = 0;  // where in the text the problem is
  std::string message;  // CPython's SyntaxError message
};

// True when a literal body (between the quotes) is its own value: nothing to decode or translate.
bool literal_is_verbatim(std::string_view body, uint8_t string_flags);

// Appends the value of the literal body text[begin, end) (string_flags from the token: raw, bytes)
// to `out`: escapes decoded, line ends translated to '\n' as CPython reads source. A str value is
// UTF-8, with lone surrogates from escapes in their 3-byte form. Returns false and fills `err` on
// an invalid literal.
bool decode_literal(std::string_view text, uint32_t begin, uint32_t end, uint8_t string_flags,
                    std::string& out, LiteralError* err);

// The value of a NUMBER token. Integers that do not fit int64 keep their decimal digits in `arena`.
bool parse_number(std::string_view token, Arena& arena, ast::ConstantValue* out, LiteralError* err);

}  // namespace onnxify::syntax
