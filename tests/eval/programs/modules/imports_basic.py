import mypkg
print(mypkg.helper(1), mypkg.VERSION, mypkg.sub.Thing(), mypkg.sub.use())
import mypkg.util
import mypkg.sub as s
from mypkg import sub as s2, helper
from mypkg.util import VERSION as V
print(s is s2, s is mypkg.sub, helper is mypkg.util.helper, V, mypkg.util.__name__, mypkg.__name__)
import sys
print("mypkg" in sys.modules, "mypkg.util" in sys.modules, sys.modules["mypkg.sub"] is s)
import mypkg.nested
print(mypkg.nested.deep_value, mypkg.nested.deep.__name__)
print(__name__, mypkg.__package__, mypkg.sub.__package__, mypkg.nested.__package__)
import mypkg as again
print(again is mypkg)
import math, os.path as osp
print(math.floor(2.5), osp.basename("/a/b"))
