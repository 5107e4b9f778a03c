// onnxify run FILE: runs a Python script in the evaluator; print() goes to stdout.
#include <cstdio>
#include <fstream>
#include <memory>

#include "cli/commands.h"
#include "cli/python_env.h"
#include "eval/code_cache.h"
#include "eval/eval.h"

namespace onnxify::cli {

namespace {

struct RunOptions {
  std::string file;
  std::vector<std::string> path;
  int64_t max_steps = 0;
  int64_t max_depth = 0;
  int64_t max_memory_mib = 0;
  PythonEnvOptions env;
  bool cache = true;
};

int run(const RunOptions& o) {
  if (!std::ifstream(o.file).good())
    return report(Diagnostic::error(fmt::format("cannot read '{}'", o.file)), kBadInput);
  eval::Options opts;
  try {
    eval::apply_budget_env(opts.budgets);
  } catch (const Diagnostic& d) {
    return report(d, kBadInput);
  }
  if (o.max_steps > 0) opts.budgets.max_steps = o.max_steps;
  if (o.max_depth > 0) opts.budgets.max_depth = o.max_depth;
  if (o.max_memory_mib > 0) opts.budgets.max_memory = static_cast<uint64_t>(o.max_memory_mib) << 20;
  if (o.cache) opts.code_cache = eval::default_code_cache_dir();
  // The same import roots as an export (DESIGN.md decision 10): --path, then the user's Python's
  // sys.path (the standard library modules onnxify does not write, installed packages). No
  // import-fault containment here: a program runs with CPython's semantics exactly.
  std::string env_error;
  std::vector<std::string> env_paths = python_package_roots(o.env, &env_error);
  if (!env_error.empty()) return report(Diagnostic::error(env_error), kBadInput);
  int rc = kOk;
  // The evaluator recurses on the C++ stack: give it a large one (its budgets keep it bounded).
  eval::run_with_big_stack([&] {
    eval::Interp I(opts);
    for (const std::string& p : o.path) I.loader().search_path.push_back(p);
    for (const std::string& p : env_paths) I.loader().search_path.push_back(p);
    try {
      rc = eval::run_main_script_status(I, o.file) == 0 ? kOk : kConvertFailed;
    } catch (const Diagnostic& d) {
      I.flush();
      rc = report(d, kConvertFailed);
    }
  });
  return rc;
}

}  // namespace

const CLI::Validator kPositive(
    [](std::string& v) -> std::string {
      char* end = nullptr;
      long long x = std::strtoll(v.c_str(), &end, 10);
      return end && *end == 0 && x > 0 ? "" : "must be a positive integer, not '" + v + "'";
    },
    "N > 0");

Action setup_run(CLI::App& sub) {
  auto o = std::make_shared<RunOptions>();
  sub.add_option("file", o->file, "the Python script to run")->required();
  sub.add_option("--path", o->path, "an import root, searched after the script's folder (repeatable)");
  sub.add_option("--max-steps", o->max_steps,
                 "step budget: statements, loop iterations and calls (default 200000000; env ONNXIFY_MAX_STEPS)")
      ->check(kPositive);
  sub.add_option("--max-depth", o->max_depth, "recursion budget: Python call depth (default 1000; env ONNXIFY_MAX_DEPTH)")
      ->check(kPositive);
  sub.add_option("--max-memory", o->max_memory_mib,
                 "memory budget in MiB for Python objects (default 2048; env ONNXIFY_MAX_MEMORY)")
      ->check(kPositive);
  add_python_env_options(sub, o->env);
  add_no_cache_flag(sub, o->cache);
  return [o] { return run(*o); };
}

}  // namespace onnxify::cli
