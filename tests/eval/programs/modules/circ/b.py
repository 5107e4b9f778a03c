print("circ.b start")
import circ.a as a_mod
import sys
print("circ.a partially initialized:", "circ.a" in sys.modules, hasattr(a_mod, "A_CONST"))
def b_func():
    return "b_func sees " + a_mod.A_CONST
print("circ.b end")
