# Searches that skip start positions no match can begin at, and repeated substitutions (Keras'
# to_snake_case names every layer with the same three re.sub calls): the results must be exactly
# those of trying every position and of substituting anew.
import re


def to_snake_case(name):
    name = re.sub(r"\W+", "", name)
    name = re.sub("(.)([A-Z][a-z]+)", r"\1_\2", name)
    return re.sub("([a-z])([A-Z])", r"\1_\2", name).lower()


for n in ["Conv2D", "BatchNormalization", "Conv2D", "ReLU", "DepthwiseConv2D", "Conv2D", "HTTPServer2x", "a-b c"]:
    print(to_snake_case(n))

# First characters: literals (case-folded too), sets, categories, alternatives, repeats of at least
# one, and patterns that may start anywhere or match empty.
text = "xx Abc abc ABC 12 _q\n\tZz-end"
for pat, flags in [("abc", 0), ("abc", re.I), ("[A-C]b", 0), ("[a-c]B", re.I), (r"\d+", 0), (r"\s\S", 0),
                   ("q|Zz", 0), ("(?:bc|BC)", 0), ("(a)+", re.I), ("a*b", 0), ("x?A", 0), ("", 0),
                   (r"\bend", 0), ("(?=A)Ab", 0), ("(?:)z", 0), ("$", 0), (r"[^a-z ]", 0), (r"\W", 0)]:
    p = re.compile(pat, flags)
    print(repr(pat), [m.span() for m in p.finditer(text)], p.findall(text)[:5], p.sub("#", text, count=3))
    print(p.search(text, 5), p.search(text, 4, 12), p.search(text, len(text)))
print(re.split(r"\d", "a1b22c333"), re.split("(x)", "axbxc"), re.findall("[ab]", "xaybz" * 3))

# A callable replacement runs every time; the same call with a str replacement gives equal results.
calls = []


def repl(m):
    calls.append(m.group(0))
    return m.group(0).upper()


print(re.sub("[aeiou]", repl, "banana"), re.sub("[aeiou]", repl, "banana"), len(calls))
p = re.compile(r"(\w)(\d)")
print(p.subn(r"\2\1", "a1 b2 c3"), p.subn(r"\2\1", "a1 b2 c3"), p.subn(r"\2\1", "a1 b2 c3", 1))
try:
    p.sub(r"\9", "a1")
except re.error as e:
    print("error", e)
try:
    p.sub(r"\9", "a1")
except re.error as e:
    print("error again", e)
