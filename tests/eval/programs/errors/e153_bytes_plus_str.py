# expect-error
print('start bytes_plus_str')
print(b'a' + 'b')
print('not reached')
