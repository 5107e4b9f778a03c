# expect-error
print('start error_in_finally')
try:
    pass
finally:
    raise ValueError('in finally')
print('not reached')
