# expect-error
print('start percent_type')
print('%d' % 'a')
print('not reached')
