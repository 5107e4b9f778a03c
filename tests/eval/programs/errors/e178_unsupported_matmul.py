# expect-error
print('start unsupported_matmul')
print(3 @ 4)
print('not reached')
