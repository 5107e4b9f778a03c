r = range(2, 20, 3)
print(r, list(r), len(r), r[0], r[-1], r[1:3], r[::-1], list(r[::-2]), 11 in r, 12 in r, r.index(8), r.count(5))
print(list(range(5, 0, -1)), list(range(0)), list(range(-3, 3)), range(10)[-3:], len(range(0, 10, 3)))
print(range(0, 10, 2) == range(0, 9, 2), range(0) == range(5, 5), hash(range(3)) == hash(range(0, 3)))
print(reversed(range(3)).__class__.__name__, list(reversed(range(1, 10, 4))), sum(range(1, 101)), max(range(7)))
s = "0123456789"
print(s[2:7], s[:3], s[7:], s[-3:], s[:-3], s[::3], s[1::2], s[::-2], s[8:2:-2], s[100:], s[-100:2])
l = list(range(10))
print(l[2:5], l[::-1][:3], l[-1:-4:-1], l[5:1], l[slice(1, 8, 3)], l[slice(None, None, -3)])
l[2:5] = ["a", "b"]
print(l)
l[::3] = [0, 0, 0]
print(l)
del l[::2]
print(l)
l[1:1] = [99, 98]
print(l, l[:] is l, l[:] == l)
sl = slice(1, 10, 2)
print(sl.start, sl.stop, sl.step, sl.indices(5), slice(-1, None).indices(4), slice(None, None, -1).indices(3))
t = tuple(range(6))
print(t[1:4], t[::-1], t[-2:], t[4:1:-1])
