# expect-error
print('start init_missing')
class A:
    def __init__(self, x):
        self.x = x
A()
print('not reached')
