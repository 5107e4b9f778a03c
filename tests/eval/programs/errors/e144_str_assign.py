# expect-error
print('start str_assign')
s = 'abc'
s[0] = 'z'
print('not reached')
