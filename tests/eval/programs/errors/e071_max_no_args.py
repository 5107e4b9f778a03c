# expect-error
print('start max_no_args')
print(max())
print('not reached')
