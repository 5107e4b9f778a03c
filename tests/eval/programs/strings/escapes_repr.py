for s in ["plain", "it's", 'say "hi"', "both ' and \"", "tab\there", "nl\n", "bs\\", "\x00\x7f",
          "é", "\u200b", "\U0001F600", "\r", "\x1b[0m", "\ud800" if False else "ok"]:
    print(repr(s), len(s), ascii(s))
print(r"raw\n", len(r"\n"), "\101\x41\u0041", b"\x41\n".decode())
print(repr("multi\nline"), str("multi\nline"))
