# expect-error
print('start neg_str')
print(-'x')
print('not reached')
