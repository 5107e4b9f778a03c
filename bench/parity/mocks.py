"""Third-party packages a ParityBench file imports but this environment lacks (tensorflow, scipy,
matplotlib, ...) import as mock modules in the eager run, as the files expect to find them
installed: every attribute is a MagicMock, so module-level code that only mentions them runs, and a
module that really uses one fails in eager (then its cases are "not runnable", outside the
denominator). Only top-level packages that cannot be found are mocked, with all their submodules;
a missing submodule of an installed package still raises ImportError as it would. Only imports
written in the files named by `allow()` are mocked: the standard library's and torch's own
`try: import x except ImportError` probes keep seeing ImportError. onnxify is given the same mocks
as source packages (write_packages) built on its own unittest.mock."""
import importlib.abc
import importlib.machinery
import importlib.util
import os
import sys
import types
from unittest.mock import MagicMock


class MockModule(types.ModuleType):
    def __init__(self, name):
        super().__init__(name)
        self.__path__ = []  # a package, so `import pkg.sub` reaches the finder again
        self.__all__ = []

    def __getattr__(self, name):
        if name.startswith("__") and name.endswith("__"):
            raise AttributeError(name)
        value = MagicMock(name=f"{self.__name__}.{name}")
        setattr(self, name, value)
        return value


class _Loader(importlib.abc.Loader):
    def create_module(self, spec):
        return MockModule(spec.name)

    def exec_module(self, module):
        pass


class MissingPackageFinder(importlib.abc.MetaPathFinder):
    """Last on sys.meta_path: asked only for what no real finder found."""

    def __init__(self):
        self.mocked = set()
        self.modules = set()  # every module name made a mock (packages and their submodules)
        self.files = set()

    def _from_allowed_file(self):
        f = sys._getframe(2)
        while f is not None:
            name = f.f_code.co_filename
            if not name.startswith("<frozen importlib"):
                return name in self.files
            f = f.f_back
        return False

    def find_spec(self, fullname, path=None, target=None):
        top = fullname.split(".")[0]
        if "." in fullname and top not in self.mocked:
            return None  # a missing submodule of a real package stays an ImportError
        if top not in self.mocked and not self._from_allowed_file():
            return None
        self.mocked.add(top)
        self.modules.add(fullname)
        return importlib.machinery.ModuleSpec(fullname, _Loader(), is_package=True)


FINDER = MissingPackageFinder()


def allow(path):
    """Imports executed by the code of file `path` may be mocked."""
    FINDER.files.add(path)


_STUB = '''"""A package this environment lacks: a mock, as the eager run saw it (bench/parity/mocks.py)."""
from unittest.mock import MagicMock as _MagicMock

__all__ = []


def __getattr__(name):
    if name.startswith("__") and name.endswith("__"):
        raise AttributeError(name)
    value = _MagicMock(name=__name__ + "." + name)
    globals()[name] = value
    return value
'''


def write_packages(root):
    """The same mocks for onnxify, which reads source: a package folder under `root` (a --path root)
    for every module mocked so far, each answering any attribute with a MagicMock."""
    for name in sorted(FINDER.modules):
        folder = os.path.join(root, *name.split("."))
        init = os.path.join(folder, "__init__.py")
        if not os.path.exists(init):
            os.makedirs(folder, exist_ok=True)
            with open(init, "w") as f:
                f.write(_STUB)
    return bool(FINDER.modules)


def install():
    # torch.utils.tensorboard needs the tensorboard package, which ParityBench's environment has
    # (tensorflow brings it) and this one lacks: the torch module itself is a mock then (files import
    # SummaryWriter for logging).
    if importlib.util.find_spec("tensorboard") is None and "torch.utils.tensorboard" not in sys.modules:
        import torch.utils
        sys.modules["torch.utils.tensorboard"] = MockModule("torch.utils.tensorboard")
        torch.utils.tensorboard = sys.modules["torch.utils.tensorboard"]
    if FINDER not in sys.meta_path:
        sys.meta_path.append(FINDER)
