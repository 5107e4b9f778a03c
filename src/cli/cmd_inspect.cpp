// onnxify inspect (SOURCE.py | -m MODULE) --model EXPR [--path DIR]...: the module tree, parameter shapes and
// counts, forward's signature and the --input flags export needs.
#include <cstdio>
#include <optional>

#include "cli/commands.h"
#include "cli/python_env.h"
#include "cli/server.h"
#include "eval/eval.h"
#include "torch/torch.h"

namespace onnxify::cli {

Action setup_inspect(CLI::App& sub) {
  auto o = std::make_shared<torch::ExportOptions>();
  add_model_source(sub, *o);
  sub.add_option("--model", o->model_expr, "a Python expression giving the model, evaluated in SOURCE's (MODULE's) namespace")
      ->required();
  sub.add_option("--path", o->paths, "an import root like PYTHONPATH (repeatable)");
  auto env = std::make_shared<PythonEnvOptions>();
  add_python_env_options(sub, *env);
  auto server = std::make_shared<bool>(false);
  add_server_flag(sub, *server);
  return [o, env, server] {
    if (want_server(*server))
      if (std::optional<int> code = run_in_server("--server")) return *code;
    if (!check_model_source(*o)) return static_cast<int>(kBadInput);
    std::string env_error;
    o->env_paths = python_package_roots(*env, &env_error);
    if (!env_error.empty()) return report(Diagnostic::error(env_error), kBadInput);
    torch::InspectResult r;
    if (g_kept_modules)
      r = g_kept_modules->inspect_model(*o, g_cancel_fd);  // in the export server
    else
      eval::run_with_big_stack([&] { r = torch::inspect_model(*o); });
    if (r.failure != torch::Failure::None)
      return report(r.diagnostics, r.failure == torch::Failure::BadInput ? kBadInput : kConvertFailed);
    std::fputs(r.text.c_str(), stdout);
    return static_cast<int>(kOk);
  };
}

}  // namespace onnxify::cli
