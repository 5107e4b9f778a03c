# re: Python's regular expressions as model code uses them (block strings, key renaming, configs).
import re

# timm-style block strings: split on the first digit, options as key/value
for block in ("ir_r1_k3_s11_e1_c16_se0.25", "ds_r1_k3_s1_e1_c16", "er_r4_k5_s22_e6_c40_se0.25_noskip"):
    ops = block.split("_")
    kinds = [re.split(r"(\d.*)", op) for op in ops[1:]]
    print(ops[0], kinds)
print(re.match(r"(\w+?)(\d+)", "layer12").groups(), re.fullmatch(r"[a-z]+\d*", "conv3") is not None)
m = re.search(r"(?P<stage>stage|layer)(?P<idx>\d+)\.(?P<rest>.*)", "backbone.layer3.0.conv1.weight")
print(m.group(0), m.group("stage"), m["idx"], m.groupdict(), m.span("rest"), m.start(2), m.end(), m.lastindex)
print(re.sub(r"^module\.", "", "module.fc.weight"), re.sub(r"\.(\d+)\.", r"[\1].", "blocks.0.attn.1.w"))
print(re.sub(r"(?P<a>\w)(?P<b>\w)", r"\g<b>\g<a>", "abcd"), re.subn(r"a|b", "-", "abcab"))
print(re.sub(r"\d+", lambda m: str(int(m.group()) * 2), "x1 y22 z333"), re.sub("x*", "-", "abxd"))
print(re.findall(r"(\w)=(\d+)", "a=1, b=22,c=3"), re.findall(r"\b\w", "hello big world"), re.findall("", "ab"))
print(re.split(r"[,;]\s*", "a, b;c,  d"), re.split(r"(,)", "a,b,c", maxsplit=1), re.split(r"\W*", "ab, cd"))
print([m.span() for m in re.finditer(r"o+", "foo boo o")], re.findall(r"a{2,3}", "aaaaaaa"), re.findall(r"a{2,3}?", "aaaaa"))
print(re.findall(r"^\w+", "one\ntwo\nthree", re.M), re.findall(r"e$", "one\nthree", re.MULTILINE), re.search(r".+", "a\nb").group())
print(re.search(r".+", "a\nb", re.S).group(), re.findall(r"HeLLo", "hello HELLO", re.I), re.match(r"[A-Z]+", "abc", re.IGNORECASE))
print(re.search(r"(a|ab)(c|bcd)(d*)", "abcd").groups(), re.match(r"(a*)*b", "aaab").group(), re.match(r"(a|b)*?c", "abac").group(1))
print(re.match(r"(\w+) \1", "hey hey you").group(), re.search(r"(?<=-)\w+", "spam-egg").group(), re.findall(r"\w+(?=,)", "a, b, c"))
print(re.findall(r"(?<!\d)\d{2}(?!\d)", "1 22 333 44"), re.search(r"(?i)ReLU", "nn.relu6").group(), re.findall(r"(?:ab)+", "ababxab"))
print(re.match(r"""(\d+)  # digits
                   \s*([a-z]+)  # unit""", "12 kb", re.X).groups(), re.escape("a.b*c(d)"), re.findall(r"[^\W\d]+", "ab12cd_3"))
print(re.findall(r"[\d.]+", "v1.2.3 and 45"), re.findall(r"[a-c-]+", "x-ab-cz"), re.findall(r"[]a]+", "]a]b"), re.search(r"\$\d+", "cost $42").group())
p = re.compile(r"(\d+)x(\d+)")
print(p.pattern, p.groups, p.groupindex, p.search("img 224x160 px").groups(), p.match("3x4", 0).expand(r"\2 by \1"))
print(p.findall("1x2 3x4"), p.sub(r"\2x\1", "1x2 3x4"), bool(p.match("ax1")), p.fullmatch("12x3") is not None)
print(re.match(r"(a)(b)?", "a").groups(), re.match(r"(a)(b)?", "a").groups("-"), re.match(r"(a)(b)?", "a").group(2))
print(re.search(r"\s+", "a \t b").span(), re.findall(r"\S+", " x  yz "), re.findall(r"\D+", "a1bc2"), re.match(r"\Aab\Z", "ab") is not None)
print(re.match("(?P<x>a)(?P=x)", "aa").group(), repr(re.match(r"\d", "x")), re.match(r"\d+", "42abc"))
for bad in (r"a**", r"(ab", r"ab)", r"[ab", r"\q", r"*a", r"a{3,1}", r"(?P<1>a)", r"\2(a)"):
    try:
        re.compile(bad)
    except re.error as e:
        print("error:", e, "|", e.msg, e.pos)
