# expect-error
print('start subscript_type')
print(int[0])
print('not reached')
