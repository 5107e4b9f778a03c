"""importlib.machinery (onnxify's stdlib subset). Evaluated code cannot load native extensions, so
there are no extension suffixes; looking for source files on disk is unknown (no file access)."""
import _onnxify

SOURCE_SUFFIXES = [".py"]
BYTECODE_SUFFIXES = []
EXTENSION_SUFFIXES = []  # no native extension can be loaded by onnxify
DEBUG_BYTECODE_SUFFIXES = OPTIMIZED_BYTECODE_SUFFIXES = []


def all_suffixes():
    return SOURCE_SUFFIXES + BYTECODE_SUFFIXES + EXTENSION_SUFFIXES


class ModuleSpec:
    def __init__(self, name, loader, *, origin=None, loader_state=None, is_package=None):
        self.name = name
        self.loader = loader
        self.origin = origin
        self.loader_state = loader_state
        self.submodule_search_locations = [] if is_package else None
        self.has_location = origin is not None

    @property
    def parent(self):
        if self.submodule_search_locations is None:
            return self.name.rpartition(".")[0]
        return self.name

    def __repr__(self):
        return f"ModuleSpec(name={self.name!r}, loader={self.loader!r}, origin={self.origin!r})"


class _FileLoader:
    def __init__(self, fullname, path):
        self.name = fullname
        self.path = path

    def get_filename(self, fullname=None):
        return self.path

    def get_data(self, path):
        """A package's data file (pkgutil.get_data, importlib.resources): read as open() reads,
        inside the import roots only."""
        with open(path, "rb") as f:
            return f.read()

    def get_source(self, fullname):
        return self.get_data(self.path).decode("utf-8")

    def is_package(self, fullname):
        return self.path.rpartition("/")[2] == "__init__.py"


class SourceFileLoader(_FileLoader):
    pass


class SourcelessFileLoader(_FileLoader):
    pass


class ExtensionFileLoader(_FileLoader):
    pass


class FileFinder:
    """Finds modules in one directory. Only suffixes can be searched for; with none (extension
    modules), nothing is found; looking for files on disk is unknown."""

    def __init__(self, path, *loader_details):
        self.path = path or "."
        self._loaders = [(suffix, loader) for loader, suffixes in loader_details for suffix in suffixes]

    def find_spec(self, fullname, target=None):
        if not self._loaders:
            return None
        return _onnxify.poison("importlib.machinery.FileFinder.find_spec",
                               "looking for module files on disk is not available: onnxify does not access files")

    def invalidate_caches(self):
        pass


def _spec_for_file(name, origin, package_dir):
    """The __spec__ the loader gives a module read from a file (package_dir: a package's folder,
    None for a plain module), as CPython's path finder would: code reads __spec__.parent/.name."""
    spec = ModuleSpec(name, SourceFileLoader(name, origin), origin=origin, is_package=package_dir is not None)
    if package_dir is not None:
        spec.submodule_search_locations = [package_dir]
    return spec


class BuiltinImporter:
    """The loader of modules built into onnxify (its stdlib subset, the torch prelude)."""

    @classmethod
    def find_spec(cls, fullname, path=None, target=None):
        where = _onnxify.locate_module(fullname, None)
        if where is not None and where[0] == "builtin":
            return _spec_for_builtin(fullname, where[1])
        return None


def _spec_for_builtin(name, is_package):
    return ModuleSpec(name, BuiltinImporter, origin="built-in", is_package=is_package)


class FrozenImporter:
    """CPython's finder of frozen modules; onnxify has none."""

    @classmethod
    def find_spec(cls, fullname, path=None, target=None):
        return None


class PathFinder:
    """The finder of modules on sys.path and packages' __path__: the import system's own search."""

    @classmethod
    def find_spec(cls, fullname, path=None, target=None):
        import importlib.util
        return importlib.util.find_spec(fullname)

    @classmethod
    def invalidate_caches(cls):
        pass


# sys.meta_path as CPython starts it. The import system searches the built-in modules and the import
# roots itself; finders a program adds to this list are asked for what that search does not find.
def _install_meta_path():
    import sys
    if not sys.meta_path:
        sys.meta_path.extend([BuiltinImporter, FrozenImporter, PathFinder])


_install_meta_path()
