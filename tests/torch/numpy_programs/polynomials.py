# numpy's 1-D polynomials: convolve (its three modes), polyval/add/sub/mul/der/int and poly1d,
# e.g. a binomial blur filter built as (poly1d((0.5, 0.5)) ** (k - 1)).coeffs.
import numpy as np
import torch

for k in (2, 3, 5):
    c = (np.poly1d((0.5, 0.5)) ** (k - 1)).coeffs
    print(k, c.dtype, c.tolist(), c.astype(np.float32).dtype)
f = torch.tensor((np.poly1d((0.5, 0.5)) ** 4).coeffs.astype(np.float32))
print(f.dtype, f.tolist(), (f[:, None] * f[None, :]).sum().item())
print(np.convolve([1, 2, 3], [0, 1, 0.5]).tolist(), np.convolve([1, 2, 3], [0, 1, 0.5], "same").tolist())
print(np.convolve([1, 2, 3, 4], [1, -1], "valid").tolist(), np.convolve([1, 1], [1, 2, 3, 4], "same").tolist())
print(np.convolve([1, 2], [3, 4]).dtype, np.convolve([1, 2, 3, 4, 5], [1, 2, 1], "same").tolist())
p = np.poly1d([1, -3, 2])
q = np.poly1d([2, 0.5])
print(p.order, len(p), p.coeffs.tolist(), p.c.tolist(), p.coeffs.dtype, p[0], p[2], p[5], p.variable)
print(p(0), p(3), p(np.array([0.0, 1.0, 2.5])).tolist(), np.polyval([1, 0, -1], 3), np.polyval(p, 4))
print((p + q).coeffs.tolist(), (p - q).coeffs.tolist(), (q - p).coeffs.tolist(), (p * q).coeffs.tolist())
print((p * 2).coeffs.tolist(), (3 * p).coeffs.tolist(), (-p).coeffs.tolist(), (p + 1).coeffs.tolist())
print(np.polymul([1, 1], [1, -1]).tolist(), type(np.polymul(p, [1, 1])).__name__, np.polyadd([1, 2], [1, 2, 3]).tolist())
print(np.polysub([5, 0, 1], [1, 2]).tolist(), np.polyder([3, 2, 1]).tolist(), np.polyder([1, 1, 1, 1], 2).tolist())
print(np.polyint([3, 2, 1]).tolist(), np.polyint([6.0, 2.0], k=1.5).tolist(), p.deriv().coeffs.tolist(), q.integ().coeffs.tolist())
print(np.poly1d([0, 0, 1, 2]).coeffs.tolist(), np.poly1d([0, 0]).coeffs.tolist(), np.poly1d([2, 3], True).coeffs.tolist())
print(p == np.poly1d([1, -3, 2]), p == q, p != q, (p ** 0).coeffs.tolist(), (q ** 3).coeffs.tolist())
try:
    p ** -1
except ValueError as e:
    print("ValueError", e)
try:
    np.convolve([], [1])
except ValueError as e:
    print("ValueError", e)
