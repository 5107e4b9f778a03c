"""importlib (onnxify's stdlib subset): import_module."""


def import_module(name, package=None):
    level = 0
    if name.startswith("."):
        if not package:
            raise TypeError("the 'package' argument is required to perform a relative import for {!r}".format(name))
        for character in name:
            if character != ".":
                break
            level += 1
        name = name[level:]
        base = package.rsplit(".", level - 1)[0] if level > 1 else package
        name = base + ("." + name if name else "")
    return __import__(name, fromlist=["*"])


def invalidate_caches():
    pass
