print("{} {}".format(1, 2), "{1} {0}".format("a", "b"), "{x}-{y}".format(x=1, y=2), "{0}{0}".format("ab"))
print("{:>8}|{:<8}|{:^8}|{:*^8}".format("r", "l", "c", "s"), "{:+.3f}".format(2.71828), "{:,d}".format(1234567))
print("{0.real} {0.imag}".format(1 + 2j), "{d[k]} {l[1]}".format(d={"k": "v"}, l=[5, 6]), "{0[x]}".format({"x": 9}))
print("{!r} {!s} {!a}".format("é", "é", "é"), "{:%}".format(0.25), "{:.2e}".format(31415.9), "{:g}".format(1e-20))
class P:
    def __init__(self): self.x = 1; self.y = [2, 3]
print("{p.x} {p.y[1]}".format(p=P()), "{0.y}".format(P()))
print("{:08.3f}|{:-^11}|{:<05}".format(-3.14159, "mid", 7), "{:#010b}".format(5), "{:c}".format(9731))
print("{{escaped}} {}".format("x"), "{:{}{}}".format("v", ">", 6), "{:.{}}".format("abcdef", 3))
fmt = "{name:>{w}}: {val:.{p}f}"
print(fmt.format(name="pi", w=6, val=3.14159, p=2), "{}".format([1, {"a": (2,)}]), "{:d}".format(True))
print("%(a)s and %(b)d" % {"a": "x", "b": 2}, "{a} {b}".format_map({"a": 1, "b": 2}))
print(format(255, "08b"), format(-255, "x"), format(3.5, "10.2%"), format("text", "^10"), format(1e100, ".3g"))
print("{:,.2f}".format(1234567.891), "{:_x}".format(2 ** 40), "{:e}".format(0), "{:.0e}".format(12345), "{:n}".format(1234))
