// onnxify: the command-line front door. See DESIGN.md "Command line" for the contract.
#include <malloc.h>

#include <cstdio>
#include <iostream>

#include "cli/commands.h"
#include "cli/server.h"
#include "support/exit_release.h"

namespace onnxify::cli {

Action setup_parse(CLI::App& sub);
Action setup_weights(CLI::App& sub);
Action setup_run(CLI::App& sub);
Action setup_export(CLI::App& sub);
Action setup_inspect(CLI::App& sub);
Action setup_server(CLI::App& sub);

// One row per subcommand; each row's setup function lives in cmd_<name>.cpp.
const std::vector<Command>& commands() {
  static const std::vector<Command> table = {
      {"parse", "parse Python files; --dump prints the AST as CPython's ast.dump", setup_parse},
      {"weights", "list a checkpoint's tensors: name, dtype, shape, checksum", setup_weights},
      {"run", "run a Python script in the evaluator (print goes to stdout)", setup_run},
      {"export", "convert a PyTorch model's source (+ checkpoint) to ONNX", setup_export},
      {"inspect", "show a model's module tree, parameter shapes and counts, and what export needs", setup_inspect},
      {"server", "start, stop or ask about the export server (export --server keeps imported modules)", setup_server},
  };
  return table;
}

void add_no_cache_flag(CLI::App& sub, bool& cache) {
  sub.add_flag_callback("--no-cache", [&cache] { cache = false; },
                        "compile every imported module's source instead of reading the compiled-module cache "
                        "($XDG_CACHE_HOME/onnxify, else ~/.cache/onnxify)");
}

int report(const Diagnostic& d, int code) {
  std::fputs(d.render().c_str(), stderr);
  return code;
}

int report(const DiagnosticList& list, int code) {
  std::fputs(list.render().c_str(), stderr);
  return code;
}

int dispatch(int argc, char** argv) {
  CLI::App app{"onnxify: converts PyTorch models to ONNX by reading their Python source"};
  app.require_subcommand(1);
  app.set_version_flag("--version", "onnxify 0.1.0");
  Action action;
  for (const Command& c : commands()) {
    CLI::App* sub = app.add_subcommand(c.name, c.summary);
    Action a = c.setup(*sub);
    sub->callback([&action, a] { action = a; });
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    // CLI11 uses 0 for --help/--version; every real command-line error is our exit status 2, in the
    // one diagnostic format.
    if (e.get_exit_code() == 0) return app.exit(e) == 0 ? kOk : kBadInput;
    std::string cmd;
    for (const CLI::App* sub : app.get_subcommands()) cmd = std::string(" ") + sub->get_name();
    return report(Diagnostic::error(e.what()).with_help("see onnxify" + cmd + " --help"), kBadInput);
  }
  try {
    return action ? action() : kBadInput;
  } catch (const Diagnostic& d) {
    return report(d, kConvertFailed);
  } catch (const DiagnosticList& l) {
    return report(l, kConvertFailed);
  } catch (const std::bad_alloc&) {
    std::fputs("onnxify: error: out of memory\n", stderr);
    return kConvertFailed;
  } catch (const std::exception& e) {
    // A path that should have given a diagnostic: still an error line, never an abort.
    std::fprintf(stderr, "onnxify: error: internal error: %s\n", e.what());
    return kConvertFailed;
  } catch (...) {
    std::fputs("onnxify: error: internal error: an exception no diagnostic describes\n", stderr);
    return kConvertFailed;
  }
}

}  // namespace onnxify::cli

int main(int argc, char** argv) {
  // The evaluator runs on a thread of its own (for its big stack, eval::run_with_big_stack), and
  // glibc gives a second thread an arena that grows by one mprotect per page it takes: 11.7k calls,
  // about a tenth of a resnet50 export. One arena for every thread (the main one, grown by brk in
  // M_TOP_PAD steps) instead: the other threads are weight transforms that allocate little.
  mallopt(M_ARENA_MAX, 1);
  onnxify::cli::g_argv.assign(argv, argv + argc);
  onnxify::release_at_exit_enable();
  int code = onnxify::cli::dispatch(argc, argv);
  onnxify::release_at_exit();
  return code;
}
