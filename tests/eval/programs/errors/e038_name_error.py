# expect-error
print('start name_error')
print(undefined_name)
print('not reached')
