# expect-error
print('start dict_missing_str')
d = {'a': 1}
print(d['b'])
print('not reached')
