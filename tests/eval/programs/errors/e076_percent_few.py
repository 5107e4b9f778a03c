# expect-error
print('start percent_few')
print('%s %s' % ('a',))
print('not reached')
