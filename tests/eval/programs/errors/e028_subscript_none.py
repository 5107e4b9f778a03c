# expect-error
print('start subscript_none')
x = None
print(x[0])
print('not reached')
