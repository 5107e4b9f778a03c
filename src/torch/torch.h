// Public header of src/torch: the torch API for the evaluator (a Python prelude plus the native core
// and op table) and the export driver behind `onnxify export` and `onnxify inspect`.
//
//   eval::Interp I;
//   auto torch = torch::install(I);          // `import torch` now works in I; tensors record into a graph
//
//   torch::ExportOptions o{...};
//   torch::ExportResult r = torch::export_model(o);   // never throws for bad input; see r.failure
//
// See src/torch/README.md for the architecture, "how to add an op" and "how to add an nn module".
#pragma once

#include <functional>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "eval/eval.h"
#include "ir/graph.h"
#include "support/diagnostic.h"

namespace onnxify::torch {

class Torch;

// Registers the prelude (package `torch`, small stand-ins such as `PIL`) and the native module
// `torch._C` with `I`, and makes this thread's tensors record into a new graph. The returned state
// must outlive every use of I's torch objects.
std::unique_ptr<Torch> install(eval::Interp& I);
// The graph recorded so far (owned by the state).
ir::Graph& recorded_graph(Torch& T);

struct ExportOptions {
  std::string source;                                       // SOURCE.py
  std::string module;  // -m MODULE: an importable module (found on --path / the Python's packages) instead of SOURCE
  std::string model_expr;                                   // --model EXPR
  std::vector<std::pair<std::string, std::string>> inputs;  // --input NAME=SPEC, in order
  // --dim NAME=LO..: the least value a symbolic input dim takes (0.., 1.., 2.., ...). Undeclared
  // dims are assumed at least 2 where a decision needs it, with a warning at each such decision.
  std::vector<std::string> dims;
  std::string weights;                                      // --weights FILE ("" = random weights)
  std::string weights_key;                                  // --weights-key KEY
  std::string dtype;                                        // --dtype D: model.to(D) before binding ("" = as built)
  std::string output;                                       // -o OUT.onnx ("" = SOURCE stem + .onnx)
  std::vector<std::string> paths;                           // --path DIR...
  std::vector<std::string> env_paths;  // the user's Python's sys.path (--python): its stdlib and packages, searched last
  int opset = 17;
  std::string target = "onnxruntime";
  std::vector<std::string> decompose, keep;
  std::string trt_version = "10.15";
  bool write = true;  // false: stop after lowering (inspect, tests)
  int64_t max_unroll = 10000;  // --max-unroll: iterations a Python loop in forward may be unrolled to (a
                               // model with thousands of layers loops over them: Keras, NASNetLarge)
  std::string emit_ir;        // --emit-ir FILE: the graph after passes and lowering, in the IR text form
  // --framework: "tensorflow" evaluates the model on onnxify's tensorflow module; "auto" does when the
  // model's own file imports tensorflow. torch and keras need nothing (Keras runs on its torch backend).
  std::string framework = "auto";
  // --layout: the file's 4-d/5-d inputs and outputs channels-first or channels-last ("model": as the
  // model's code takes them: channels-last for Keras and TensorFlow models, channels-first for PyTorch).
  std::string layout = "model";
  bool cache = true;  // --no-cache: false = compile every module's source (no compiled-module cache)
  // Told the phase that starts ("binding weights from x.pth"), and while the file is written the
  // fraction of tensor bytes written (else -1): drives the progress line (support/progress.h).
  std::function<void(const std::string& phase, double fraction)> progress;
};

enum class Failure { None, BadInput, Convert };

struct ExportResult {
  Failure failure = Failure::None;
  DiagnosticList diagnostics;        // errors (and warnings), in the one format
  std::vector<Diagnostic> warnings;  // printed even on success (random weights, hooks, ...)
  std::string output_path;
  size_t num_nodes = 0;
  std::vector<std::string> input_names, output_names;
  // KeptModules: whether the export started from modules an earlier export imported.
  bool reused_modules = false;
  // What the export built (the interpreter's heap of Python objects, the graph). Destroying it
  // takes a tenth of an export of a large model; a one-shot process may keep it until exit
  // (src/cli does) and let the OS reclaim the memory, as compilers do.
  std::shared_ptr<void> retained;
};

ExportResult export_model(const ExportOptions& options);

// `onnxify inspect`: the model's module tree with parameter shapes and counts, the forward
// signature and the --input flags it needs. Text on success; diagnostics otherwise.
struct InspectResult {
  Failure failure = Failure::None;
  DiagnosticList diagnostics;
  std::string text;
};
InspectResult inspect_model(const ExportOptions& options);

// Exports that keep the imported modules between calls (the Python API; DESIGN.md decision 19).
// The first export of a SOURCE imports it, and the modules it imports, into an interpreter that is
// kept; every export then runs in a child process forked from that interpreter, so the model's
// construction and forward see the modules as a fresh import leaves them and nothing an export
// does reaches the next. The modules an export imported while building its model are imported
// into the kept interpreter before the next export, in the order it imported them. The kept state
// is dropped, and imported again, when SOURCE, the import roots, the cache setting, the working
// directory or the budgets differ, or when any file or folder the imports looked at changed
// (eval/file_stamps.h). A kept interpreter lives on a thread of its own (the evaluator's state is
// per thread); calls may come from any thread, one at a time.
class KeptModules {
 public:
  KeptModules();
  ~KeptModules();
  KeptModules(const KeptModules&) = delete;
  KeptModules& operator=(const KeptModules&) = delete;

  // As export_model; `progress` draws the progress line (support/progress.h) in whichever process
  // does the work. Falls back to export_model in this process when the kept interpreter cannot be
  // made (SOURCE fails to import: the fresh export reports it as usual) or a child cannot be
  // started.
  // `cancel_fd` (>= 0): a descriptor that becomes readable when whoever asked is gone (the export
  // server's client connection): the child is then stopped and the export fails.
  ExportResult export_model(const ExportOptions& options, bool progress, int cancel_fd = -1);
  // As inspect_model, from the same kept modules.
  InspectResult inspect_model(const ExportOptions& options, int cancel_fd = -1);
  // Frees the kept interpreter (the next export imports again).
  void clear();
  // The peak RSS (KiB) of the last export's child process (0 before any).
  long last_child_peak_kib() const { return last_child_peak_kib_; }
  // True in a child that KeptModules itself forked (for pthread_atfork handlers: a fork by anyone
  // else leaves a child without this object's thread, which must then not be used).
  static bool in_own_fork();

 private:
  struct State;
  class Worker;
  enum class Prepared { kFresh, kReused, kRetry, kFailed };
  // A job run in a child forked from the kept interpreter: its bytes, or why there are none.
  struct ChildRun {
    bool forked = false, cancelled = false;
    int status = 0;
    std::string bytes;
    const std::string& result() const;            // the bytes; throws when the child did not finish
    Diagnostic failure(const char* what) const;  // an error saying how it ended
  };
  ChildRun run_child(const std::function<std::string()>& job, int cancel_fd);  // on the worker
  // On the worker: the state made (SOURCE imported) or brought up to date (modules imported ahead).
  Prepared prepare(const ExportOptions& o, bool progress, const std::string& key);
  // The kept state made ready for `o` (mu_ held): dropped when stale, prepared, retried once.
  Prepared ready(const ExportOptions& o, bool progress);
  ExportResult export_here(const ExportOptions& o, bool progress);  // no kept state: export_model
  void drop();  // clear() with mu_ held
  std::mutex mu_;
  std::unique_ptr<Worker> worker_;  // the kept interpreter's thread
  std::unique_ptr<State> state_;    // made, used and freed on worker_
  std::set<std::string> skip_;      // modules that failed to import ahead: not tried again
  long last_child_peak_kib_ = 0;
};


}  // namespace onnxify::torch
