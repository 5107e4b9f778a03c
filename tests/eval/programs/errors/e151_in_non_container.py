# expect-error
print('start in_non_container')
print(1 in 5)
print('not reached')
