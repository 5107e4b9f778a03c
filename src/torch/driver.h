// The export driver's pieces (internal to src/torch): a Session evaluates SOURCE and --model in a
// fresh interpreter; weights are bound to its parameters; --input specs become graph inputs.
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "torch/core.h"
#include "torch/torch.h"

namespace onnxify::torch {

// An error of the user's input (exit status 2): a missing file, a bad --input spec, an unknown name
// in --model. Everything else that fails is a conversion error (exit status 1).
struct BadInput {
  Diagnostic diagnostic;
};

class Session {
 public:
  explicit Session(const ExportOptions& o);
  ~Session();

  // Imports SOURCE (as its dotted module name when under a --path root, its packages first),
  // evaluates --model in its namespace, calls .eval() and names the modules for the recorder.
  // Throws BadInput or Diagnostic.
  void load_model();
  // Its two halves: SOURCE (or -m MODULE) imported, which a kept session has done already
  // (warm.cpp); then --model evaluated.
  void import_source();
  void build_model();

  // forward's parameter names (after self) and which of them have defaults.
  struct Param {
    std::string name;
    bool has_default = false;
    bool var = false;  // *args / **kwargs
  };
  std::vector<Param> forward_params();

  // Python exception -> Diagnostic, with the problems found so far as the first diagnostics.
  DiagnosticList failure(const Diagnostic& last);

  ExportOptions opts;  // a copy: a kept session outlives the call that made it
  std::unique_ptr<eval::Interp> I;
  std::unique_ptr<Torch> T;
  std::string module_name;
  std::string source_path;  // SOURCE, or the file -m MODULE was read from (metadata)
  eval::Value module;
  eval::Value model;
  std::string model_class;
  // When set, the names in sys.modules when forward's recording began, in import order, go into
  // modules_at_forward (KeptModules imports those modules ahead for the next export), but for
  // modules whose import failed (unknown values).
  bool note_modules = false;
  std::vector<std::string> modules_at_forward;
};

// Binds the checkpoint (or deterministic random values) to the model's state_dict entries. Throws
// BadInput (unreadable checkpoint) or Diagnostic (keys or shapes do not match).
void bind_weights(Session& s);
// --dtype: converts the model's floating-point parameters and buffers as model.to(dtype) does,
// before the weights are bound (so a checkpoint in that dtype keeps its bytes).
void convert_model_dtype(Session& s, const std::string& dtype);
// The dtype names --dtype accepts (torch's floating dtypes).
bool is_model_dtype(const std::string& dtype);

// One --input SPEC: a tensor type (`float32[N,3,224,224]`), a Python literal, or a tuple or list of
// specs holding tensor types (`((float32[B,4,P,8], float32[B,4,P,8]),) * 2`, a KV cache): each tensor
// in it is a graph input named by its path (`past.0.1`).
struct InputSpec {
  std::string name;
  bool is_tensor = false;
  ir::ElementType elem = ir::ElementType::Float32;
  std::vector<ir::DimExpr> dims;
  std::string literal;  // when !is_tensor and !seq
  char seq = 0;         // '(' a tuple, '[' a list of `items`
  std::vector<InputSpec> items;
};
// Parses NAME=SPEC; throws BadInput naming the flag.
InputSpec parse_input_spec(const std::string& name, const std::string& spec);

// What export_model checks of the options before any code runs: the --input specs and --dim ranges.
struct ExportPlan {
  std::vector<InputSpec> specs;
  std::map<std::string, int64_t> declared;
};
// Fills `plan`, or `result` with the bad command line and gives false.
bool plan_export(const ExportOptions& o, ExportPlan* plan, ExportResult* result);
// The export in `session`, from importing SOURCE (skipped when `imported`: a kept session did it)
// to the written file; failures go into `r`.
void run_export(const std::shared_ptr<Session>& session, const ExportOptions& o, const ExportPlan& plan, bool imported,
                ExportResult& r);
// inspect_model's work in `session` (SOURCE's import skipped when `imported`).
void run_inspect(Session& session, const ExportOptions& o, bool imported, InspectResult& r);

// An uncaught Python exception as a diagnostic at the user's code: frames of the embedded prelude
// are onnxify's, so an exception raised there is reported at the innermost user frame.
Diagnostic python_error(eval::Interp& I, const eval::Value& exc);
// --layout (layout.cpp): Transposes between the file's image layout ("channels-first",
// "channels-last"; "model" or "" = as the model takes them) and the model's, at 4-d/5-d graph inputs
// and outputs.
void apply_layout(Session& s, ir::Graph& g, const std::string& layout);

// A stable hash of the source text for the model's metadata ("fnv1a64:<16 hex digits>").
std::string source_hash(const std::string& text);

}  // namespace onnxify::torch
