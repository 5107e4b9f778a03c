# expect-error
print('start not_implemented')
class A:
    def f(self):
        raise NotImplementedError('subclass must')
A().f()
print('not reached')
