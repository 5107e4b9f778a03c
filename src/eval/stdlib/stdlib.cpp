// The stdlib subset: which modules are built in and whether each is C++ or Python source.
#include "eval/internal.h"
#include "eval/loader.h"

extern const onnxify::eval::EmbeddedModule kEvalStdlib[];
extern const size_t kEvalStdlib_count;

namespace onnxify::eval {

void init_sys_module(Interp& I, Module* m);
void init_math_module(Interp& I, Module* m);
void init_gc_module(Interp& I, Module* m);
void init_onnxify_module(Interp& I, Module* m);

void ModuleLoader::install_stdlib() {
  add_native({"sys", &init_sys_module});
  add_native({"math", &init_math_module});
  add_native({"gc", &init_gc_module});
  add_native({"_onnxify", &init_onnxify_module});
  for (size_t i = 0; i < kEvalStdlib_count; ++i) add_embedded(kEvalStdlib[i]);
}

}  // namespace onnxify::eval
