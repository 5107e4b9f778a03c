# expect-error
print('start set_pop_empty')
set().pop()
print('not reached')
