# exit: 0
# A class of a module onnxify refuses (ssl: network access) can be kept, subclassed, decorated and
# handed to super() at import time, as truststore does; nothing is decided from it, so nothing fails.
import ssl

registry = {}


def register(cls):
    registry[cls.__name__] = cls
    return cls


_original = ssl.SSLContext
_original_super = super(_original, _original)


@register
class Context(ssl.SSLContext):
    def __init__(self, protocol):
        super().__init__(protocol)


registry["base"] = _original
print(len(registry), callable(len))
