# expect-error
print('start raise_class')
raise KeyError
print('not reached')
