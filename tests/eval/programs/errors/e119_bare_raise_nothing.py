# expect-error
print('start bare_raise_nothing')
raise
print('not reached')
