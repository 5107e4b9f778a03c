# A finder appended to sys.meta_path serves modules the search path does not have (PEP 451), as
# six.moves and transformers' legacy module aliases do.
import importlib.abc
import importlib.machinery
import sys


class VirtualFinder(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    def find_spec(self, fullname, path=None, target=None):
        if fullname not in ("virtual_mod_xyz", "virtual_pkg_xyz", "virtual_pkg_xyz.child"):
            return None
        spec = importlib.machinery.ModuleSpec(fullname, self, is_package=fullname == "virtual_pkg_xyz")
        return spec

    def exec_module(self, module):
        module.answer = len(module.__name__)
        module.seen = (module.__name__, module.__spec__.name, type(module.__loader__).__name__)


print(len(sys.meta_path) >= 3, all(hasattr(f, "find_spec") for f in sys.meta_path))
sys.meta_path.append(VirtualFinder())
import virtual_mod_xyz

print(virtual_mod_xyz.answer, virtual_mod_xyz.seen, "virtual_mod_xyz" in sys.modules)
import virtual_pkg_xyz.child

print(virtual_pkg_xyz.child.seen, virtual_pkg_xyz.__path__ == [])
print(any(isinstance(f, VirtualFinder) for f in sys.meta_path))
try:
    import no_such_virtual_module_xyz
except ModuleNotFoundError as e:
    print("missing", e.name)
print(type(sys.path_hooks).__name__, type(sys.path_importer_cache).__name__)
