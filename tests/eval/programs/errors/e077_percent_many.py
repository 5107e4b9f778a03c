# expect-error
print('start percent_many')
print('%s' % (1, 2))
print('not reached')
