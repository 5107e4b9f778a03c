print("circ.a start")
import circ.b as b
def a_func():
    return "a_func sees " + b.b_func.__name__
A_CONST = "A"
print("circ.a end")
