# expect-error
print('start set_remove_missing')
s = {1}
s.remove(2)
print('not reached')
