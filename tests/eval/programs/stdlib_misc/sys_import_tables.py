# sys's import-system tables and interpreter facts libraries read at import time.
import sys

print([n for n in ("meta_path", "path_hooks", "path_importer_cache", "stdlib_module_names", "flags", "thread_info",
                   "getdefaultencoding", "getfilesystemencoding", "base_prefix", "exec_prefix", "platlibdir",
                   "is_finalizing", "settrace", "gettrace", "audit") if hasattr(sys, n)])
print(sys.flags.optimize, sys.flags.dev_mode, sys.flags.utf8_mode >= 0, sys.getdefaultencoding())
print("typing" in sys.stdlib_module_names, "urllib" in sys.stdlib_module_names, "torch" in sys.stdlib_module_names)
print(sys.gettrace(), sys.is_finalizing(), isinstance(sys.path_importer_cache, dict))
