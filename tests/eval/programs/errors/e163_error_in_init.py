# expect-error
print('start error_in_init')
class A:
    def __init__(self):
        self.x = int('x')
A()
print('not reached')
