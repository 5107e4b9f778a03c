print("circ init")
