import sys
print(sys.version_info[:2] >= (3, 8), sys.version_info.major, type(sys.maxsize).__name__, sys.maxsize == 9223372036854775807)
print("sys" in sys.modules, sys.modules[__name__].__name__, sys.byteorder, sys.platform.startswith("linux"))
print(sys.getrecursionlimit() >= 1000, isinstance(sys.argv, list), sys.float_info.max > 1e308, sys.float_info.epsilon)
print(sys.int_info.bits_per_digit in (15, 30), callable(sys.exit), sys.hash_info.modulus)
