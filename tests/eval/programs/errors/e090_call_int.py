# expect-error
print('start call_int')
x = 5
x()
print('not reached')
