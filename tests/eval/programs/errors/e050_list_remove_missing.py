# expect-error
print('start list_remove_missing')
[1].remove(2)
print('not reached')
