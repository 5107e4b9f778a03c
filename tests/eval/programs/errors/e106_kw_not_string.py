# expect-error
print('start kw_not_string')
def f(**k):
    pass
f(**{1: 2})
print('not reached')
