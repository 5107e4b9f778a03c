# bytes.decode("utf-8") at every kind of malformed input, as CPython's decoder reports and repairs it:
# truncated sequences, overlong forms, surrogates, code points above U+10FFFF, stray continuation
# bytes; strict (the message), replace (one U+FFFD per maximal bad subpart) and ignore.
samples = [
    b"plain ascii", b"caf\xc3\xa9", b"\xe2\x82\xac euro", b"\xf0\x9f\x98\x80 emoji", b"",
    b"\x80", b"\xbf", b"\xc0\x80", b"\xc1\xbf", b"\xc2", b"\xc2A", b"\xc2\xc2\xa9",
    b"\xe0\x80\x80", b"\xe0\x9f\xbf", b"\xe0\xa0\x80", b"\xe2\x82", b"\xe2\x82A", b"\xe2A\x82",
    b"\xed\x9f\xbf", b"\xed\xa0\x80", b"\xed\xbf\xbf", b"\xee\x80\x80", b"\xef\xbf\xbf",
    b"\xf0\x80\x80\x80", b"\xf0\x8f\xbf\xbf", b"\xf0\x90\x80\x80", b"\xf0\x90\x80", b"\xf0\x90",
    b"\xf0\x90\x80A", b"\xf4\x8f\xbf\xbf", b"\xf4\x90\x80\x80", b"\xf5\x80\x80\x80", b"\xff", b"\xfe\xff",
    b"ab\xe2\x82", b"x\xf0\x9f\x98", b"\xc3\xa9\xc3", b"12345678\xc3\xa9abcdefgh\xff", b"a" * 17 + b"\x80" + b"b" * 9,
    b"\xe2\x82\xe2\x82\xac", b"\xf0\xf0\x9f\x98\x80", b"\x80\x80\x80",
]
for data in samples:
    try:
        strict = repr(data.decode("utf-8"))
    except UnicodeDecodeError as e:
        strict = "error: " + str(e)
    print(repr(data), strict)
    print("  replace", ascii(data.decode("utf-8", "replace")), "ignore", ascii(data.decode("utf-8", errors="ignore")))
    print("  str()", ascii(str(data, "utf-8", "replace")), len(data.decode("utf-8", "replace")),
          ascii(data.decode("utf-8", "backslashreplace")))
text = ("caf\u00e9 \u20ac " * 1000).encode()
s = text.decode()
print(len(s), s[:12], s[-6:], s.count("\u20ac"), s[4997:5003])
# utf-8-sig: a leading byte order mark is dropped on decode and written on encode
for data in [b"\xef\xbb\xbfabc", b"abc", b"\xef\xbb\xbf", b"\xef\xbbx", b"\xef\xbb\xbf\xef\xbb\xbfx", b"\xef\xbb\xbf\xff"]:
    try:
        print(ascii(data.decode("utf-8-sig")), ascii(data.decode("utf_8_sig", "replace")))
    except UnicodeDecodeError as e:
        print("error:", e)
print("x\u00e9".encode("utf-8-sig"), "".encode("UTF-8-SIG"))
