// The Unicode knowledge of the front end: UTF-8 decoding with CPython's strictness, identifier
// character classes, NFKC normalization of identifiers, and str.isprintable() for repr. The data
// comes from unicode_tables.inc, generated from the reference interpreter (Unicode 14.0).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace onnxify::syntax::unicode {

// Decodes one code point of strict UTF-8 (no overlongs, no surrogates, at most U+10FFFF) at
// s[i]. Returns the number of bytes used, or 0 when the bytes there are not valid UTF-8.
int decode_utf8(std::string_view s, size_t i, char32_t* cp);

// Appends cp as UTF-8; surrogates (from escapes such as '\ud800') get their 3-byte form.
void append_utf8(std::string& out, char32_t cp);

// Like CPython's UTF-8 decoder error: the reason ("invalid start byte", "invalid continuation
// byte", "unexpected end of data") for the invalid sequence at s[i], and its length.
const char* utf8_error_reason(std::string_view s, size_t i, int* length);

bool is_xid_start(char32_t cp);
bool is_xid_continue(char32_t cp);
bool is_printable(char32_t cp);  // str.isprintable() of one character

// The character named `name` in a "\N{...}" escape (unicodedata.lookup rules: case-insensitive
// names, aliases, and the algorithmic CJK and Hangul names).
bool lookup_name(std::string_view name, char32_t* cp);

// NFKC of a valid UTF-8 identifier (what CPython applies to non-ASCII identifiers).
std::string nfkc(std::string_view utf8);

}  // namespace onnxify::syntax::unicode
