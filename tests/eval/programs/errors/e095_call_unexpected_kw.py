# expect-error
print('start call_unexpected_kw')
def f(a):
    pass
f(1, z=2)
print('not reached')
