# hashlib's names and hash objects as import-time code uses them (diffusers' `from hashlib import
# sha1`); digests themselves are not printed (onnxify leaves them unknown).
import hashlib
from hashlib import sha1, md5, sha256, blake2b, new

for ctor in (sha1, md5, sha256, blake2b, hashlib.sha512, hashlib.sha3_256):
    h = ctor(b"abc")
    h.update(b"def")
    g = h.copy()
    print(h.name, h.digest_size, h.block_size, g.name)
h = new("SHA256", b"x")
print(h.name, h.digest_size)
print(sorted(a for a in hashlib.algorithms_guaranteed if not a.startswith("shake")))
for bad in ("str", 3):
    try:
        sha1(bad)
    except TypeError as e:
        print("TypeError", e)
try:
    new("nope")
except ValueError as e:
    print("ValueError", e)
