# expect-error
print('start dict_bad_seq')
print(dict([1, 2]))
print('not reached')
