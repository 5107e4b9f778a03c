# expect-error
print('start int_parse_base')
print(int('9', 8))
print('not reached')
