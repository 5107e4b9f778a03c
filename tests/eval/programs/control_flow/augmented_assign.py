class Box:
    def __init__(self): self.v = 1; self.items = [1]
b = Box()
b.v += 2; b.v *= 3; b.v -= 1; b.v //= 2; b.v **= 2; b.v %= 7; b.v <<= 2; b.v >>= 1; b.v |= 1; b.v &= 0xff; b.v ^= 3
print(b.v)
b.items += [2]; b.items *= 2; print(b.items)
d = {"k": [1]}; d["k"] += [2]; d["n"] = d.get("n", 0) + 1; print(d)
l = [1, 2, 3]; l[0] += 10; l[-1] *= 2; l[1:2] = [7, 8]; print(l)
s = "ab"; s += "c"; s *= 2; print(s)
t = (1,); t2 = t; t += (2,); print(t, t2)
x = 5; x /= 2; print(x); x //= 1; print(x)
calls = []
def key():
    calls.append("k"); return 0
arr = [10]; arr[key()] += 1; print(arr, calls)
