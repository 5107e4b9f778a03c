print("circ2 init")
