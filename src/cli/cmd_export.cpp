// onnxify export (SOURCE.py | -m MODULE) --model EXPR [--input NAME=SPEC]... [--weights FILE] [--weights-key KEY]
//                [-o OUT.onnx] [--opset N] [--target T] [--path DIR]... [--decompose OP,...] [--keep OP,...]
//                [--trt-version V]
// The logic is torch::export_model; this file maps its outcome to exit codes and prints diagnostics.
#include <fmt/ranges.h>

#include <cstdio>
#include <cstdlib>
#include <optional>

#include "cli/commands.h"
#include "cli/python_env.h"
#include "cli/server.h"
#include "eval/eval.h"
#include "support/progress.h"
#include "torch/torch.h"

namespace onnxify::cli {

namespace {

int exit_code(torch::Failure f) {
  switch (f) {
    case torch::Failure::None: return kOk;
    case torch::Failure::BadInput: return kBadInput;
    case torch::Failure::Convert: return kConvertFailed;
  }
  return kConvertFailed;
}

void print_warnings(const std::vector<Diagnostic>& w) {
  for (const Diagnostic& d : w) std::fputs(d.render().c_str(), stderr);
}

}  // namespace

// Splits NAME=SPEC flags (shared with inspect).
bool split_inputs(const std::vector<std::string>& raw, std::vector<std::pair<std::string, std::string>>& out) {
  for (const std::string& r : raw) {
    size_t eq = r.find('=');
    if (eq == std::string::npos) {
      report(Diagnostic::error(fmt::format("--input '{}': expected NAME=SPEC, e.g. x=float32[N,3,224,224]", r)), kBadInput);
      return false;
    }
    out.emplace_back(r.substr(0, eq), r.substr(eq + 1));
  }
  return true;
}

// SOURCE.py or -m MODULE (shared with inspect): where --model is evaluated.
void add_model_source(CLI::App& sub, torch::ExportOptions& o) {
  CLI::Option* src = sub.add_option("source", o.source, "the model's Python source file (or -m MODULE)");
  CLI::Option* mod = sub.add_option("-m,--module", o.module,
                                    "an importable module instead of SOURCE, found on the --path roots like "
                                    "`python -m` (e.g. -m transformers, -m timm)");
  src->excludes(mod);
  mod->excludes(src);
  add_no_cache_flag(sub, o.cache);
  sub.add_option("--framework", o.framework,
                 "what the model is written for: torch, keras (Keras 3) or tensorflow; default auto (tensorflow when "
                 "SOURCE imports it, else torch, with Keras found by its own imports)")
      ->check(CLI::IsMember({"auto", "torch", "keras", "tensorflow"}));
}

bool check_model_source(const torch::ExportOptions& o) {
  if (!o.source.empty() || !o.module.empty()) return true;
  report(Diagnostic::error("name the model's code: a SOURCE.py file or -m MODULE")
             .with_help("e.g. onnxify export model.py --model 'Net()' or onnxify export -m timm --path SITE "
                        "--model \"timm.create_model('resnet18')\""),
         kBadInput);
  return false;
}

Action setup_export(CLI::App& sub) {
  auto o = std::make_shared<torch::ExportOptions>();
  auto raw_inputs = std::make_shared<std::vector<std::string>>();
  auto quiet = std::make_shared<bool>(false);
  add_model_source(sub, *o);
  sub.add_option("--model", o->model_expr, "a Python expression giving the model, evaluated in SOURCE's (MODULE's) namespace")
      ->required();
  sub.add_option("--input", *raw_inputs, "NAME=SPEC for a forward() parameter: a tensor type like float32[N,3,224,224] "
                                         "(names are symbolic sizes) or a Python literal (repeatable)");
  sub.add_option("--dim", o->dims,
                 "NAME=LO..: the least value symbolic dim NAME takes (e.g. --dim N=1.. for batch 1; default: "
                 "assumed at least 2 where a decision needs it, with a warning) (repeatable)");
  sub.add_option("--weights", o->weights, "checkpoint: torch.save file, safetensors, a shard index (*.index.json), a Hugging Face model folder, a Keras "
                 "file (.keras, .weights.h5, .weights.json, Keras 2 .h5) or a TensorFlow checkpoint (its prefix, or a SavedModel folder); without "
                 "it, random weights");
  sub.add_option("--weights-key", o->weights_key, "the dictionary inside the checkpoint that holds the state_dict");
  sub.add_option("--dtype", o->dtype,
                 "convert the model's floating-point parameters and buffers to this dtype before binding the "
                 "weights, as model.to(dtype) (float32, float16, bfloat16, float64); default: as __init__ built them, "
                 "checkpoint values cast to them as load_state_dict does");
  sub.add_option("-o,--output", o->output, "the ONNX file to write (default: SOURCE's name with .onnx)");
  sub.add_option("--opset", o->opset, "ONNX opset of the result (default 17)");
  sub.add_option("--target", o->target, "onnxruntime (default), tensorrt or generic");
  sub.add_option("--path", o->paths, "an import root like PYTHONPATH (repeatable); SOURCE under a root gets its dotted "
                                     "module name and its packages run first");
  sub.add_option("--decompose", o->decompose, "composite ops to always decompose (comma-separated)")->delimiter(',');
  sub.add_option("--keep", o->keep, "composite ops to keep as one ONNX op (comma-separated)")->delimiter(',');
  sub.add_option("--trt-version", o->trt_version, "tensorrt target: the TensorRT version (default 10.15)");
  sub.add_option("--max-unroll", o->max_unroll, "iterations a Python loop in forward may be unrolled to (default 10000)")
      ->check(CLI::Validator(
          [](std::string& v) {
            return v.find_first_not_of("0123456789") == std::string::npos && v.find_first_not_of('0') != std::string::npos
                       ? std::string()
                       : "must be a positive integer, not '" + v + "'";
          },
          "POSITIVE"));
  sub.add_option("--layout", o->layout,
                 "the file's 4-d and 5-d inputs and outputs: channels-first (N,C,H,W), channels-last (N,H,W,C) or "
                 "model (default: as the model's code takes them; Keras and TensorFlow models are channels-last)")
      ->check(CLI::IsMember({"model", "channels-first", "channels-last"}));
  sub.add_option("--emit-ir", o->emit_ir, "also write the final graph in the IR text form to this file");
  sub.add_flag("-q,--quiet", *quiet, "print nothing on success (and no progress line)");
  auto server = std::make_shared<bool>(false);
  add_server_flag(sub, *server);
  auto env = std::make_shared<PythonEnvOptions>();
  add_python_env_options(sub, *env);
  return [o, raw_inputs, quiet, env, server] {
    if (want_server(*server)) {
      // The client: the server runs this same command line (less --server) and says how it ended.
      if (std::optional<int> code = run_in_server("--server")) return *code;
    }
    if (!check_model_source(*o)) return static_cast<int>(kBadInput);
    if (!split_inputs(*raw_inputs, o->inputs)) return static_cast<int>(kBadInput);
    std::string env_error;
    o->env_paths = python_package_roots(*env, &env_error);
    if (!env_error.empty()) return report(Diagnostic::error(env_error), kBadInput);
    torch::ExportResult r;
    if (g_kept_modules) {
      // In the export server: from the modules kept there, the export itself in a forked child.
      r = g_kept_modules->export_model(*o, !*quiet, g_cancel_fd);
      if (r.reused_modules) ++g_server_counts.reused;
    } else {
      // On a terminal, a line that says what a long export is doing (erased when it ends).
      ProgressLine progress(!*quiet);
      o->progress = [&progress](const std::string& what, double fraction) { progress.phase(what, fraction); };
      eval::run_with_big_stack([&] { r = torch::export_model(*o); });
      o->progress = nullptr;
    }
    // The process ends right after this command: let the OS reclaim the export's memory instead of
    // freeing every Python object and graph node one by one (deliberately never destroyed).
    new std::shared_ptr<void>(std::move(r.retained));
    // Warnings (random weights, hooks that never run) matter for a written file; on failure the
    // errors alone say what to fix.
    if (r.failure != torch::Failure::None) return report(r.diagnostics, exit_code(r.failure));
    print_warnings(r.warnings);
    if (!*quiet)
      std::printf("wrote %s (%zu nodes; inputs: %s; outputs: %s)\n", r.output_path.c_str(), r.num_nodes,
                  fmt::format("{}", fmt::join(r.input_names, ", ")).c_str(),
                  fmt::format("{}", fmt::join(r.output_names, ", ")).c_str());
    return static_cast<int>(kOk);
  };
}

}  // namespace onnxify::cli
