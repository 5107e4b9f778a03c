# expect-error
print('start call_missing_kwonly')
def f(*, k):
    pass
f()
print('not reached')
