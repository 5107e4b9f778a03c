# expect-error
print('start error_in_dunder')
class A:
    def __add__(self, o):
        raise TypeError('no adding')
A() + A()
print('not reached')
