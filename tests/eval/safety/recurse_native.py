# Recursion through a dunder (no Python frame in between is visible to the user) still stops.
class A:
    def __repr__(self):
        return repr(self)


print(A())
