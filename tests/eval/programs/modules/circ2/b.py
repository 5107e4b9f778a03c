import circ2.a
print(circ2.a.A)
