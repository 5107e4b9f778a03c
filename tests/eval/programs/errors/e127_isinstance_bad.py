# expect-error
print('start isinstance_bad')
print(isinstance(1, 1))
print('not reached')
