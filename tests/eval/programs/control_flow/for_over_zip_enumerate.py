# `for` over zip(...) / enumerate(...) / enumerate(zip(...)): the order CPython evaluates the
# arguments in and calls __iter__, and the values bound, including `start=` and nested targets.
log = []


class Noisy:
    def __init__(self, name, items):
        self.name = name
        self.items = items

    def __iter__(self):
        log.append("iter " + self.name)
        return iter(self.items)


def arg(name, value):
    log.append("arg " + name)
    return value


for a, b in zip(arg("a", Noisy("A", [1, 2, 3])), arg("b", Noisy("B", "xy"))):
    log.append((a, b))
for i, (a, b) in enumerate(zip(arg("a", Noisy("A", [4, 5])), arg("b", Noisy("B", "pq"))), arg("s", 10)):
    log.append((i, a, b))
for i, c in enumerate(arg("c", Noisy("C", "uv")), start=arg("t", -1)):
    log.append((i, c))
for k, v in enumerate(zip()):
    log.append("never")
for i, (a, (b, c)) in enumerate(zip([1, 2], zip("ab", [True, False]))):
    log.append((i, a, b, c))
for x in zip([1, 2], [3]):
    log.append(x)
print(log)
try:
    for i in enumerate([1], start="s"):
        pass
except TypeError as e:
    print("TypeError:", e)
