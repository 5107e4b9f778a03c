# expect-error
print('start call_too_many_defaults')
def f(a, b=1):
    pass
f(1, 2, 3)
print('not reached')
