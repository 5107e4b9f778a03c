"""hashlib as far as import-time code needs it: the interpreter's own hashlib.py finds its digests in C
extension modules (_hashlib, _sha1, ...), which the evaluator does not load, and then lacks the
names (`from hashlib import sha1` fails). Here every constructor exists and its objects take
update() / copy() and know name, digest_size and block_size as CPython's do; the digest itself is an
unknown value (an error only where a model's tensors or structure depend on it)."""
import _onnxify

# name: (digest_size, block_size)
_SIZES = {
    "md5": (16, 64), "sha1": (20, 64), "sha224": (28, 64), "sha256": (32, 64), "sha384": (48, 128),
    "sha512": (64, 128), "blake2b": (64, 128), "blake2s": (32, 64), "sha3_224": (28, 144),
    "sha3_256": (32, 136), "sha3_384": (48, 104), "sha3_512": (64, 72), "shake_128": (0, 168),
    "shake_256": (0, 136),
}

algorithms_guaranteed = frozenset(_SIZES)
algorithms_available = frozenset(_SIZES)
__always_supported = tuple(_SIZES)


class _Hash:
    def __init__(self, name, data=b""):
        self.name = name
        self.digest_size, self.block_size = _SIZES[name]
        self.update(data)

    def update(self, data):
        if isinstance(data, str):
            raise TypeError("Strings must be encoded before hashing")
        if not isinstance(data, (bytes, bytearray)) and type(data).__name__ != "memoryview" \
                and not _onnxify.is_poison(data):
            raise TypeError("object supporting the buffer API required")

    def copy(self):
        return _Hash(self.name)

    def _unknown(self, what):
        return _onnxify.poison(f"hashlib.{self.name}(...).{what}()",
                               "onnxify does not compute hash digests (the value is only needed at conversion "
                               "time where a model's structure depends on it)")

    def digest(self, *length):
        return self._unknown("digest")

    def hexdigest(self, *length):
        return self._unknown("hexdigest")

    def __repr__(self):
        return f"<{self.name} _hashlib.HASH object>"


def new(name, data=b"", **kwargs):
    key = name.lower().replace("-", "_")
    if key not in _SIZES:
        raise ValueError(f"unsupported hash type {name}")
    return _Hash(key, data)


def _constructor(name):
    def make(data=b"", *, usedforsecurity=True, **kwargs):
        return _Hash(name, data)
    make.__name__ = make.__qualname__ = f"openssl_{name}"
    return make


md5 = _constructor("md5")
sha1 = _constructor("sha1")
sha224 = _constructor("sha224")
sha256 = _constructor("sha256")
sha384 = _constructor("sha384")
sha512 = _constructor("sha512")
blake2b = _constructor("blake2b")
blake2s = _constructor("blake2s")
sha3_224 = _constructor("sha3_224")
sha3_256 = _constructor("sha3_256")
sha3_384 = _constructor("sha3_384")
sha3_512 = _constructor("sha3_512")
shake_128 = _constructor("shake_128")
shake_256 = _constructor("shake_256")


def pbkdf2_hmac(hash_name, password, salt, iterations, dklen=None):
    return _onnxify.poison("hashlib.pbkdf2_hmac(...)", "onnxify does not compute hash digests")


def file_digest(fileobj, digest, /, *, _bufsize=2**18):
    h = new(digest) if isinstance(digest, str) else digest()
    return h
