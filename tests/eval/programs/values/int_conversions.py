for s in ["0", "-12", "+7", " 1_000 ", "0x1F", "0o17", "0b11"]:
    try:
        print(repr(s), int(s, 0))
    except ValueError as e:
        print(repr(s), "ValueError", e)
print(int("z", 36), int("10", 2), int(b"12"), int(3.9e3), bin(-10), oct(64), hex(-255), format(255, "b"))
print(str(-0), repr(10 ** 15), str(1_000_000), f"{12345678:,}", f"{-42:+d}", f"{7:03}")
print(int(True), int("٣") if False else 3, ord("a"), chr(0x1F600) == "\U0001F600", ascii("é"))
