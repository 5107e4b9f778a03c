print("mypkg init, __name__ =", __name__, "package =", __package__)
from .util import helper, VERSION
from . import sub
__all__ = ["helper", "VERSION", "sub"]
_private = "hidden"
