// Fuzzes the IR text parser (and through it the type and DimExpr parsers): arbitrary bytes must
// give a graph or a Diagnostic, never a crash; a graph that parses must print, re-parse and print
// identically, and verify without crashing.
#include <cstddef>
#include <cstdint>
#include <string>

#include "ir/ir.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string text(reinterpret_cast<const char*>(data), size);
  onnxify::ir::ParseOptions opts;
  opts.load_sources = false;  // never read files named by loc(...)
  std::unique_ptr<onnxify::ir::Graph> g;
  try {
    g = onnxify::ir::parse(text, "fuzz.ir", opts);
  } catch (const onnxify::Diagnostic&) {
    return 0;
  }
  std::string once = onnxify::ir::print(*g);
  std::string twice = onnxify::ir::print(*onnxify::ir::parse(once, "fuzz.ir", opts));
  if (once != twice) __builtin_trap();
  (void)onnxify::ir::verify_all(*g);
  return 0;
}
