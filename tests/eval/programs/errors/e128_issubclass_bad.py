# expect-error
print('start issubclass_bad')
print(issubclass(1, int))
print('not reached')
