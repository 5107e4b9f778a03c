# expect-error
print('start percent_mapping')
print('%(a)s' % {})
print('not reached')
