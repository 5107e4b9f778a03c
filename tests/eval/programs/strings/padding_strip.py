s = "abc"
print(repr(s.center(9)), repr(s.center(8, "*")), repr(s.ljust(6, ".")), repr(s.rjust(6)), repr(s.zfill(6)))
print(repr("-42".zfill(6)), repr("+7".zfill(4)), repr("xyz".center(2)))
t = "  \t hello \n "
print(repr(t.strip()), repr(t.lstrip()), repr(t.rstrip()), repr("xxhixx".strip("x")), repr("abcba".strip("ab")))
print(repr("a\tb\tc".expandtabs()), repr("a\tbc\td".expandtabs(4)), repr("01\t012\t0123".expandtabs(3)))
print("-".join(["a", "b", "c"]), "".join(reversed("abc")), ", ".join(map(str, range(5))))
