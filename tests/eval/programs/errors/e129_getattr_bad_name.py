# expect-error
print('start getattr_bad_name')
getattr(1, 2)
print('not reached')
