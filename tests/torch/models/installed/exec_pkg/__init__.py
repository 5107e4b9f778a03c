"""An "installed package" for test_imports.py that builds a function with exec at import time (as
attrs and dataclass-like libraries do): onnxify runs no exec'd code, so the lookup after it raises."""
_namespace = {}
exec("def generated(x):\n    return x + 1\n", _namespace)
generated = _namespace["generated"]
