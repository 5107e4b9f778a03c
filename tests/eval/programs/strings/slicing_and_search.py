s = "Hello, World! Hello!"
print(s[0], s[-1], s[7:12], s[::-1], s[::3], s[100:], s[-100:3])
print(s.find("Hello"), s.find("Hello", 1), s.rfind("Hello"), s.find("xyz"), s.index("World"), s.count("l"))
print(s.startswith("Hell"), s.startswith(("x", "He")), s.endswith("!"), s.endswith("lo", 0, 5))
print("lo" in s, s.partition(", "), s.rpartition("Hello"), s.partition("zz"))
print(s.replace("Hello", "Bye"), s.replace("l", "L", 2), s.split(), s.split("l", 2), s.rsplit("l", 2))
print("a,b,,c".split(","), " a  b ".split(" "), "".split(), "x".split("x"), "line1\nline2\r\nline3".splitlines())
print("line1\nline2\n".splitlines(True), "abc".removeprefix("a"), "abc".removesuffix("bc"))
