# expect-error
print('start dict_pop_missing')
{}.pop('k')
print('not reached')
