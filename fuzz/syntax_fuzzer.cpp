// libFuzzer target for src/syntax: any bytes must give a tree or a Diagnostic, never a crash, a
// sanitizer report or a hang. The tree is dumped (with positions) and the diagnostic rendered, so
// the printer and the diagnostic code run on whatever the parser produced.
#include <cstdint>
#include <string>

#include "syntax/syntax.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace onnxify;
  auto file = std::make_shared<SourceFile>("fuzz.py", std::string(reinterpret_cast<const char*>(data), size));
  for (syntax::Mode mode : {syntax::Mode::Exec, syntax::Mode::Eval}) {
    try {
      syntax::ParsedModule m = syntax::parse(file, mode);
      std::string out;
      syntax::dump(m.root(), out, {.include_attributes = true});
    } catch (const Diagnostic& d) {
      (void)d.render();
    }
  }
  return 0;
}
