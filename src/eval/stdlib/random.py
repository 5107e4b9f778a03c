"""random (onnxify's stdlib subset): the Mersenne Twister MT19937 and the algorithms CPython's random
module builds on it, so a program that seeds the generator (`random.seed(0)`) draws the numbers
CPython draws. Without a seed CPython starts from the operating system's entropy: those draws are
unknown values here, an error only where they matter; except where the embedding program draws them
at run time instead (`_onnxify.runtime_random`: onnxify's torch records random() and randrange()
in a model's forward as random ops of the exported graph) or seeds the generator
(`_onnxify.unseeded_seed`: onnxify's torch, while --model builds the model, with a warning)."""
import math as _math
import _onnxify

__all__ = ["Random", "seed", "random", "uniform", "randint", "randrange", "choice", "choices", "shuffle", "sample",
           "gauss", "normalvariate", "getrandbits", "getstate", "setstate", "triangular", "expovariate"]

_SEEDED = object()  # _unknown's answer when it seeded the generator
_N = 624
_M = 397
_MASK = 0xFFFFFFFF


class Random:
    VERSION = 3

    def __init__(self, x=None):
        self._mt = None
        self.gauss_next = None
        self.seed(x)

    def seed(self, a=None, version=2):
        self.gauss_next = None
        if a is None:
            self._mt = None  # seeded from the OS in CPython: unknown here
            return
        if isinstance(a, float):
            a = hash(a)
        if isinstance(a, bool):
            a = int(a)
        if not isinstance(a, int):
            raise TypeError("onnxify's random takes int seeds only (CPython hashes str/bytes seeds with SHA-512)")
        key = abs(a)
        words = []
        while key:
            words.append(key & _MASK)
            key >>= 32
        self._init_by_array(words or [0])

    def _init_genrand(self, s):
        mt = [0] * _N
        mt[0] = s & _MASK
        for i in range(1, _N):
            mt[i] = (1812433253 * (mt[i - 1] ^ (mt[i - 1] >> 30)) + i) & _MASK
        self._mt = mt
        self._mti = _N

    def _init_by_array(self, key):
        self._init_genrand(19650218)
        mt = self._mt
        i, j = 1, 0
        n = len(key)
        for _ in range(max(_N, n)):
            mt[i] = ((mt[i] ^ ((mt[i - 1] ^ (mt[i - 1] >> 30)) * 1664525)) + key[j] + j) & _MASK
            i += 1
            j += 1
            if i >= _N:
                mt[0] = mt[_N - 1]
                i = 1
            if j >= n:
                j = 0
        for _ in range(_N - 1):
            mt[i] = ((mt[i] ^ ((mt[i - 1] ^ (mt[i - 1] >> 30)) * 1566083941)) - i) & _MASK
            i += 1
            if i >= _N:
                mt[0] = mt[_N - 1]
                i = 1
        mt[0] = 0x80000000

    def _genrand(self):
        mt = self._mt
        if self._mti >= _N:
            for k in range(_N):
                y = (mt[k] & 0x80000000) | (mt[(k + 1) % _N] & 0x7FFFFFFF)
                v = mt[(k + _M) % _N] ^ (y >> 1)
                if y & 1:
                    v ^= 0x9908B0DF
                mt[k] = v
            self._mti = 0
        y = mt[self._mti]
        self._mti += 1
        y ^= y >> 11
        y ^= (y << 7) & 0x9D2C5680
        y ^= (y << 15) & 0xEFC60000
        y ^= y >> 18
        return y

    def _unknown(self, what, *args):
        """A draw from the unseeded generator: a run-time value (in forward), or _SEEDED when the
        embedding program seeds it here (`_onnxify.unseeded_seed`: while onnxify's torch builds the
        model, as if random.seed(0) had been called, with a warning), else an unknown value."""
        draw = getattr(_onnxify, "runtime_random", None)
        if draw is not None:
            value = draw(what, args)
            if value is not None:
                return value
        start = getattr(_onnxify, "unseeded_seed", None)
        if start is not None:
            seed = start(f"random.{what}()")
            if seed is not None:
                self.seed(seed)
                return _SEEDED
        return _onnxify.poison(f"random.{what}()", "the generator was not seeded (CPython seeds it from the OS); "
                               "call random.seed(N) first")

    def random(self):
        if self._mt is None:
            v = self._unknown("random")
            if v is not _SEEDED:
                return v
        a = self._genrand() >> 5
        b = self._genrand() >> 6
        return (a * 67108864.0 + b) * (1.0 / 9007199254740992.0)

    def getrandbits(self, k):
        if self._mt is None:
            v = self._unknown("getrandbits")
            if v is not _SEEDED:
                return v
        if k < 0:
            raise ValueError("number of bits must be non-negative")
        if k <= 32:
            return self._genrand() >> (32 - k) if k else 0
        out = 0
        shift = 0
        while k > 0:
            r = self._genrand()
            if k < 32:
                r >>= 32 - k
            out |= r << shift
            shift += 32
            k -= 32
        return out

    def _randbelow(self, n):
        k = n.bit_length()
        r = self.getrandbits(k)
        while r >= n:
            r = self.getrandbits(k)
        return r

    def randrange(self, start, stop=None, step=1):
        if self._mt is None:
            v = self._unknown("randrange", start, stop, step)
            if v is not _SEEDED:
                return v
        if stop is None:
            if start > 0:
                return self._randbelow(start)
            raise ValueError("empty range for randrange()")
        width = stop - start
        if step == 1:
            if width > 0:
                return start + self._randbelow(width)
            raise ValueError(f"empty range in randrange({start}, {stop})")
        if step > 0:
            n = (width + step - 1) // step
        elif step < 0:
            n = (width + step + 1) // step
        else:
            raise ValueError("zero step for randrange()")
        if n <= 0:
            raise ValueError(f"empty range in randrange({start}, {stop}, {step})")
        return start + step * self._randbelow(n)

    def randint(self, a, b):
        return self.randrange(a, b + 1)

    def choice(self, seq):
        if self._mt is None:
            v = self._unknown("choice")
            if v is not _SEEDED:
                return v
        if not len(seq):
            raise IndexError("Cannot choose from an empty sequence")
        return seq[self._randbelow(len(seq))]

    def shuffle(self, x):
        if self._mt is None and self._unknown("shuffle") is not _SEEDED:
            raise ValueError("random.shuffle() before random.seed(): the order is unknown during conversion")
        for i in reversed(range(1, len(x))):
            j = self._randbelow(i + 1)
            x[i], x[j] = x[j], x[i]

    def sample(self, population, k, *, counts=None):
        if self._mt is None:
            v = self._unknown("sample")
            if v is not _SEEDED:
                return v
        pool = list(population)
        n = len(pool)
        if not 0 <= k <= n:
            raise ValueError("Sample larger than population or is negative")
        result = [None] * k
        setsize = 21
        if k > 5:
            setsize += 4 ** _math.ceil(_math.log(k * 3, 4))
        if n <= setsize:
            for i in range(k):
                j = self._randbelow(n - i)
                result[i] = pool[j]
                pool[j] = pool[n - i - 1]
        else:
            selected = set()
            for i in range(k):
                j = self._randbelow(n)
                while j in selected:
                    j = self._randbelow(n)
                selected.add(j)
                result[i] = pool[j]
        return result

    def choices(self, population, weights=None, *, cum_weights=None, k=1):
        if self._mt is None:
            v = self._unknown("choices")
            if v is not _SEEDED:
                return v
        n = len(population)
        if cum_weights is None:
            if weights is None:
                return [population[int(self.random() * n)] for _ in range(k)]
            cum_weights = []
            total = 0
            for w in weights:
                total += w
                cum_weights.append(total)
        total = cum_weights[-1] + 0.0
        out = []
        for _ in range(k):
            x = self.random() * total
            lo, hi = 0, n - 1
            while lo < hi:
                mid = (lo + hi) // 2
                if x < cum_weights[mid]:
                    hi = mid
                else:
                    lo = mid + 1
            out.append(population[lo])
        return out

    def uniform(self, a, b):
        return a + (b - a) * self.random()

    def triangular(self, low=0.0, high=1.0, mode=None):
        u = self.random()
        try:
            c = 0.5 if mode is None else (mode - low) / (high - low)
        except ZeroDivisionError:
            return low
        if u > c:
            u = 1.0 - u
            c = 1.0 - c
            low, high = high, low
        return low + (high - low) * _math.sqrt(u * c)

    def normalvariate(self, mu=0.0, sigma=1.0):
        magic = 4 * _math.exp(-0.5) / _math.sqrt(2.0)
        while True:
            u1 = self.random()
            u2 = 1.0 - self.random()
            z = magic * (u1 - 0.5) / u2
            if z * z / 4.0 <= -_math.log(u2):
                break
        return mu + z * sigma

    def gauss(self, mu=0.0, sigma=1.0):
        z = self.gauss_next
        self.gauss_next = None
        if z is None:
            x2pi = self.random() * (2 * _math.pi)
            g2rad = _math.sqrt(-2.0 * _math.log(1.0 - self.random()))
            z = _math.cos(x2pi) * g2rad
            self.gauss_next = _math.sin(x2pi) * g2rad
        return mu + z * sigma

    def expovariate(self, lambd=1.0):
        return -_math.log(1.0 - self.random()) / lambd

    def getstate(self):
        if self._mt is None:
            v = self._unknown("getstate")
            if v is not _SEEDED:
                return v
        return (self.VERSION, tuple(self._mt) + (self._mti,), self.gauss_next)

    def setstate(self, state):
        version, internal, self.gauss_next = state
        self._mt = list(internal[:-1])
        self._mti = internal[-1]


_inst = Random()
seed = _inst.seed
random = _inst.random
uniform = _inst.uniform
triangular = _inst.triangular
randint = _inst.randint
choice = _inst.choice
randrange = _inst.randrange
sample = _inst.sample
shuffle = _inst.shuffle
choices = _inst.choices
normalvariate = _inst.normalvariate
gauss = _inst.gauss
expovariate = _inst.expovariate
getstate = _inst.getstate
setstate = _inst.setstate
getrandbits = _inst.getrandbits
