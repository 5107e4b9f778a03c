# expect-error
print('start ord_long')
print(ord('ab'))
print('not reached')
