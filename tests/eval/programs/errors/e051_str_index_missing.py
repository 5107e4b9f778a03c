# expect-error
print('start str_index_missing')
'abc'.index('z')
print('not reached')
