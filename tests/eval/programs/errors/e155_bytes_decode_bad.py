# expect-error
print('start bytes_decode_bad')
print(b'\xff'.decode('utf-8'))
print('not reached')
