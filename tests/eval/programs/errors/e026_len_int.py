# expect-error
print('start len_int')
print(len(5))
print('not reached')
