# expect-error
print('start dict_bad_pair')
print(dict([(1, 2, 3)]))
print('not reached')
