class P:
    def __init__(self, x, y):
        self.x, self.y = x, y
    def __format__(self, spec):
        if spec == "polar":
            return "polar!"
        return f"P({self.x:{spec}}, {self.y:{spec}})"
    def __str__(self):
        return "P-str"
    def __repr__(self):
        return "P-repr"
p = P(1.5, 2)
print(f"{p}", f"{p:.2f}", f"{p:polar}", f"{p!r}", f"{p!s}", format(p, ">5"), "{:.1f}".format(p), "%s %r" % (p, p))
print(format(None), format(True), format(True, "d"), format("x", "<3") + "|", format([1, 2]), str(object)[:14])
