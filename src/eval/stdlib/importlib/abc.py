"""importlib.abc (onnxify's stdlib subset): the abstract finder and loader classes that import hooks
subclass (a MetaPathFinder appended to sys.meta_path is asked for modules the search path lacks)."""
import abc

from importlib import machinery


class Finder(metaclass=abc.ABCMeta):
    pass


class MetaPathFinder(metaclass=abc.ABCMeta):
    def invalidate_caches(self):
        pass


class PathEntryFinder(metaclass=abc.ABCMeta):
    def invalidate_caches(self):
        pass


class Loader(metaclass=abc.ABCMeta):
    def create_module(self, spec):
        return None

    def load_module(self, fullname):
        raise ImportError


class ResourceLoader(Loader):
    @abc.abstractmethod
    def get_data(self, path):
        raise OSError


class InspectLoader(Loader):
    def is_package(self, fullname):
        raise ImportError

    def get_code(self, fullname):
        return None

    @abc.abstractmethod
    def get_source(self, fullname):
        raise ImportError


class ExecutionLoader(InspectLoader):
    @abc.abstractmethod
    def get_filename(self, fullname):
        raise ImportError


class FileLoader(ResourceLoader, ExecutionLoader):
    pass


class SourceLoader(ResourceLoader, ExecutionLoader):
    pass


class ResourceReader(metaclass=abc.ABCMeta):
    pass


class Traversable(metaclass=abc.ABCMeta):
    pass


class TraversableResources(ResourceReader):
    pass


for _cls in (machinery.BuiltinImporter, machinery.FrozenImporter, machinery.PathFinder):
    MetaPathFinder.register(_cls)
