// The IR text form: a printer and a parser that round-trip exactly (print(parse(t)) == t for any
// printed t), regions, attributes, symbolic dims, locations, module paths and constants included.
// Golden tests are written in it.
//
//   graph @main(%x: float32[N, 3, 32, 32], %flag: bool[]) {
//     const %w = ref<float32[8, 3, 3, 3]>("ckpt.bin"@4096+864)        // bytes in a mapped file
//     const %shape = dense<int64[2]>[0, -1]                            // small constants inline
//     %y = Conv(%x, %w) {pads = [1, 1, 1, 1]} : float32[N, 8, 32, 32] @"features.0" loc("net.py":12:15)
//     %z = If(%flag) {
//       else_branch = graph() {
//         %n = Neg(%y) : float32[N, 8, 32, 32]
//         return %n
//       },
//       then_branch = graph() {
//         %r = Relu(%y) : float32[N, 8, 32, 32]          // %y: an outer value, captured implicitly
//         return %r
//       }
//     } : float32[N, 8, 32, 32]
//     %o = Reshape(%z, %shape) : float32[N, 8192]
//     return %o
//   }
//
// Grammar (`//` starts a comment; whitespace and newlines are insignificant):
//   file      := graph
//   graph     := 'graph' ('@' NAME)? '(' (VALUE ':' type (',' VALUE ':' type)*)? ')'
//                '{' ('const' VALUE '=' tensor | node)* 'return' (VALUE (',' VALUE)*)? '}'
//   node      := (result (',' result)* '=')? OP '(' (operand (',' operand)*)? ')'
//                attrs? (':' type (',' type)*)? ('@' STRING)? loc?
//   result    := VALUE | '_'                    ('_': an omitted optional output)
//   operand   := VALUE | '_'                    ('_': an omitted optional input)
//   OP        := NAME | DOMAIN '::' NAME         (`Conv`, `onnxify::layer_norm`, `com.microsoft::Gelu`)
//   attrs     := '{' (NAME '=' attr (',' NAME '=' attr)*)? '}'
//   attr      := INT | FLOAT | STRING | tensor | graph | KIND? '[' (attr (',' attr)*)? ']'
//                (KIND is ints/floats/strings/tensors/graphs; the printer writes it for empty lists)
//   tensor    := 'dense' '<' type '>' ('[' scalar (',' scalar)* ']' | 'hex' STRING)
//              | 'ref' '<' type '>' '(' STRING '@' INT '+' INT ')'
//   loc       := 'loc' '(' STRING ':' LINE ':' COL ('-' LINE ':' COL)? ')'
//   VALUE     := '%' [A-Za-z0-9_.]+ | '%' STRING
//   type      := see type.h; dims see dim.h
//
// Conventions:
// * Value names are made unique across the whole model (NameTable); `%7` (all digits) is an unnamed
//   value, renumbered when printed. A region may use any value defined before its node in an
//   enclosing graph.
// * Result types follow the `:` in order, one per present result; `?` is an unknown type; with no
//   `:` every result's type is unknown.
// * FLOAT literals always contain '.', 'e', "nan" or "inf" (`1.0`, `1e-05`); INT literals never do.
//   Floats print in the shortest form that reads back to the same bits (NaN payloads are not kept).
// * `dense` lists every element in row-major order (complex types: real and imaginary interleaved;
//   bool: true/false). Float8/4-bit types, which have no decimal form, print as `hex"..."` (raw
//   bytes); any numeric type may be written that way.
// * `ref` names bytes of a file: path (as written, relative to the working directory), byte offset,
//   byte length. The parser maps the file; nothing is copied. Mapped constants always print this way.
// * `loc` is the source position of the Python code that created the node: 1-based line, 0-based
//   UTF-8 byte column (CPython's AST convention), optionally an end position. When the file is
//   readable the parser loads it so diagnostics can show the line.
#pragma once

#include <memory>
#include <string>
#include <string_view>

#include "ir/graph.h"
#include "support/source.h"

namespace onnxify::ir {

struct PrintOptions {
  bool locations = true;  // print loc(...) and module paths
};

std::string print(const Graph& graph, const PrintOptions& options = {});
// A constant as written in the text: `dense<int64[2]>[1, 2]` or `ref<...>("file"@off+len)`.
std::string format_tensor_literal(const Tensor& t);
// The one-line form of a node (no regions), for diagnostics: `%y = Add(%a, %b)`.
std::string print_node_header(const Node& node, const NameTable& names);

struct ParseOptions {
  bool load_sources = true;  // read the files named by loc(...) so diagnostics can quote them
};

// Parses a whole IR file. Throws Diagnostic (with the IR file, line and column) on malformed text.
std::unique_ptr<Graph> parse(std::shared_ptr<const SourceFile> file, const ParseOptions& options = {});
std::unique_ptr<Graph> parse(std::string_view text, const std::string& path = "<ir>",
                             const ParseOptions& options = {});

}  // namespace onnxify::ir
