# expect-error
def conv_out(size, k, s):
    assert (size - k) % s == 0, f"size {size} does not tile with kernel {k} stride {s}"
    return (size - k) // s + 1
print(conv_out(7, 3, 2))
print(conv_out(8, 3, 2))
