m = __import__("os")
print(m.path.join("a", "b"))
r = m.remove("/tmp/x")
if r is None:
    print("removed")
