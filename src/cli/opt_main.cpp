// onnxify-opt: the developer tool for the IR (not a subcommand of the user CLI).
//
//   onnxify-opt IN.ir [--pass dce,cse,fold ...] [--verify] [-o OUT.onnx] [--opset N]
//               [--lower [--target T] [--decompose OP,...] [--keep OP,...] [--trt-version V]
//                [--no-pipeline]] [--check-target T]
//               [--external-threshold BYTES] [--external-file NAME] [--fold-limit BYTES]
//               [--allow-composite] [--source-file F --source-hash H] [--stats] [--no-locations]
//
// Parses IR text, optionally verifies it (before and after every pass), runs passes in order,
// optionally lowers it for a target at --opset (onnx.h: lower), then prints the IR (default) or
// writes ONNX. Golden tests, the writer tests and the lowering tests drive it.
// Exit status: 0 success; 1 the IR failed verification, a pass or the writer; 2 bad command line or
// unreadable/malformed input.
#include <CLI/CLI.hpp>
#include <cstdio>
#include <fstream>
#include <iostream>

#include "ir/ir.h"
#include "onnx/onnx.h"
#include "passes/passes.h"

namespace {

enum ExitCode : int { kOk = 0, kFailed = 1, kBadInput = 2 };

int report(const onnxify::Diagnostic& d, int code) {
  std::fputs(d.render().c_str(), stderr);
  return code;
}

// Peak and current resident memory of this process, from /proc/self/status (kB).
void print_memory() {
  std::ifstream in("/proc/self/status");
  std::string line;
  while (std::getline(in, line))
    if (line.rfind("VmHWM:", 0) == 0 || line.rfind("VmRSS:", 0) == 0 || line.rfind("RssAnon:", 0) == 0 ||
        line.rfind("RssFile:", 0) == 0)
      std::fprintf(stderr, "onnxify-opt: %s\n", line.c_str());
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"onnxify-opt: parse IR text, verify, run passes, print IR or write ONNX"};
  std::string input, output, external_file, source_file, source_hash;
  std::vector<std::string> passes;
  bool verify = false, stats = false, list = false, allow_composite = false, no_locations = false;
  int opset = 17;
  uint64_t external_threshold = std::numeric_limits<uint64_t>::max();
  size_t fold_limit = onnxify::passes::PassOptions{}.fold_max_bytes;
  app.add_option("input", input, "IR text file")->check(CLI::ExistingFile);
  app.add_option("--pass,-p", passes, "passes to run, in order (comma-separated or repeated)")
      ->delimiter(',');
  app.add_flag("--verify", verify, "verify before the first pass and after each pass");
  app.add_option("-o,--output", output, "write ONNX here instead of printing the IR");
  app.add_option("--opset", opset, "default-domain ONNX opset (verification and writing)");
  app.add_option("--external-threshold", external_threshold,
                 "initializers of at least this many bytes go to the external data file");
  app.add_option("--external-file", external_file, "external data file name (default OUT.onnx.data)");
  app.add_option("--fold-limit", fold_limit, "largest constant fold may create, in bytes");
  app.add_flag("--allow-composite", allow_composite, "write onnxify-domain ops instead of refusing them");
  app.add_option("--source-file", source_file, "metadata: the Python source file the model came from");
  app.add_option("--source-hash", source_hash, "metadata: that file's hash");
  app.add_flag("--stats", stats, "report memory use and what the writer did on stderr");
  app.add_flag("--no-locations", no_locations, "print the IR without locations and module paths");
  app.add_flag("--list-passes", list, "list the registered passes and exit");
  bool lower = false, no_pipeline = false;
  onnxify::LowerOptions lo;
  std::string check_target;
  app.add_flag("--lower", lower,
               "lower composite ops for --target at --opset (then opset conversion, target check)");
  app.add_option("--target", lo.target, "target profile: onnxruntime, tensorrt, generic");
  app.add_option("--decompose", lo.decompose, "composite ops always decomposed (comma-separated)")
      ->delimiter(',');
  app.add_option("--keep", lo.keep, "composite ops kept as one coarse ONNX op (comma-separated)")
      ->delimiter(',');
  app.add_option("--trt-version", lo.trt_version, "TensorRT version for --target tensorrt (8.6, 10.15, ...)");
  app.add_flag("--no-pipeline", no_pipeline, "with --lower: skip the target's pass pipeline (fusions)");
  app.add_option("--check-target", check_target, "report every node the target would reject (at --opset)");
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    int rc = app.exit(e);
    return rc == 0 ? kOk : kBadInput;
  }
  if (list) {
    for (const auto& p : onnxify::passes::all_passes())
      std::printf("%-8.*s %.*s\n", static_cast<int>(p.name.size()), p.name.data(),
                  static_cast<int>(p.summary.size()), p.summary.data());
    return kOk;
  }
  if (input.empty()) {
    std::fputs("onnxify-opt: error: no input file\n", stderr);
    return kBadInput;
  }

  std::unique_ptr<onnxify::ir::Graph> graph;
  try {
    graph = onnxify::ir::parse(onnxify::SourceFile::load(input));
  } catch (const onnxify::Diagnostic& d) {
    return report(d, kBadInput);
  }

  onnxify::passes::PassOptions popts;
  popts.opset = opset;
  popts.fold_max_bytes = fold_limit;
  popts.verify_each = verify;
  if (verify && passes.empty()) {
    onnxify::ir::VerifyOptions vo;
    vo.opset = opset;
    onnxify::DiagnosticList errors = onnxify::ir::verify_all(*graph, vo);
    if (!errors.empty()) {
      std::fputs(errors.render().c_str(), stderr);
      return kFailed;
    }
  }
  if (onnxify::Status s = onnxify::passes::run_pipeline(*graph, passes, popts); !s)
    return report(s.diagnostic(), kFailed);
  if (lower) {
    lo.opset = opset;
    lo.run_pipeline = !no_pipeline;
    onnxify::DiagnosticList all;
    if (onnxify::Status s = onnxify::lower(*graph, lo, &all); !s) {
      std::fputs(all.empty() ? s.diagnostic().render().c_str() : all.render().c_str(), stderr);
      return kFailed;
    }
  }
  if (!check_target.empty()) {
    onnxify::LowerOptions co = lo;
    co.target = check_target;
    co.opset = opset;
    onnxify::DiagnosticList problems = onnxify::check_target(*graph, co);
    if (!problems.empty()) {
      std::fputs(problems.render().c_str(), stderr);
      return kFailed;
    }
  }

  if (output.empty()) {
    onnxify::ir::PrintOptions po;
    po.locations = !no_locations;
    std::fputs(onnxify::ir::print(*graph, po).c_str(), stdout);
  } else {
    onnxify::WriteOptions wo;
    wo.opset = opset;
    wo.external_threshold = external_threshold;
    wo.external_file = external_file;
    wo.allow_composite_ops = allow_composite;
    wo.source_file = source_file;
    wo.source_hash = source_hash;
    onnxify::WriteStats ws;
    if (onnxify::Status s = onnxify::write_onnx(*graph, output, wo, &ws); !s)
      return report(s.diagnostic(), kFailed);
    if (stats)
      std::fprintf(
          stderr,
          "onnxify-opt: wrote %llu bytes (%zu embedded tensors), external %llu bytes (%zu tensors)%s; "
          "%llu bytes copied file-to-file\n",
          static_cast<unsigned long long>(ws.model_bytes), ws.embedded_tensors,
          static_cast<unsigned long long>(ws.external_bytes), ws.external_tensors,
          ws.forced_external ? ", forced by the 2 GB limit" : "",
          static_cast<unsigned long long>(ws.kernel_copied_bytes));
  }
  if (stats) print_memory();
  return kOk;
}
