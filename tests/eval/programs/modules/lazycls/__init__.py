# A package that swaps its module object's class for a ModuleType subclass (the lazy-module idiom
# of huggingface_hub and transformers) and reads its own __spec__ at import time (filelock).
import sys
import types

parent_at_import = __spec__.parent
name_at_import = __spec__.name


def __getattr__(name):
    if name == "lazy_value":
        from . import sub
        return sub.VALUE
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


class _Lazy(types.ModuleType):
    def __getattribute__(self, name):
        if name == "renamed":
            return "through __getattribute__"
        return super().__getattribute__(name)


sys.modules[__name__].__class__ = _Lazy
