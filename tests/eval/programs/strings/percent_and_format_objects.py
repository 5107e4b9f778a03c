class T:
    def __str__(self): return "str-T"
    def __repr__(self): return "repr-T"
print("%s %r %a" % (T(), T(), T()), "{} {!r} {!s}".format(T(), T(), T()), f"{T()} {T()!r}")
print("%(x)s" % {"x": T()}, "%s" % ([T()],), "%-10s|" % T(), "%.3s" % T())
print("%d%%" % 50, "%5.1f%%" % 99.5, "%+.2e" % -12345.678, "%o %x %X %#x" % (64, 255, 255, 0))
print("{:>10}".format(str(T())), "{0!r:^12}".format("c"), "{:*<6}".format(12))
