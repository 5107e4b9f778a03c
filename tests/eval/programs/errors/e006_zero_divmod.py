# expect-error
print('start zero_divmod')
print(divmod(3, 0))
print('not reached')
