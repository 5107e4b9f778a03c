// The subcommand table. Each subcommand lives in its own file (cmd_<name>.cpp): it declares its
// options on the CLI11 sub-app and returns the action to run after parsing. Only src/cli/ picks
// exit codes (DESIGN.md): 0 success, 1 the model could not be converted, 2 bad command line or
// unreadable input.
#pragma once

#include <CLI/CLI.hpp>
#include <functional>

#include "support/diagnostic.h"

namespace onnxify::cli {

enum ExitCode : int { kOk = 0, kConvertFailed = 1, kBadInput = 2 };

using Action = std::function<int()>;

struct Command {
  const char* name;
  const char* summary;
  Action (*setup)(CLI::App& sub);
};

// Defined in main.cpp: the one list of subcommands, and main()'s parse-and-run (also run by the
// export server for its clients' command lines).
const std::vector<Command>& commands();
int dispatch(int argc, char** argv);

// --no-cache (export, inspect, run): sets `cache` false, so every module's source is compiled
// instead of read from the compiled-module cache ($XDG_CACHE_HOME/onnxify; src/eval/code_cache.h).
void add_no_cache_flag(CLI::App& sub, bool& cache);

// Prints a diagnostic (or a list) to stderr in the one format and returns `code`.
int report(const Diagnostic& d, int code);
int report(const DiagnosticList& list, int code);

}  // namespace onnxify::cli

namespace onnxify::torch {
struct ExportOptions;
}

namespace onnxify::cli {

// export's and inspect's model code: SOURCE.py or -m MODULE (cmd_export.cpp). check_model_source
// reports a command line with neither (exit status 2).
void add_model_source(CLI::App& sub, torch::ExportOptions& o);
bool check_model_source(const torch::ExportOptions& o);

}  // namespace onnxify::cli
