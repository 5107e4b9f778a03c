from star import *
print(public_a, public_b, "public_c" in dir(), "_hidden" in dir())
from mypkg import *
print(helper("star"), VERSION, sub.__name__, "_private" in dir())
