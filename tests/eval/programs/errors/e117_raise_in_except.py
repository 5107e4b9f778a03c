# expect-error
print('start raise_in_except')
try:
    {}['a']
except KeyError:
    raise ValueError('second')
print('not reached')
