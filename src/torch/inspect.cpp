// inspect_model: the module tree with parameter shapes and counts (formatted by the prelude's
// torch._onnxify_inspect, which walks the model with the same Module API user code sees).
#include <fmt/core.h>

#include "torch/driver.h"

namespace onnxify::torch {

using eval::Value;

InspectResult inspect_model(const ExportOptions& o) {
  InspectResult r;
  Session s(o);
  run_inspect(s, o, false, r);
  return r;
}

void run_inspect(Session& s, const ExportOptions& o, bool imported, InspectResult& r) {
  try {
    if (!imported) s.import_source();
    s.build_model();
    eval::Interp& I = *s.I;
    std::vector<Value> params;
    for (const Session::Param& p : s.forward_params())
      params.push_back(I.str(p.var ? "*" + p.name : p.has_default ? p.name + "=..." : p.name));
    Value mod = I.loader().import_module("torch._onnxify_inspect", nullptr, 0, false, {});
    Value text;
    try {
      std::vector<Value> args{s.model, I.str(s.module_name), I.str(o.model_expr), eval::new_list(I, params)};
      text = eval::call(I, eval::getattr(I, mod, "describe"), eval::Args(args));
    } catch (eval::PyException& e) {
      throw s.failure(python_error(I, e.exc));
    }
    r.text = eval::str_string(I, text);
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
    r.failure = Failure::Convert;
    r.diagnostics = s.failure(python_error(*s.I, e.exc));
  }
}

}  // namespace onnxify::torch
