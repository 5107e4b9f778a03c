# expect-error
print('start iter_int')
for x in 5:
    pass
print('not reached')
