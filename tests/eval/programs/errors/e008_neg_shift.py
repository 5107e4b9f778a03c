# expect-error
print('start neg_shift')
print(1 << -3)
print('not reached')
