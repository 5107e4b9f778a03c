# struct: sizes with native alignment, byte orders, integer ranges, IEEE half/single/double rounding.
import struct

for fmt in ("i", "<i", "bi", "@bi", "=bi", "hq", "<hq", ">2H3s", "?xd", "cbBhHiIlLqQnNefd", "5p", "@iq", "!f"):
    print(fmt, struct.calcsize(fmt))
print(struct.pack("<i", -2), struct.pack(">I", 305419896), struct.pack("<hH", -1, 65535), struct.pack("bi", 1, 2))
print(struct.pack("<f", 0.1), struct.pack(">d", -2.5), struct.pack("<e", 0.1), struct.pack("<e", 65504.0))
print(struct.unpack("<f", struct.pack("<f", 0.1)), struct.unpack("<e", struct.pack("<e", 1 / 3)))
print(struct.unpack("<d", struct.pack("<d", 1e-310)), struct.unpack("<f", struct.pack("<f", 1e-40)))
print(struct.pack("<f", float("inf")), struct.pack("<d", -0.0), struct.unpack(">f", b"\x7f\xc0\x00\x00"))
print(struct.pack("3s", b"abcdef"), struct.pack("5p", b"xy"), struct.unpack("5p", b"\x02xyzz"), struct.pack("?", 5))
print(struct.unpack("<qQ", struct.pack("<qQ", -(2 ** 62) * 2, 2 ** 62 + 5)), struct.unpack(">hh", b"\xff\xfe\x00\x01"))
s = struct.Struct("<2i")
print(s.size, s.format, s.pack(3, 4), s.unpack(b"\x01\x00\x00\x00\x02\x00\x00\x00"), list(s.iter_unpack(bytes(16))))
buf = bytearray(8)
struct.pack_into("<hh", buf, 2, 7, -7)
print(buf, struct.unpack_from("<h", buf, 4))
for args in (("b", 200), ("<H", -1), ("i",), ("<f", 1e40), ("<i", 2 ** 40), ("Q", -1), ("<l", 2 ** 33)):
    try:
        struct.pack(*args)
    except (struct.error, OverflowError) as e:
        print(type(e).__name__, e)
try:
    struct.unpack("<i", b"abc")
except struct.error as e:
    print(e)
