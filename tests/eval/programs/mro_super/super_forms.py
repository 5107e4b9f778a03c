class Base:
    def __init__(self, **kw):
        self.log = ["Base"]
    def greet(self, x):
        return f"base {x}"
    @classmethod
    def make(cls):
        return f"made {cls.__name__}"
class Mid(Base):
    def __init__(self, **kw):
        super(Mid, self).__init__(**kw)
        self.log.append("Mid")
    def greet(self, x):
        return "mid+" + super(Mid, self).greet(x)
    @classmethod
    def make(cls):
        return "mid/" + super().make()
class Leaf(Mid):
    def __init__(self):
        super().__init__(a=1)
        self.log.append("Leaf")
    def greet(self, x):
        return "leaf+" + super().greet(x)
l = Leaf()
print(l.log, l.greet(3), Leaf.make(), super(Leaf, l).greet(1), super(Mid, l).greet(2))
s = super(Leaf, l); print(type(s).__name__, s.__thisclass__.__name__)
