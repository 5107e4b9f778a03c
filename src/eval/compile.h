// Lowering: the syntax tree of a module (src/syntax) to the evaluator's form (code.h), resolving
// every name the way CPython's symtable does (local, global, nonlocal, cell, free; class bodies;
// comprehension scopes).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "eval/code.h"

namespace onnxify::eval {

// Parses and lowers a whole file. Throws Diagnostic on a syntax error.
std::unique_ptr<CodeUnit> compile_module(Interp& I, std::shared_ptr<const SourceFile> file,
                                         const std::string& module_name);

// Parses and lowers one expression (for `onnxify export --model EXPR` and eval-like uses), as a
// module whose body is `__result__ = EXPR`. With `own_positions`, the nodes' positions (and the
// unit's file) are those of `file` itself, not of the wrapper (eval(): diagnostics quote its text).
std::unique_ptr<CodeUnit> compile_expression(Interp& I, std::shared_ptr<const SourceFile> file,
                                             const std::string& module_name, bool own_positions = false);
// What lowering computes from a finished tree, for the compiled-module cache to compute again
// the same way when it rebuilds a unit from bytes (code_serial.h): the block summaries of the
// unit's if/while/for statements, and the frozenset constant of a set display of more than two
// constants (null when an element is unhashable: the error happens at run time).
void summarize_blocks(CodeUnit& u);
Value constant_frozenset(Interp& I, const std::vector<Expr*>& elts);

// The columns compile_expression's wrapper puts before the expression on its first line.
inline constexpr uint32_t kExpressionWrapColumns = 14;  // "__result__ = ("

}  // namespace onnxify::eval
