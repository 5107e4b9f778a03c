# expect-error
print('start sum_str')
print(sum(['a', 'b']))
print('not reached')
