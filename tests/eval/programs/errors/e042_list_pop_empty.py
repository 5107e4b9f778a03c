# expect-error
print('start list_pop_empty')
[].pop()
print('not reached')
