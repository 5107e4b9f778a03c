"""importlib.util (onnxify's stdlib subset): find_spec answers from the import system's own search
(the same roots import reads, nothing loaded); loading modules from arbitrary files is unknown."""
import sys

import _onnxify
from importlib.machinery import ModuleSpec, ExtensionFileLoader, _spec_for_file, _spec_for_builtin


def resolve_name(name, package):
    if not name.startswith("."):
        return name
    if not package:
        raise ImportError(f"no package specified for {repr(name)} (required for relative module names)")
    level = 0
    for character in name:
        if character != ".":
            break
        level += 1
    bits = package.rsplit(".", level - 1)
    if len(bits) < level:
        raise ImportError("attempted relative import beyond top-level package")
    base = bits[0]
    return f"{base}.{name[level:]}" if name[level:] else base


def _find(fullname, parent):
    where = _onnxify.locate_module(fullname, parent)
    if where is None:
        return None
    kind = where[0]
    if kind == "source":
        return _spec_for_file(fullname, where[1], where[3] if where[2] else None)
    if kind == "extension":
        return ModuleSpec(fullname, ExtensionFileLoader(fullname, where[1]), origin=where[1])
    if kind == "builtin":
        return _spec_for_builtin(fullname, where[1])
    # Refused for safety (subprocess, socket): it exists, importing it gives an unknown value.
    return ModuleSpec(fullname, None, origin=None)


def find_spec(name, package=None):
    fullname = resolve_name(name, package) if name.startswith(".") else name
    if fullname in sys.modules:
        module = sys.modules[fullname]
        if module is None:
            return None
        if _onnxify.is_poison(module):
            return _onnxify.derive_poison(module, "importlib.util.find_spec(%r)" % fullname)
        try:
            spec = module.__spec__
        except AttributeError:
            # A module built into onnxify has no spec of its own; as CPython's built-in modules.
            return _spec_for_builtin(fullname, False)
        if spec is None:
            raise ValueError("{}.__spec__ is None".format(fullname))
        return spec
    parent = None
    parent_name = fullname.rpartition(".")[0]
    if parent_name:
        parent = __import__(parent_name, fromlist=["__path__"])
        if _onnxify.is_poison(parent):
            return _onnxify.derive_poison(parent, "importlib.util.find_spec(%r)" % fullname)
        try:
            parent.__path__
        except AttributeError as e:
            raise ModuleNotFoundError(
                f"__path__ attribute not found on {parent_name!r} while trying to find {fullname!r}",
                name=fullname) from e
    return _find(fullname, parent)


def _unavailable(fname):
    return _onnxify.poison("importlib.util." + fname, "importlib.util.%s() is not available: onnxify loads modules "
                           "only through import statements" % fname, False)


spec_from_file_location = _unavailable("spec_from_file_location")
module_from_spec = _unavailable("module_from_spec")
spec_from_loader = _unavailable("spec_from_loader")
LazyLoader = _unavailable("LazyLoader")
MAGIC_NUMBER = b"\xa7\r\r\n"


def source_hash(source_bytes):
    return _onnxify.poison("importlib.util.source_hash", "importlib.util.source_hash() is not available")
