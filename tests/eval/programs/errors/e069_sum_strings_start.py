# expect-error
print('start sum_strings_start')
print(sum(['a'], ''))
print('not reached')
