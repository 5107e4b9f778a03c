# expect-error
print('start str_times_str')
print('a' * 'b')
print('not reached')
