// libFuzzer target: runs the input as a Python module in a fresh interpreter with small budgets.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

#include "eval/eval.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace onnxify;
  eval::Options o;
  o.budgets.max_steps = 20000;
  o.budgets.max_depth = 200;
  o.budgets.max_memory = 32u << 20;
  try {
    eval::Interp I(o);
    auto src = std::make_shared<SourceFile>("<fuzz>", std::string(reinterpret_cast<const char*>(data), size));
    std::unique_ptr<eval::CodeUnit> unit = eval::compile_module(I, src, "__main__");
    eval::Ref<eval::Dict> g = eval::new_dict_ref(I);
    eval::dict_set(I, g.get(), "__name__", I.str("__main__"));
    try {
      eval::exec_module_code(I, unit->module, g.get());
    } catch (eval::PyException&) {
      // An uncaught Python exception is an ordinary outcome.
    }
    I.keep(std::move(unit));
  } catch (const Diagnostic&) {
  } catch (const DiagnosticList&) {
  }
  return 0;
}
