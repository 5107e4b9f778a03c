# expect-error
print('start zero_mod')
print(5 % 0)
print('not reached')
