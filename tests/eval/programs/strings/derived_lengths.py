# strs made from other strs (concatenation, repetition, slices, splits, lines, strips) keep their
# length, ASCII-ness, hash and indexing right, for ASCII and non-ASCII parts alike.
parts = ["abc", "d\u00e9f", "", "x", "\u4e2d\u6587", "  pad  ", "line1\nline2\r\nl\u00efne3"]
for a in parts:
    for b in parts:
        s = a + b
        print(repr(s), len(s), s.isascii(), hash(s) == hash(str(list(s) and "".join(s))), s[-1:] if s else "")
    r = a * 3
    print(len(r), r.isascii(), r[::2], r[1:4], (a * 0) == "", a[::-1])
text = "caf\u00e9 one\n  two \t\nthree \u00e0 four\n" * 3
for piece in text.split() + text.splitlines() + text.splitlines(True) + text.split("o") + text.rsplit(" ", 2):
    print(repr(piece), len(piece), piece.isascii(), piece.upper(), piece[1:] == piece[1:len(piece)])
for piece in [text.strip(), "  abc  ".strip(), "\tabc".lstrip(), "abc\n".rstrip(), "xxabcxx".strip("x")]:
    print(repr(piece), len(piece), piece.isascii(), {piece: 1}[piece])
d = {}
for i, word in enumerate(("alpha beta " * 4).split()):
    d[word + str(i % 2)] = i
print(sorted(d.items()), "alpha0" in d, ("alp" + "ha1") in d)
mixed = "ab\u2028cd\u0085ef\r\nascii only\x1cg\u00e9\n\u2029tail"
for keep in (False, True):
    for line in mixed.splitlines(keep):
        print(repr(line), len(line), line.isascii(), line[-1:], hash(line) == hash("".join(list(line))))
