// Test helper for pickle_oracle_test.py: prints what onnxify's unpickler reads from a pickle file,
// as Python's repr() would print it, or the opcode table.
//   weights_pickle_tool repr FILE...   one line per file: the repr, or "error: MESSAGE"
//   weights_pickle_tool opcodes        one line per opcode: NAME CODE PROTOCOL
#include <cstdio>
#include <cstring>

#include "support/bytes.h"
#include "support/diagnostic.h"
#include "weights/pickle_ops.h"
#include "weights/unpickler.h"

using namespace onnxify;
using namespace onnxify::weights;

int main(int argc, char** argv) {
  if (argc >= 2 && std::strcmp(argv[1], "opcodes") == 0) {
    size_t n;
    const OpcodeInfo* ops = all_opcodes(&n);
    for (size_t i = 0; i < n; ++i)
      std::printf("%.*s %d %d\n", static_cast<int>(ops[i].name.size()), ops[i].name.data(), ops[i].code,
                  ops[i].protocol);
    return 0;
  }
  if (argc < 3 || std::strcmp(argv[1], "repr") != 0) {
    std::fprintf(stderr, "usage: %s repr FILE... | opcodes\n", argv[0]);
    return 2;
  }
  for (int i = 2; i < argc; ++i) {
    try {
      auto file = MappedFile::open(argv[i]);
      Heap heap;
      UnpickleResult r = unpickle(file->bytes(), 0, heap, UnpickleOptions{});
      std::printf("%s\n", repr(r.value).c_str());
    } catch (const Diagnostic& d) {
      std::printf("error: %s\n", d.message().c_str());
    }
  }
  return 0;
}
