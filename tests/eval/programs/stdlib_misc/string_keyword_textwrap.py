import string, keyword, textwrap
print(string.ascii_lowercase, string.digits, string.punctuation[:10], string.capwords("hello big world"))
t = string.Template("$who likes ${what}"); print(t.substitute(who="tim", what="kung pao"), t.safe_substitute(who="x"))
print(keyword.iskeyword("for"), keyword.iskeyword("print"), "async" in keyword.kwlist, len(keyword.kwlist) > 30)
print(textwrap.wrap("The quick brown fox jumps over the lazy dog", 12))
print(textwrap.fill("aaa bbb ccc ddd", 7))
print(repr(textwrap.dedent("    a\n      b\n    c")), repr(textwrap.indent("x\ny", "> ")), textwrap.shorten("Hello  world   again", 12))
