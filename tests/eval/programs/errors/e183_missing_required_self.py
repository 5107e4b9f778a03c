# expect-error
print('start missing_required_self')
class A:
    def m():
        pass
A().m()
print('not reached')
