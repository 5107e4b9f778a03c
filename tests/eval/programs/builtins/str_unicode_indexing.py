# Indexing, slicing and searching non-ASCII strings in every order: forward scans, backward
# scans, random access, and regexes over text mixing 1- to 4-byte UTF-8 characters (the
# evaluator remembers the last position it found; every walk from there must land on the same
# characters as CPython's).
import random
import re

s = "ab■⬚c" * 7 + "é漢字😀x" * 5 + "tail■"
print(len(s), s[0], s[-1], s[3], s[-3], s[len(s) // 2])
fwd = "".join(s[i] for i in range(len(s)))
bwd = "".join(s[i] for i in range(len(s) - 1, -1, -1))
print(fwd == s, bwd == s[::-1])
rng = random.Random(5)
picks = [rng.randrange(len(s)) for _ in range(200)]
print("".join(s[i] for i in picks) == "".join(list(s)[i] for i in picks))
print(s[5:17], s[-12:-2], s[::3], s[40:10:-4])
print(s.find("漢"), s.rfind("■"), s.index("😀"), s.count("⬚"), s.find("x", 40), s.rfind("a", 0, 20))
print([m.start() for m in re.finditer("■|😀", s)])
print(re.sub(r"[⬚é]", "_", s)[:30], re.split("字", s)[:3])
doc = """
    0 ■ ⬚ ⬚
    1 ■ ■ ⬚
"""
lines = doc.splitlines()
print([line.strip() for line in lines], [ln.index("■") if "■" in ln else -1 for ln in lines])
it = iter(s)
print(next(it), next(it), next(it), "".join(it)[-4:])
