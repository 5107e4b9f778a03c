# expect-error
print('start popitem_empty')
{}.popitem()
print('not reached')
