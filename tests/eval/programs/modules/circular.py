import circ.a
print(circ.a.a_func(), circ.b.b_func(), circ.a.b.b_func is circ.b.b_func)
