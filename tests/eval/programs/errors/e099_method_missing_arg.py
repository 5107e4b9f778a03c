# expect-error
print('start method_missing_arg')
class A:
    def m(self, x):
        pass
A().m()
print('not reached')
