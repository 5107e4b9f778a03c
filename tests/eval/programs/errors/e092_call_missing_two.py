# expect-error
print('start call_missing_two')
def f(a, b, c):
    pass
f(1)
print('not reached')
