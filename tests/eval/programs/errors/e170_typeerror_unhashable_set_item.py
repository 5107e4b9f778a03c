# expect-error
print('start typeerror_unhashable_set_item')
s = set()
s.add({})
print('not reached')
