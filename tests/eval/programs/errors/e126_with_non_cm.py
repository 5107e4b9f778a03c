# expect-error
print('start with_non_cm')
with 5:
    pass
print('not reached')
