# expect-error
print('start attr_none')
x = None
x.append(1)
print('not reached')
