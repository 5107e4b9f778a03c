# expect-error
print('start invert_float')
print(~1.5)
print('not reached')
