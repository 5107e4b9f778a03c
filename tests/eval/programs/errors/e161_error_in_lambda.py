# expect-error
print('start error_in_lambda')
f = lambda x: x.nope
f(1)
print('not reached')
