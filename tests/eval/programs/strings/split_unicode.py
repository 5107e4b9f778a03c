# splitlines, split() and rsplit() without a separator, and slices, over text with every line
# boundary and whitespace character Python knows, ASCII and not.
breaks = ["\n", "\r", "\r\n", "\v", "\f", "\x1c", "\x1d", "\x1e", "\x85", "\u2028", "\u2029"]
for b in breaks:
    for text in [f"a{b}b", f"{b}", f"caf\u00e9{b}\u20ac{b}", f"{b}{b}x", f"x{b}"]:
        print(ascii(text), text.splitlines(), text.splitlines(True), text.splitlines(keepends=False))
print("a\r\r\nb\n\rc".splitlines(), "a\u00a0b\u2027c\u0085".splitlines(True), "".splitlines(), "\u00e9".splitlines())
spaces = [" ", "\t", "\n", "\x0b", "\x0c", "\r", "\x1c", "\x1f", "\x85", "\xa0", "\u1680", "\u2000", "\u200a",
          "\u2028", "\u202f", "\u205f", "\u3000", "\u200b", "\ufeff"]
for sp in spaces:
    t = f"{sp}caf\u00e9{sp}{sp}x{sp}\u20ac y{sp}"
    print(ascii(sp), ascii(t.split()), ascii(t.rsplit()), ascii(t.split(None, 1)), ascii(t.rsplit(None, 1)),
          ascii(t.split(maxsplit=0)), ascii(t.rsplit(maxsplit=0)), ascii(t.split(None, 2)), ascii(t.rsplit(None, 2)))
print("  a  b  ".split(), "  a  b  ".rsplit(None, 1), "".split(), "   ".rsplit(), "\u3000".split(None, 0))
s = "\u00e9t\u00e9 \u20ac\U0001f600 caf\u00e9 na\u00efve"
for sl in [slice(0, 3), slice(2, None), slice(None, -2), slice(-5, -1), slice(3, 3), slice(5, 2), slice(None),
           slice(0, 100), slice(-100, 4), slice(1, None, 2), slice(None, None, -1), slice(8, 2, -2)]:
    print(ascii(s[sl]), len(s[sl]))
lines = ("d\u00e9but\n" + "x = 1  # caf\u00e9\r\n" * 50 + "fin").splitlines()
print(len(lines), ascii(lines[0]), ascii(lines[1]), ascii(lines[-1]))
