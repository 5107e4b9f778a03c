// export_model: SOURCE + --model + checkpoint -> graph -> passes -> lower -> ONNX file.
#include <fmt/core.h>

#include <chrono>
#include <ctime>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <set>
#include <sstream>

#include "onnx/onnx.h"
#include "eval/containers.h"
#include "eval/profile.h"
#include "passes/passes.h"
#include "torch/control_flow.h"
#include "ir/verifier.h"
#include "torch/driver.h"
#include "torch/ops.h"

namespace onnxify::torch {

using eval::Value;
using ir::DimExpr;

namespace {

// Phase timings on stderr when ONNXIFY_TIMES is set (for profiling and bench/export).
class Timer {
 public:
  Timer() : on_(std::getenv("ONNXIFY_TIMES") != nullptr), last_(std::chrono::steady_clock::now()), last_cpu_(cpu()) {}
  // Wall and CPU milliseconds since the last lap (wall alone misleads on a loaded machine).
  void lap(const char* what) {
    if (!on_) return;
    auto now = std::chrono::steady_clock::now();
    double now_cpu = cpu();
    std::fprintf(stderr, "onnxify: %-22s %8.1f ms wall %8.1f ms cpu\n", what,
                 std::chrono::duration<double, std::milli>(now - last_).count(), now_cpu - last_cpu_);
    last_ = now;
    last_cpu_ = now_cpu;
  }

 private:
  static double cpu() {
    timespec t{};
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return static_cast<double>(t.tv_sec) * 1e3 + static_cast<double>(t.tv_nsec) / 1e6;
  }
  bool on_;
  std::chrono::steady_clock::time_point last_;
  double last_cpu_;
};

// forward's return value flattened to graph outputs: tuples and lists in order, dict values in
// insertion order named by their keys.
struct Output {
  std::string name;
  Value value;
};

void flatten(eval::Interp& I, const Value& v, const std::string& name, std::vector<Output>& out) {
  if (eval::is_list(v) && holds_scan_output(v)) {  // a list built in a Loop: one ONNX sequence output
    out.push_back({name, v});
    return;
  }
  if (eval::is_tuple(v) || eval::is_list(v)) {
    std::vector<Value> items = eval::to_vector(I, v);
    for (size_t i = 0; i < items.size(); ++i)
      flatten(I, items[i], name.empty() ? "" : fmt::format("{}_{}", name, i), out);
    return;
  }
  if (!is_tensor(v) && v.is_obj()) {
    // A numpy array made from a tensor in forward (`loss.detach().numpy()`, onnxify's numpy keeps
    // the tensor): the tensor is the output, as the array's values are the eager result.
    if (eval::type_lookup(I.type_of(v), I.intern("_onnxify_tensor"))) {
      flatten(I, eval::call(I, eval::getattr(I, v, "_onnxify_tensor"), eval::Args()), name, out);
      return;
    }
  }
  if (eval::is_dict(v)) {
    for (const eval::DictEntry& e : eval::as_dict(v)->entries) {
      if (e.key.is_null()) continue;
      std::string key = eval::is_str(e.key) ? eval::as_str(e.key)->s : eval::repr_string(I, e.key);
      flatten(I, e.value, name.empty() ? key : name + "_" + key, out);
    }
    return;
  }
  out.push_back({name, v});
}

// The value of one output (a tensor, or a Python number/size as a constant).
ir::Value* output_value(Session& s, const Output& o, size_t index) {
  Torch& T = *s.T;
  if (is_tensor(o.value) && as_tensor(o.value)->present) {
    auto where = T.present_where.find(as_tensor(o.value)->present);
    throw Diagnostic::error(fmt::format("forward returns a value that is None on some runs as output {}{}: None "
                                        "in one branch of this tensor-dependent condition, a tensor in the other; "
                                        "an ONNX output is always a tensor",
                                        index, o.name.empty() ? "" : fmt::format(" ('{}')", o.name)),
                            where != T.present_where.end() ? where->second : SourceRange())
        .with_help("return a tensor on every path (an empty one, or zeros with a flag output saying which)");
  }
  if (is_tensor(o.value)) return value_of(T, as_tensor(o.value));
  if (eval::is_list(o.value) && holds_scan_output(o.value)) return sequence_output(T, o.value);
  if (is_symint(o.value)) return T.rec.dim_scalar(eval::as<SymIntObj>(o.value)->expr);
  int64_t i;
  double d;
  if (o.value.is_bool()) return T.rec.const_scalar(ir::ElementType::Bool, o.value.b());
  if (eval::int_value(o.value, &i)) return T.rec.const_i64_scalar(i);
  if (eval::float_value(o.value, &d)) return T.rec.const_scalar(ir::ElementType::Float32, d);
  if (eval::is_poison(o.value)) {
    poison_reached_op(T, o.value, "what forward() returns");
    return nullptr;
  }
  throw Diagnostic::error(fmt::format("forward returned a {} as output {}; outputs must be tensors (or tuples, lists "
                                      "and dicts of them)",
                                      eval::type_name(*s.I, o.value), index));
}

// Checks the --input names against forward's parameters (before anything is bound).
void check_inputs(Session& s, const std::vector<InputSpec>& specs) {
  std::vector<Session::Param> params = s.forward_params();
  bool has_varkw = false;
  for (const auto& p : params) has_varkw |= p.var;
  std::set<std::string> given;
  for (const InputSpec& in : specs) {
    bool known = has_varkw;
    for (const auto& p : params) known |= !p.var && p.name == in.name;
    if (!known) {
      std::vector<std::string> names;
      for (const auto& p : params) names.push_back(p.name);
      std::string near = closest_spelling(in.name, names);
      std::string list;
      for (const auto& n : names) list += (list.empty() ? "" : ", ") + n;
      throw BadInput{Diagnostic::error(fmt::format("--input {}: {}.forward() has no parameter '{}' (its parameters: {})",
                                                   in.name, s.model_class, in.name, list.empty() ? "none" : list))
                         .with_help(near.empty() ? "" : fmt::format("did you mean '{}'?", near))};
    }
    if (!given.insert(in.name).second)
      throw BadInput{Diagnostic::error(fmt::format("--input {} is given twice", in.name))};
  }
  for (const auto& p : params)
    if (!p.var && !p.has_default && !given.count(p.name))
      throw BadInput{Diagnostic::error(fmt::format("{}.forward() needs '{}': pass --input {}=SPEC", s.model_class, p.name,
                                                   p.name))
                         .with_help("SPEC is a tensor type like float32[N,3,224,224] or a Python literal")};
}

// The value of a literal --input SPEC (3, True, None, (1, 2)), evaluated with the builtins only. What
// does not evaluate (a syntax error, a name like torch) is a bad command line.
Value literal_value(eval::Interp& I, const InputSpec& in) {
  const std::string help =
      "SPEC is a tensor type like float32[N,3,224,224] (names are symbolic sizes, integers static) or a Python "
      "literal like 3, True or None";
  auto bad = [&](const std::string& why) {
    return BadInput{Diagnostic::error(fmt::format("--input {}={}: {}", in.name, in.literal, why)).with_help(help)};
  };
  std::unique_ptr<eval::CodeUnit> unit;
  try {
    unit = eval::compile_expression(I, std::make_shared<SourceFile>("--input " + in.name, in.literal),
                                    "__onnxify_input__");
  } catch (const Diagnostic&) {
    // (The parser's own words would quote the wrapper compile_expression adds.)
    throw bad("neither a tensor type nor a Python literal (not valid Python)");
  }
  eval::Ref<eval::Dict> ns = eval::new_dict_ref(I);
  eval::dict_set(I, ns.get(), "__builtins__", I.builtins_module.value());
  try {
    eval::exec_module_code(I, unit->module, ns.get());
  } catch (eval::PyException& e) {
    std::string type(I.type_of(e.exc)->name_view());
    std::string text = eval::str_string(I, e.exc);
    throw bad(fmt::format("neither a tensor type nor a Python literal ({})", text.empty() ? type : type + ": " + text));
  }
  I.keep(std::move(unit));
  return eval::dict_get(I, ns.get(), "__result__");
}

// Makes the graph inputs and the keyword arguments of the forward call.
std::vector<std::pair<std::string, Value>> make_inputs(Session& s, const std::vector<InputSpec>& specs) {
  eval::Interp& I = *s.I;
  Torch& T = *s.T;
  std::vector<Session::Param> params = s.forward_params();
  std::vector<std::pair<std::string, Value>> kwargs;
  // Graph inputs follow forward's parameter order (then **kwargs names in flag order).
  // A tensor spec is a graph input named by its path below the parameter (past.0.1 in a tuple).
  std::function<Value(const InputSpec&, const std::string&)> build = [&](const InputSpec& in, const std::string& path) {
    if (in.seq) {
      std::vector<Value> items;
      for (size_t k = 0; k < in.items.size(); ++k) items.push_back(build(in.items[k], fmt::format("{}.{}", path, k)));
      return in.seq == '(' ? eval::new_tuple(I, std::move(items)) : eval::new_list(I, std::move(items));
    }
    if (!in.is_tensor) return literal_value(I, in);
    ir::Value* v = T.rec.main().add_input(ir::Type::tensor(in.elem, in.dims), path);
    for (size_t i = 0; i < in.dims.size(); ++i)
      if (in.dims[i].is_symbol() && !T.rec.has_symbol_source(std::string(in.dims[i].name())))
        T.rec.add_symbol_source(std::string(in.dims[i].name()), v, static_cast<int64_t>(i));
    return new_tensor(T, v, *dtype_from_elem(in.elem), in.dims);
  };
  auto make_one = [&](const InputSpec& in) { kwargs.emplace_back(in.name, build(in, in.name)); };
  for (const auto& p : params)
    for (const InputSpec& in : specs)
      if (!p.var && in.name == p.name) make_one(in);
  for (const InputSpec& in : specs) {
    bool done = false;
    for (const auto& p : params) done |= !p.var && p.name == in.name;
    if (!done) make_one(in);
  }
  return kwargs;
}

Value call_forward(Session& s, const std::vector<std::pair<std::string, Value>>& kwargs) {
  eval::Interp& I = *s.I;
  std::vector<eval::Str*> names;
  std::vector<Value> vals;
  for (const auto& [n, v] : kwargs) names.push_back(I.intern(n)), vals.push_back(v);
  eval::Args a;
  a.nkw = static_cast<uint32_t>(vals.size());
  a.kwnames = names.data();
  a.kwvals = vals.data();
  return eval::call(I, s.model, a);
}

void set_outputs(Session& s, const Value& result) {
  std::vector<Output> outs;
  flatten(*s.I, result, "", outs);
  ir::Graph& g = s.T->rec.main();
  std::set<const ir::Value*> used;
  std::set<std::string> names;
  for (size_t i = 0; i < outs.size(); ++i) {
    if (outs[i].value.is_none()) continue;
    ir::Value* v = output_value(s, outs[i], i);
    if (!v) continue;
    // A graph output of its own (inputs, constants and repeated outputs get an Identity).
    if (v->producer() == nullptr || used.count(v)) {
      ir::Node* n = g.append("Identity", {v});
      n->output(0)->set_type(v->type());
      v = n->output(0);
    }
    used.insert(v);
    std::string name = outs[i].name.empty() ? (outs.size() == 1 ? "output" : fmt::format("output_{}", i)) : outs[i].name;
    while (names.count(name)) name += "_";
    names.insert(name);
    v->set_name(name);
    g.add_output(v);
  }
  if (g.num_outputs() == 0 && s.T->problems.empty())
    throw Diagnostic::error(fmt::format("{}.forward() returned no tensor", s.model_class));
}

LowerOptions lower_options(const ExportOptions& o) {
  LowerOptions lo;
  lo.target = o.target;
  lo.opset = o.opset;
  lo.decompose = o.decompose;
  lo.keep = o.keep;
  lo.trt_version = o.trt_version;
  return lo;
}

std::string default_output(const std::string& source) {
  std::string stem = source.substr(source.rfind('/') + 1);
  stem = stem.substr(0, stem.rfind('.'));
  return (stem.empty() ? "model" : stem) + ".onnx";
}

// --dim NAME=LO..: each NAME a symbolic dim of some --input, LO its least value.
std::map<std::string, int64_t> parse_dims(const std::vector<std::string>& raw, const std::vector<InputSpec>& specs) {
  std::set<std::string> symbols;
  std::function<void(const InputSpec&)> collect = [&](const InputSpec& in) {
    for (const ir::DimExpr& d : in.dims)
      for (const std::string& s : d.symbols()) symbols.insert(s);
    for (const InputSpec& item : in.items) collect(item);
  };
  for (const InputSpec& in : specs) collect(in);
  std::map<std::string, int64_t> out;
  for (const std::string& r : raw) {
    size_t eq = r.find('=');
    std::string name = eq == std::string::npos ? r : r.substr(0, eq);
    std::string range = eq == std::string::npos ? "" : r.substr(eq + 1);
    bool ok = range.size() > 2 && range.compare(range.size() - 2, 2, "..") == 0 &&
              range.find_first_not_of("0123456789") == range.size() - 2 && range.size() <= 20;
    if (!ok)
      throw BadInput{Diagnostic::error(fmt::format("--dim '{}': expected NAME=LO.., e.g. --dim N=1..", r))
                         .with_help("LO is the least value the symbolic dim takes: 0.., 1.. or 2..")};
    if (!symbols.count(name))
      throw BadInput{Diagnostic::error(fmt::format("--dim '{}': no --input has a symbolic dim '{}'", r, name))};
    out[name] = std::stoll(range.substr(0, range.size() - 2));
  }
  return out;
}

}  // namespace

bool plan_export(const ExportOptions& o, ExportPlan* plan, ExportResult* result) {
  ExportResult& r = *result;
  r.output_path = o.output.empty() ? default_output(o.module.empty() ? o.source : o.module + ".py") : o.output;
  std::vector<InputSpec>& specs = plan->specs;
  try {
    for (const auto& [n, spec] : o.inputs) specs.push_back(parse_input_spec(n, spec));
    plan->declared = parse_dims(o.dims, specs);
    if (o.opset < kMinOpset || o.opset > kMaxOpset)
      throw BadInput{Diagnostic::error(fmt::format("--opset {} is not supported (onnxify writes opsets {} to {})", o.opset,
                                                   kMinOpset, kMaxOpset))};
    // --target, --trt-version, --keep/--decompose and the target's opsets: checked before the
    // model is converted, as a bad command line.
    if (Status st = check_lower_options(lower_options(o)); !st) throw BadInput{st.diagnostic()};
    if (!o.dtype.empty() && !is_model_dtype(o.dtype))
      throw BadInput{Diagnostic::error(fmt::format("--dtype '{}' is not a floating-point dtype", o.dtype))
                         .with_help("use float32, float16, bfloat16 or float64")};
  } catch (BadInput& b) {
    r.failure = Failure::BadInput;
    r.diagnostics.add(b.diagnostic);
    return false;
  }
  return true;
}

void run_export(const std::shared_ptr<Session>& session, const ExportOptions& o, const ExportPlan& plan, bool imported,
                ExportResult& r) {
  const std::vector<InputSpec>& specs = plan.specs;
  auto phase = [&o](const std::string& what) {
    if (o.progress) o.progress(what, -1);
  };
  Timer timer;
  Session& s = *session;
  // ONNXIFY_PROFILE=N: where the evaluated Python code spent the export's time, reported when
  // this returns (eval/profile.h).
  std::unique_ptr<eval::PyProfiler> profiler = eval::PyProfiler::from_env(*s.I);
  try {
    if (!imported) s.import_source();
    s.build_model();
    timer.lap(imported ? "build model" : "import + build model");
    check_inputs(s, specs);
    if (!o.dtype.empty()) convert_model_dtype(s, o.dtype);
    phase(o.weights.empty() ? "making random weights" : fmt::format("binding weights from {}", o.weights));
    bind_weights(s);
    timer.lap("bind weights");
    std::vector<std::pair<std::string, Value>> kwargs = make_inputs(s, specs);
    if (s.note_modules)
      for (const eval::DictEntry& e : s.I->modules->entries)
        // Modules that imported (one that failed is unknown, and importing it ahead would only fail again).
        if (!e.key.is_null() && eval::is_str(e.key) && !eval::is_poison(e.value))
          s.modules_at_forward.push_back(eval::as_str(e.key)->s);
    phase("recording forward()");
    Value result;
    try {
      s.I->max_unroll = o.max_unroll;
      s.T->building = false;  // random tensors from here on are reported where they are used
      s.T->declared_min = plan.declared;
      s.T->out_opset = o.opset;
      result = call_forward(s, kwargs);
      s.I->max_unroll = 0;
      timer.lap("record forward");
    } catch (eval::PyException& e) {
      throw s.failure(python_error(*s.I, e.exc));
    }
    set_outputs(s, result);
    apply_layout(s, s.T->rec.main(), o.layout);
    if (!s.T->problems.empty()) throw DiagnosticList(s.T->problems);
  } catch (BadInput& b) {
    r.failure = Failure::BadInput;
    r.diagnostics.add(b.diagnostic);
  } catch (DiagnosticList& l) {
    r.failure = Failure::Convert;
    r.diagnostics = l;
  } catch (const Diagnostic& d) {
    r.failure = Failure::Convert;
    r.diagnostics = s.failure(d);
  } catch (eval::PyException& e) {
    // A Python exception outside forward (the model's forward signature, the value it returned).
    r.failure = Failure::Convert;
    r.diagnostics = s.failure(python_error(*s.I, e.exc));
  }
  // Once each: code recorded again (an If's arm run a second time for the branch kept under an
  // assumption, a Loop body's attempts) repeats its warnings.
  std::set<std::string> seen;
  for (const Diagnostic& w : s.T->warnings)
    if (seen.insert(w.render()).second) r.warnings.push_back(w);
  if (r.failure != Failure::None) return;

  ir::Graph& g = s.T->rec.main();
  g.set_name(s.model_class);
  for (size_t i = 0; i < g.num_inputs(); ++i) r.input_names.push_back(g.input(i)->name());
  for (ir::Value* v : g.outputs()) r.output_names.push_back(v->name());
  if (std::getenv("ONNXIFY_DEBUG_IR")) std::fputs(ir::print(g).c_str(), stderr);
  phase("optimizing the graph");
  {
    // A recorded graph that is not well formed is onnxify's bug: say so here, where the first bad node
    // still has its Python location, rather than let a pass walk dangling values.
    ir::VerifyOptions vo;
    vo.structure_only = true;
    if (Status v = ir::verify(g, vo); !v) {
      Diagnostic d = v.diagnostic();
      d.with_help("internal error: the recorded graph is invalid (please report it with this model)");
      r.failure = Failure::Convert;
      r.diagnostics.add(std::move(d));
      return;
    }
  }
  passes::PassOptions po;
  Status st = passes::run_pipeline(g, passes::default_pipeline(), po);
  if (!st) {
    r.failure = Failure::Convert;
    r.diagnostics.add(st.diagnostic());
    return;
  }
  timer.lap("passes");
  phase(fmt::format("lowering for {} at opset {}", o.target, o.opset));
  DiagnosticList all;
  st = lower(g, lower_options(o), &all);
  if (!st) {
    r.failure = Failure::Convert;
    r.diagnostics = all.empty() ? DiagnosticList() : all;
    if (all.empty()) r.diagnostics.add(st.diagnostic());
    return;
  }
  timer.lap("lower");
  r.num_nodes = g.num_nodes();
  if (!o.emit_ir.empty()) {
    ir::PrintOptions po_text;
    po_text.locations = false;
    std::ofstream ir_out(o.emit_ir, std::ios::binary);
    ir_out << ir::print(g, po_text);
    if (!ir_out) {
      r.failure = Failure::BadInput;
      r.diagnostics.add(Diagnostic::error(fmt::format("--emit-ir: cannot write '{}'", o.emit_ir)));
      return;
    }
  }
  if (!o.write) return;
  WriteOptions wo;
  wo.opset = o.opset;
  wo.source_file = s.source_path;
  std::ifstream f(s.source_path, std::ios::binary);
  std::stringstream text;
  text << f.rdbuf();
  wo.source_hash = source_hash(text.str());
  wo.metadata.emplace_back("model", o.model_expr);
  if (o.progress) {
    std::string writing = fmt::format("writing {}", r.output_path);
    wo.progress = [&o, writing](uint64_t done, uint64_t total) {
      o.progress(writing, total ? static_cast<double>(done) / static_cast<double>(total) : 1.0);
    };
    phase(writing);
  }
  st = write_onnx(g, r.output_path, wo);
  timer.lap("write");
  s.I->flush();  // what the model's code printed, before the session may outlive this call
  r.retained = session;
  if (!st) {
    r.failure = Failure::Convert;
    r.diagnostics.add(st.diagnostic());
  }
  return;
}

ExportResult export_model(const ExportOptions& o) {
  ExportResult r;
  ExportPlan plan;
  if (!plan_export(o, &plan, &r)) return r;
  if (o.progress) o.progress(fmt::format("importing {}", o.source), -1);
  run_export(std::make_shared<Session>(o), o, plan, false, r);
  return r;
}

}  // namespace onnxify::torch
