# expect-error
print('start call_too_many')
def f(a):
    pass
f(1, 2)
print('not reached')
