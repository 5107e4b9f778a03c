"""A stand-in for numpy, whose implementation is native code the evaluator cannot run. Model
packages import numpy at module level (for annotations, dtype tables, data pipelines); here every
name is an unknown value, reported only if the exported computation actually needs it — except the
classes that annotations name at import time (`Optional[np.ndarray]` inside a `Union` is compared
with other types, which an unknown value cannot answer)."""
__version__ = "2.3.5"


class ndarray:
    pass


class generic:
    pass


class dtype:
    pass


def __getattr__(name):
    import _onnxify
    if name.startswith("__"):
        raise AttributeError(name)
    return _onnxify.poison(f"numpy.{name}", "numpy is not available during conversion (it is native code)")
