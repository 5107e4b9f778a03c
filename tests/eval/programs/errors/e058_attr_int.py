# expect-error
print('start attr_int')
print((1).foo)
print('not reached')
