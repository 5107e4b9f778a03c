# expect-error
print('start compare_none')
print(None < 1)
print('not reached')
