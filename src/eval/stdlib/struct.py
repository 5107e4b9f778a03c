"""struct (onnxify's stdlib subset): pack/unpack/calcsize/iter_unpack and Struct, with CPython's
sizes, native alignment ('@') and IEEE 754 half/single/double encoding done in Python."""
import math as _math

__all__ = ["calcsize", "pack", "pack_into", "unpack", "unpack_from", "iter_unpack", "Struct", "error"]


class error(Exception):
    pass


# code -> (size, kind): i signed int, u unsigned, f float, b bool, c char, s bytes, p pascal, x pad
_CODES = {"x": (1, "x"), "c": (1, "c"), "b": (1, "i"), "B": (1, "u"), "?": (1, "b"), "h": (2, "i"), "H": (2, "u"),
          "i": (4, "i"), "I": (4, "u"), "l": (8, "i"), "L": (8, "u"), "q": (8, "i"), "Q": (8, "u"), "n": (8, "i"),
          "N": (8, "u"), "e": (2, "f"), "f": (4, "f"), "d": (8, "f"), "s": (1, "s"), "p": (1, "p"), "P": (8, "u")}
_STD_SIZE = {"l": 4, "L": 4}


def _parse(fmt):
    if isinstance(fmt, bytes):
        fmt = fmt.decode("ascii")
    order = "@"
    i = 0
    if fmt and fmt[0] in "@=<>!":
        order = fmt[0]
        i = 1
    native = order == "@"
    little = order in "@=<"
    items = []  # (code, count, offset, size)
    offset = 0
    while i < len(fmt):
        ch = fmt[i]
        if ch.isspace():
            i += 1
            continue
        count = None
        if ch.isdigit():
            j = i
            while j < len(fmt) and fmt[j].isdigit():
                j += 1
            count = int(fmt[i:j])
            i = j
            if i >= len(fmt):
                raise error("repeat count given without format specifier")
            ch = fmt[i]
        if ch not in _CODES or (not native and ch in "nNP"):
            raise error("bad char in struct format")
        size = _CODES[ch][0] if native else _STD_SIZE.get(ch, _CODES[ch][0])
        if native and ch not in "xcsp?bB" and offset % size:
            offset += size - offset % size
        n = 1 if count is None else count
        if ch in "sp":
            items.append((ch, n, offset, n))
            offset += n
        elif ch == "x":
            offset += n
        else:
            for _ in range(n):
                items.append((ch, 1, offset, size))
                offset += size
        i += 1
    return items, offset, little, native


def _float_bits(x, size):
    """IEEE 754 encoding of x in a float of `size` bytes (round half to even), as CPython's packers
    give: (sign bit, the other bits), apart so that no int needs the 64th bit."""
    ebits, mbits = {2: (5, 10), 4: (8, 23), 8: (11, 52)}[size]
    bias = (1 << (ebits - 1)) - 1
    sign = 1 if (x < 0 or (x == 0 and _math.copysign(1.0, x) < 0)) else 0
    x = abs(x)
    if x != x:
        return sign, (((1 << ebits) - 1) << mbits) | (1 << (mbits - 1))
    if x == _math.inf:
        return sign, ((1 << ebits) - 1) << mbits
    if x == 0:
        return sign, 0
    m, e = _math.frexp(x)  # x = m * 2**e, 0.5 <= m < 1
    e -= 1
    if e < 1 - bias:  # subnormal
        scaled = _math.ldexp(x, bias - 1 + mbits)
        exp = 0
    else:
        scaled = _math.ldexp(m * 2, mbits)
        exp = e + bias
    # scaled is exact in a double for these sizes; round half to even to an integer mantissa
    q = _math.floor(scaled)
    r = scaled - q
    if r > 0.5 or (r == 0.5 and q % 2 == 1):
        q += 1
    if exp == 0:
        if q >= 1 << mbits:
            exp, q = 1, q - (1 << mbits)
    else:
        if q >= 1 << (mbits + 1):
            q >>= 1
            exp += 1
        q -= 1 << mbits
    if exp >= (1 << ebits) - 1:
        if size == 8:
            raise OverflowError("float too large to pack with d format")
        raise OverflowError(f"float too large to pack with {'e' if size == 2 else 'f'} format")
    return sign, (exp << mbits) | q


def _bits_float(sign_bit, bits, size):
    ebits, mbits = {2: (5, 10), 4: (8, 23), 8: (11, 52)}[size]
    bias = (1 << (ebits - 1)) - 1
    sign = -1.0 if sign_bit else 1.0
    exp = (bits >> mbits) & ((1 << ebits) - 1)
    man = bits & ((1 << mbits) - 1)
    if exp == (1 << ebits) - 1:
        return sign * _math.inf if man == 0 else _math.nan
    if exp == 0:
        return sign * _math.ldexp(man, 1 - bias - mbits)
    return sign * _math.ldexp(man + (1 << mbits), exp - bias - mbits)


def _index(v, code):
    if isinstance(v, bool):
        return int(v)
    if isinstance(v, int):
        return v
    if hasattr(v, "__index__"):
        return v.__index__()
    raise error("required argument is not an integer")


# CPython's wording for an integer out of range: the C type's name for 1- and 2-byte codes, the code
# for signed 4-byte ones, "argument out of range" where the value does not fit the C long it goes through.
_SMALL_NAMES = {"b": "byte", "B": "ubyte", "h": "short", "H": "ushort"}


def _range_message(code, size, native, lo, hi):
    if code in _SMALL_NAMES:
        return f"{_SMALL_NAMES[code]} format requires {lo} <= number <= {hi}"
    if code in "il" and size == 4:
        return f"'{code}' format requires {lo} <= number <= {hi}"
    return "argument out of range"


def _pack_items(items, total, little, native, values):
    if len(values) != len(items):
        raise error(f"pack expected {len(items)} items for packing (got {len(values)})")
    buf = [0] * total  # a list: the evaluator's bytearray takes no slice assignment
    for (code, count, off, size), v in zip(items, values):
        kind = _CODES[code][1]
        if kind in "iu":
            n = _index(v, code)
            if size < 8:
                bits = 8 * size
                lo, hi = (-(1 << (bits - 1)), (1 << (bits - 1)) - 1) if kind == "i" else (0, (1 << bits) - 1)
                if not lo <= n <= hi:
                    raise error(_range_message(code, size, native, lo, hi))
            elif kind == "u" and n < 0:
                raise error("argument out of range")
            # (8-byte values always fit: the evaluator's ints are 64-bit)
            data = n.to_bytes(size, "little" if little else "big", signed=kind == "i")
        elif kind == "f":
            if not isinstance(v, (int, float)):
                raise error("required argument is not a float")
            sign, rest = _float_bits(float(v), size)
            data = bytearray(rest.to_bytes(size, "big"))
            data[0] |= sign << 7
            data = bytes(data if not little else data[::-1])
        elif kind == "b":
            data = bytes([1 if v else 0])
        elif kind == "c":
            if not isinstance(v, (bytes, bytearray)) or len(v) != 1:
                raise error("char format requires a bytes object of length 1")
            data = bytes(v)
        elif kind == "s":
            if not isinstance(v, (bytes, bytearray)):
                raise error("argument for 's' must be a bytes object")
            data = bytes(v[:count]) + bytes(max(0, count - len(v)))
        else:  # p
            if not isinstance(v, (bytes, bytearray)):
                raise error("argument for 'p' must be a bytes object")
            n = min(len(v), count - 1, 255)
            data = (bytes([n]) + bytes(v[:n]) + bytes(count))[:count] if count else b""
        buf[off:off + len(data)] = list(data)
    return bytes(buf)


def _unpack_items(items, total, little, native, buffer):
    buffer = bytes(buffer)
    if len(buffer) != total:
        raise error(f"unpack requires a buffer of {total} bytes")
    out = []
    for code, count, off, size in items:
        kind = _CODES[code][1]
        data = buffer[off:off + size]
        if kind in "iu":
            out.append(int.from_bytes(data, "little" if little else "big", signed=kind == "i"))
        elif kind == "f":
            big = data if not little else data[::-1]
            sign = big[0] >> 7
            rest = int.from_bytes(bytes([big[0] & 0x7F]) + big[1:], "big")
            out.append(_bits_float(sign, rest, size))
        elif kind == "b":
            out.append(data != bytes(size))
        elif kind == "c":
            out.append(data)
        elif kind == "s":
            out.append(data)
        else:
            n = min(data[0], count - 1) if count else 0
            out.append(data[1:1 + n])
    return tuple(out)


class Struct:
    def __init__(self, format):
        self.format = format.decode("ascii") if isinstance(format, bytes) else format
        self._items, self.size, self._little, self._native = _parse(format)

    def pack(self, *values):
        return _pack_items(self._items, self.size, self._little, self._native, values)

    def pack_into(self, buffer, offset, *values):
        data = self.pack(*values)
        for k, byte in enumerate(data):
            buffer[offset + k] = byte

    def unpack(self, buffer):
        return _unpack_items(self._items, self.size, self._little, self._native, buffer)

    def unpack_from(self, buffer, offset=0):
        buffer = bytes(buffer)
        if len(buffer) - offset < self.size:
            raise error(f"unpack_from requires a buffer of at least {self.size + offset} bytes for unpacking "
                        f"{self.size} bytes at offset {offset} (actual buffer size is {len(buffer)})")
        return self.unpack(buffer[offset:offset + self.size])

    def iter_unpack(self, buffer):
        buffer = bytes(buffer)
        if self.size == 0 or len(buffer) % self.size:
            raise error(f"iterative unpacking requires a buffer of a multiple of {self.size} bytes")
        return (self.unpack(buffer[i:i + self.size]) for i in range(0, len(buffer), self.size))


def calcsize(format):
    return Struct(format).size


def pack(format, *values):
    return Struct(format).pack(*values)


def pack_into(format, buffer, offset, *values):
    Struct(format).pack_into(buffer, offset, *values)


def unpack(format, buffer):
    return Struct(format).unpack(buffer)


def unpack_from(format, buffer, offset=0):
    return Struct(format).unpack_from(buffer, offset)


def iter_unpack(format, buffer):
    return Struct(format).iter_unpack(buffer)
