class Countdown:
    def __init__(self, n): self.n = n
    def __iter__(self): return self
    def __next__(self):
        if self.n <= 0:
            raise StopIteration
        self.n -= 1
        return self.n + 1
print(list(Countdown(3)), sum(Countdown(4)), [x for x in Countdown(2)], sorted(Countdown(3)))
class Range2:
    def __init__(self, n): self.n = n
    def __iter__(self): return iter(range(self.n))
    def __reversed__(self): return iter(range(self.n - 1, -1, -1))
    def __len__(self): return self.n
r = Range2(4)
print(list(r), list(reversed(r)), len(r), min(r), max(r), list(zip(r, r)), 3 in r, dict(enumerate(r)))
it = iter([1, 2, 3]); print(next(it), list(it), next(it, "end"))
print(list(iter(Countdown(5).__next__, 2)))
