# expect-error
print('start call_posonly_kw')
def f(a, /):
    pass
f(a=1)
print('not reached')
