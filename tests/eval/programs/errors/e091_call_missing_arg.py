# expect-error
print('start call_missing_arg')
def f(a, b):
    pass
f(1)
print('not reached')
