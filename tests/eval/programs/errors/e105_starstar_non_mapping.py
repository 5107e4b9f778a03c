# expect-error
print('start starstar_non_mapping')
print(**5)
print('not reached')
