# expect-error
print('start setattr_int')
x = 5
x.real = 3
print('not reached')
