# expect-error
print('start method_unbound')
class A:
    def m(self):
        pass
A.m()
print('not reached')
