# expect-error
print('start unbound_free')
def f():
    def g():
        return y
    g()
    y = 1
f()
print('not reached')
