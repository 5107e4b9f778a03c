import circ2.b
A = 1
