# sys._getframe as lazy importers use it: the caller's globals, names, lines, the chain. (onnxify
# gives a snapshot: a frame's own f_lineno is where _getframe was called, not live.)
import sys


def inner():
    here = sys._getframe()
    print(here.f_code.co_name, here.f_back.f_code.co_name, here.f_back.f_lineno)
    print(here.f_globals is globals(), here.f_back.f_globals["__name__"] == __name__)
    print(sys._getframe(1).f_code.co_name, sys._getframe(2).f_code.co_name)


def outer():
    inner()


outer()
top = sys._getframe()
print(top.f_code.co_name, top.f_locals is globals(), top.f_globals is globals())
print(type(top).__name__, top.f_code.co_filename == __file__ if "__file__" in globals() else True)


def install():
    module_globals = sys._getframe(1).f_globals
    return module_globals["__name__"]


print(install() == __name__)
try:
    sys._getframe(10000)
except ValueError as e:
    print("ValueError:", e)
