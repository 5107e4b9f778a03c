# expect-error
print('start type_three_args')
type('A', 1, {})
print('not reached')
