# expect-error
print('start tuple_index_missing')
(1, 2).index(9)
print('not reached')
