# expect-error
print('start dict_missing_tuple')
print({}[(1, 2)])
print('not reached')
