s = "naïve café — 日本語 😀"
print(len(s), s.upper(), s[6:10], s[::-1], s.encode("utf-8")[:8], s.find("日"), list(s[-3:]))
print(ord("é"), chr(233), "é" == "e\u0301", len("e\u0301"), "\u00e9".encode(), "日本".encode("utf-8").decode())
print(sorted("béa"), "ß".upper(), "ǅ".lower(), "straße".casefold() == "STRASSE".casefold(), "Σ".lower())
print(repr("\u200b"), "tab\tsep".expandtabs(4), "😀".isprintable(), "\x00".isprintable(), ascii("日"))
