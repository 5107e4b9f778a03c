# repr of a very deep structure stops at the recursion budget instead of overflowing the stack.
x = []
for _ in range(100000):
    x = [x]
print(x)
