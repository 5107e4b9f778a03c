# expect-error
print('start dict_missing_int')
print({}[42])
print('not reached')
