if x:
	if y:
		z = 0x_ff + 1_0.5e-3j
w = b"\x00" rb"\d" """
x"""
