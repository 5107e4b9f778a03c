for v in [0, 1, 5, 255, -1, -128, 1 << 40]:
    print(v, v.bit_length(), bin(v), v & 0xF, v | 0x100, v ^ -1, ~v, v << 3, v >> 2, (v).bit_count() if hasattr(v, "bit_count") else bin(v).count("1"))
print(int.from_bytes(b"\xff\xfe", "big", signed=True), (1000).to_bytes(4, "little"), (-2).to_bytes(2, "big", signed=True))
print(0b1010 & 0b0110, 0o17 | 0x10, 7 ^ 2, 1 << 62, -(1 << 62) >> 60, 12 >> 5, -12 >> 1, -1 << 3)
