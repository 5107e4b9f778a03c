# expect-error
print('start zero_floordiv')
x = 7
print(x // 0)
print('not reached')
