// Installed packages found as Python finds them (issue 15): the package roots of the interpreter the
// user works with, so a model file that does `import timm` needs no --path. Only src/cli/ runs
// the interpreter (once, before converting); the evaluator itself never starts a process.
#pragma once

#include <string>
#include <vector>

#include <CLI/CLI.hpp>

namespace onnxify::cli {

struct PythonEnvOptions {
  std::string python;      // --python EXE ("" = the default below)
  bool none = false;       // --no-python
};

// Adds --python and --no-python to a subcommand.
void add_python_env_options(CLI::App& sub, PythonEnvOptions& o);

// The interpreter to ask: --python, else the active virtual environment's ($VIRTUAL_ENV/bin/python),
// else the first python3 on PATH; "" when there is none (then no installed packages are searched).
std::string python_interpreter(const PythonEnvOptions& o);

// The folders of that interpreter's sys.path, in its order: the standard library (read for the
// modules onnxify does not write itself, src/eval/stdlib), site-packages, .pth and PYTHONPATH
// entries; not the current folder. Empty with *error set when --python names an interpreter that
// fails. A process that runs many commands (the export server) asks the interpreter again only when
// the interpreter, the working folder, the environment or the files the answer came from changed.
std::vector<std::string> python_package_roots(const PythonEnvOptions& o, std::string* error);

}  // namespace onnxify::cli
