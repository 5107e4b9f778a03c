# Differential fuzz of bytes.decode("utf-8"): 3,000 random byte strings drawn mostly from the bytes
# that start or continue multi-byte sequences (a plain LCG, so both interpreters see the same
# inputs), decoded strict, replace and ignore; the output is compared with CPython's line by line.
state = 12345


def rand(n):
    global state
    state = (state * 1103515245 + 12345) % 2 ** 31  # (products fit onnxify's 64-bit int)
    return (state >> 8) % n


pool = [0x41, 0x0A, 0x7F, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC0, 0xC1, 0xC2, 0xDF, 0xE0, 0xE1, 0xEC, 0xED,
        0xEE, 0xEF, 0xF0, 0xF1, 0xF3, 0xF4, 0xF5, 0xF8, 0xFF]
for case in range(3000):
    data = bytes(pool[rand(len(pool))] if rand(4) else rand(256) for _ in range(rand(9)))
    try:
        strict = ascii(data.decode("utf-8"))
    except UnicodeDecodeError as e:
        strict = str(e)
    print(data.hex(), strict, ascii(data.decode("utf-8", "replace")), ascii(data.decode("utf-8", "ignore")))
