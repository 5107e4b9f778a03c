# numpy arrays of dtype object (shapes with an unknown dim, as Keras computes output shapes) and delete.
import numpy as np
import torch  # noqa: F401  (the test exports torch.nn.Identity() from this file)

a = np.array((None, 32, 32, 8))
print(a.dtype, a.shape, a.ndim, a.size, a.tolist(), list(a), a[0], a[-1], repr(a), len(a), None in a, 5 in a)
s = a[1:-1]
print(s.dtype, s.shape, s.tolist(), repr(s[[0, 1]]), repr(s[np.array([True, False])]))
r = np.floor((s - np.array((2, 2))) / 2) + 1
print(r.dtype, repr(r), [int(i) for i in r], [type(i).__name__ for i in r])
s2 = a[1:-1]
s2[0] = -1
print(repr(np.floor((s2 - 1) / np.array([2, 2])) + 1), repr(np.ceil(s2 / 3)), repr(-s2), repr(abs(s2)), repr(s2 * 2))
print(repr(a == None), repr(s > 16), repr(s == 32), repr(np.array([1, 2]) - s), repr(s // 3), repr(s % 5), repr(s ** 2))
b = np.array([[None, 1], [2, 3]])
print(b.shape, b.tolist(), repr(b[0]), b[1, 1], repr(b[:, 1]), repr(b.reshape(-1)), repr(b.flatten()))
c = a[1:]
print(repr(c.astype(int)), np.prod(c), np.sum(c), np.max(c), np.min(c), c.prod(), np.any(c), np.all(a))
c[1:] = [3, 4]
print(c.tolist(), a.tolist())
d = np.array([1, 2, 3], dtype=object)
d += 1
print(repr(d), d.dtype == np.dtype("O"), np.dtype(object) is d.dtype, repr(np.array(d, dtype="int64")))
e = np.arange(6).reshape(2, 3)
print(np.delete(e, 1).tolist(), np.delete(e, [0, 2], axis=1).tolist(), np.delete(e, slice(0, 1), 0).tolist(),
      np.delete(e, -1, axis=1).tolist(), np.delete(np.array([1, 2, 3]), [True, False, True]).tolist())
try:
    np.delete(e, 5, axis=1)
except IndexError as exc:
    print("IndexError", exc)
print(repr(np.delete(np.array((None, 4, 5)), 0)))
