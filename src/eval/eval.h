// Public header of src/eval: the Python evaluator.
//
//   eval::Interp I(opts);                       // one interpreter: heap, types, modules, budgets
//   I.loader().search_path.push_back(dir);      // import roots
//   eval::run_main_script(I, "model.py");       // runs a file as __main__ (throws Diagnostic)
//
// Other stages extend it through the same API the builtins use (ops.h): native types with slots
// (TypeSpec / new_native_type), native functions with Python-style argument parsing (Signature),
// native modules (Interp::add_native_module), modules and packages written in Python and compiled
// into the binary (Interp::add_embedded), and the control-flow hook for symbolic conditions
// (control_flow.h). Errors are Python exceptions (PyException) inside the evaluator; everything
// leaving it is a Diagnostic in the one format.
#pragma once

#include <string>

#include "eval/code.h"
#include "eval/compile.h"
#include "eval/containers.h"
#include "eval/control_flow.h"
#include "eval/frame.h"
#include "eval/generator.h"
#include "eval/interp.h"
#include "eval/loader.h"
#include "eval/objects.h"
#include "eval/ops.h"
#include "eval/poison.h"
#include "eval/value.h"

namespace onnxify::eval {

// Runs `path` as the main script. An uncaught Python exception becomes a Diagnostic
// ("file:line:col: error: ZeroDivisionError: division by zero", with the traceback as notes).
void run_main_script(Interp& I, const std::string& path);
// The same, returning the script's exit status (0, or 1 for a failing sys.exit) instead of
// throwing for SystemExit.
int run_main_script_status(Interp& I, const std::string& path);

// Converts an uncaught Python exception to the one diagnostic format.
Diagnostic exception_diagnostic(Interp& I, const Value& exc);

// Runs `fn` on a thread with a large stack (the evaluator recurses on the C++ stack; budgets keep
// it bounded, a big stack lets deep but legal Python recursion run). Rethrows what fn throws.
void run_with_big_stack(const std::function<void()>& fn, size_t stack_bytes = 512u << 20);

// Environment overrides of the budgets: ONNXIFY_MAX_STEPS, ONNXIFY_MAX_DEPTH, ONNXIFY_MAX_MEMORY (MiB).
// Throws a Diagnostic when a variable is set to something other than a positive integer.
void apply_budget_env(Budgets& b);

}  // namespace onnxify::eval
