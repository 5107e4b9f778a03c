# expect-error
print('start tuple_assign')
t = (1, 2)
t[0] = 5
print('not reached')
