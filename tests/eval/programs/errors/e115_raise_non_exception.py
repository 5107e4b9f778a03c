# expect-error
print('start raise_non_exception')
raise 5
print('not reached')
