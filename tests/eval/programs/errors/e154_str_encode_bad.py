# expect-error
print('start str_encode_bad')
print('é'.encode('ascii'))
print('not reached')
