# expect-error
print('start round_str')
print(round('x'))
print('not reached')
