# fnmatch: shell patterns (pathlib's glob uses them).
import fnmatch

names = ["image_processing_vit.py", "modeling_vit.py", "a.txt", ".hidden", "x[1].py", "data.json"]
for pat in ["*.py", "image_processing_*.py", "?.txt", "*", "x[[]1].py", "[!m]*.py", "*.[jt]*"]:
    print(pat, fnmatch.filter(names, pat))
print(fnmatch.fnmatchcase("ABC", "a*"), fnmatch.fnmatch("abc", "a*"))
