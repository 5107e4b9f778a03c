"""fnmatch (onnxify's stdlib subset): shell-style pattern matching of names (pure string work; the
patterns become regular expressions as in CPython)."""
import re


def translate(pat):
    i, n = 0, len(pat)
    res = ""
    while i < n:
        c = pat[i]
        i += 1
        if c == "*":
            while i < n and pat[i] == "*":
                i += 1
            res += ".*"
        elif c == "?":
            res += "."
        elif c == "[":
            j = i
            if j < n and pat[j] == "!":
                j += 1
            if j < n and pat[j] == "]":
                j += 1
            while j < n and pat[j] != "]":
                j += 1
            if j >= n:
                res += "\\["
            else:
                stuff = pat[i:j].replace("\\", "\\\\")
                i = j + 1
                if stuff[0] == "!":
                    stuff = "^" + stuff[1:]
                elif stuff[0] in ("^", "["):
                    stuff = "\\" + stuff
                res += "[" + stuff + "]"
        else:
            res += re.escape(c)
    return "(?s:" + res + ")\\Z"


_cache = {}


def fnmatchcase(name, pat):
    m = _cache.get(pat)
    if m is None:
        m = _cache[pat] = re.compile(translate(pat)).match
    return m(name) is not None


def fnmatch(name, pat):
    return fnmatchcase(name, pat)


def filter(names, pat):
    return [n for n in names if fnmatchcase(n, pat)]

__all__ = ["filter", "fnmatch", "fnmatchcase", "translate"]
