# expect-error
print('start subscript_int')
print((5)[0])
print('not reached')
