# Module objects whose class is replaced by a ModuleType subclass, and __spec__ of imported files.
import types

import lazycls

print(type(lazycls).__name__, isinstance(lazycls, types.ModuleType))
print(lazycls.parent_at_import, lazycls.name_at_import)
print(lazycls.renamed)
print(lazycls.lazy_value)
from lazycls import lazy_value
print(lazy_value)
import lazycls.sub as sub
print(sub.spec_parent, sub.spec_name, sub.spec_is_package)
print(lazycls.__spec__.submodule_search_locations is not None, lazycls.__spec__.origin.endswith("__init__.py"))
try:
    lazycls.missing
except AttributeError as e:
    print("AttributeError:", e)


class Plain:
    pass


try:
    types.__class__ = Plain
except TypeError as e:
    print("TypeError:", e)
