"""Module-level __getattr__ and __dir__ (PEP 562)."""
_loaded = []


def __getattr__(name):
    if name.startswith("dyn_"):
        _loaded.append(name)
        return name[4:].upper()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__():
    return ["dyn_example", "static"]


static = "s"
