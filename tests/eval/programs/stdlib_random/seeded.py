# random with a seed draws what CPython draws (MT19937 and CPython's algorithms on top of it).
import random

for s in (0, 7, 2 ** 40 + 12345, -3):
    random.seed(s)
    print(s, [random.random() for _ in range(3)], random.randint(1, 6), random.randrange(0, 100, 5))
    print(random.getrandbits(40), random.uniform(-1, 1), random.gauss(0, 1), random.normalvariate(2, 3))
    xs = list(range(12))
    random.shuffle(xs)
    print(xs, random.choice("abcdef"), random.sample(range(50), 6), random.choices([1, 2, 3], [5, 1, 1], k=4))

rng = random.Random(99)
print(rng.random(), rng.randint(0, 10**12), rng.triangular(0, 10, 3), rng.expovariate(2.0))
state = rng.getstate()
a = [rng.random() for _ in range(3)]
rng.setstate(state)
print(a == [rng.random() for _ in range(3)])
random.seed(5)
drop = [round(random.random(), 4) for _ in range(4)]
print(drop, sorted(random.sample(range(1000), 300))[:5])
