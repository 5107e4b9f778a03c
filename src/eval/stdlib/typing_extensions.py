"""typing_extensions (onnxify's stdlib subset): the names of typing, and the few newer ones model
code imports from here (override, deprecated) as no-op decorators."""
import typing as _typing

globals().update({_k: _v for _k, _v in vars(_typing).items() if not _k.startswith("_")})


def override(method):
    return method


def deprecated(message, *, category=None, stacklevel=1):
    def decorator(obj):
        return obj

    return decorator
