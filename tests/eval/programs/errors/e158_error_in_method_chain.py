# expect-error
print('start error_in_method_chain')
class A:
    def f(self):
        return self.g()
    def g(self):
        return 1 / 0
A().f()
print('not reached')
