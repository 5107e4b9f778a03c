# expect-error
class Base:
    def forward(self, x):
        raise NotImplementedError(f"{type(self).__name__} must implement forward")
class Child(Base):
    pass
print("calling")
Child().forward(1)
