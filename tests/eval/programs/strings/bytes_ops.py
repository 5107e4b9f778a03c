b = b"hello world"
print(b[0], b[-1], b[:5], b.upper(), b.split(), b.replace(b"o", b"0"), b.find(b"wor"), len(b))
print(bytes(3), bytes([65, 66]), bytes("hé", "utf-8"), b"ab" + b"cd", b"x" * 3, b"a" in b"cat", 97 in b"cat")
print(b.hex(), bytes.fromhex("48 69"), list(b"AB"), b.decode(), repr(b"\x00\xff'"), b"%d-%s" % (5, b"x"))
ba = bytearray(b"abc"); ba.append(100); ba[0] = 65; ba.extend(b"!!"); print(ba, bytes(ba), len(ba))
print(b"a,b".split(b","), b" x ".strip(), b"abc".startswith(b"ab"), b"abc" < b"abd", b"".join([b"a", b"b"]))
print(b"Hello".isupper(), b"hello".isalpha(), b"123".isdigit(), b"ab".center(6, b"*"), b"%5.1f" % 2.25)
