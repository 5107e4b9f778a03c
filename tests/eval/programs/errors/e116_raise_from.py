# expect-error
print('start raise_from')
try:
    1 / 0
except ZeroDivisionError as e:
    raise RuntimeError('wrapped') from e
print('not reached')
