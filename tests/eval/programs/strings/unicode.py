s = "naïve café résumé 日本語 ☺"
print(s, len(s), s.upper(), s[6:10], s[-5:], s.split(), s.find("日"), s.index("☺"), s.count("é"))
print([c for c in "héllo"], list(reversed("añb")), "日本"[1], ord("日"), chr(26085), "\u65e5" == "日")
print(repr("日本"), ascii("日本"), repr("\x00\x1f\x7f\x80"), repr("\u200b"), repr("tab\there"), repr("\\"))
print("é" in "café", "fé" in "café", "café".startswith("ca"), "café".endswith("é"), "café".replace("é", "e"))
print(len("👍"), "👍".encode("utf-8"), "a👍b"[1], "a👍b"[::-1], repr("👍"), sorted("b😀a"))
print("ß".upper(), "Ä".lower(), "éa".capitalize(), "İ".lower() == "i̇", "ǅ".lower() if False else "")
print("%-6s|" % "日本", "{:>5}".format("é"), f"{'ü':*^5}", "é".center(5, "."), "日本".ljust(4, "_"))
print(str(b"\xc3\xa9", "utf-8"), "€".encode("utf-8"), "a" < "é" < "日", max("aé日"))
