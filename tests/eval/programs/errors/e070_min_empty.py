# expect-error
print('start min_empty')
print(min([]))
print('not reached')
