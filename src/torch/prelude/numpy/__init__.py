"""A stand-in for numpy, whose implementation is native code the evaluator cannot run. Model
packages import numpy at module level (for annotations, dtype tables, data pipelines); here every
name is an unknown value, reported only if the exported computation actually needs it."""
__version__ = "1.24.2"


def __getattr__(name):
    import _onnxify
    if name.startswith("__"):
        raise AttributeError(name)
    return _onnxify.poison(f"numpy.{name}", "numpy is not available during conversion (it is native code)")
