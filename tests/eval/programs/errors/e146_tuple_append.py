# expect-error
print('start tuple_append')
(1, 2).append(3)
print('not reached')
