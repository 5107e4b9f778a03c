// onnxify weights FILE [--key KEY]: list a checkpoint's tensors (FILE may be a shard index or a model
// folder: weights::open_state_dict), one line each:
//   NAME DTYPE [D0,D1,...] CHECKSUM
// CHECKSUM is 16 hex digits, defined in README.md ("Checkpoint checksum"). Unreadable or refused
// input exits with status 2 and one line on stderr.
#include <fmt/format.h>

#include <cstdio>
#include <fstream>
#include <memory>
#include <string>

#include "cli/commands.h"
#include "weights/weights.h"

namespace onnxify::cli {

namespace {

struct WeightsOptions {
  std::string file;
  std::string key;
  bool no_checksum = false;
  bool stats = false;
  unsigned threads = 0;
};

// Peak and current memory from /proc/self/status: the anonymous part is what onnxify itself
// allocated, the file part is the checkpoint's pages mapped into the process.
void print_stats() {
  std::ifstream status("/proc/self/status");
  std::string line, out;
  while (std::getline(status, line)) {
    for (const char* field : {"VmHWM:", "VmRSS:", "RssAnon:", "RssFile:"})
      if (line.rfind(field, 0) == 0) {
        std::string value = line.substr(std::string(field).size());
        value.erase(0, value.find_first_not_of(" \t"));
        out += fmt::format(" {} {}", std::string(field, std::string(field).size() - 1), value);
      }
  }
  fmt::print(stderr, "onnxify: memory:{}\n", out);
}

int run(const WeightsOptions& o) {
  try {
    weights::StateDict sd = weights::open_state_dict(o.file, o.key);
    std::vector<uint64_t> sums;
    if (!o.no_checksum) sums = weights::checksums(sd.tensors, o.threads);
    fmt::memory_buffer buf;
    for (size_t i = 0; i < sd.tensors.size(); ++i) {
      const weights::Tensor& t = sd.tensors[i].tensor;
      fmt::format_to(std::back_inserter(buf), "{} {} [", sd.tensors[i].name, weights::name(t.dtype));
      for (size_t d = 0; d < t.shape.size(); ++d)
        fmt::format_to(std::back_inserter(buf), "{}{}", d ? "," : "", t.shape[d]);
      if (o.no_checksum)
        fmt::format_to(std::back_inserter(buf), "]\n");
      else
        fmt::format_to(std::back_inserter(buf), "] {:016x}\n", sums[i]);
      if (buf.size() > (1 << 16)) {
        std::fwrite(buf.data(), 1, buf.size(), stdout);
        buf.clear();
      }
    }
    std::fwrite(buf.data(), 1, buf.size(), stdout);
    std::fflush(stdout);
    if (o.stats) print_stats();
    return kOk;
  } catch (const Diagnostic& d) {
    return report(d, kBadInput);
  }
}

}  // namespace

Action setup_weights(CLI::App& sub) {
  auto o = std::make_shared<WeightsOptions>();
  sub.add_option("FILE", o->file, "checkpoint: torch.save zip or legacy file, .safetensors, a shard index (*.index.json) or a "
                 "Hugging Face model folder")->required();
  sub.add_option(
      "--key", o->key,
      "dotted path of the dict to list (state_dict, model.ema, …); default: the one dict of tensors");
  sub.add_flag("--no-checksum", o->no_checksum, "list names, dtypes and shapes only (reads no tensor data)");
  sub.add_option("--threads", o->threads, "threads for checksums (default: all cores)");
  sub.add_flag("--stats", o->stats, "print peak memory (anonymous and file-backed) to stderr");
  return [o] { return run(*o); };
}

}  // namespace onnxify::cli
