from functools import partial, reduce, partialmethod
def power(base, exp, mod=None):
    return pow(base, exp, mod)
sq = partial(power, exp=2); cube = partial(power, exp=3)
print(sq(5), cube(2), sq(7, mod=5), sq.func is power, sq.args, sq.keywords, repr(partial(max, 1))[:16])
p2 = partial(partial(power, 2), 10); print(p2(), p2.args)
print(reduce(lambda a, b: a * 10 + b, [1, 2, 3]), reduce(max, [3, 9, 2], 0), reduce(lambda a, b: a + b, [], "init"))
class Cell:
    def __init__(self): self.alive = False
    def set_state(self, state): self.alive = state
    set_alive = partialmethod(set_state, True)
c = Cell(); c.set_alive(); print(c.alive)
class Layer:
    def __init__(self, n, act="relu"): self.n, self.act = n, act
Wide = partial(Layer, act="gelu")
print(Wide(4).n, Wide(4).act, isinstance(Wide(1), Layer))
