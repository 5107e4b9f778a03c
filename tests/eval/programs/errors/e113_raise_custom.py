# expect-error
print('start raise_custom')
class MyError(Exception):
    pass
raise MyError('mine')
print('not reached')
