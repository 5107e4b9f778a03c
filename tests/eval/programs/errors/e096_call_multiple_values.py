# expect-error
print('start call_multiple_values')
def f(a):
    pass
f(1, a=2)
print('not reached')
