# expect-error
print('start error_in_with_exit')
class C:
    def __enter__(self):
        return self
    def __exit__(self, *a):
        raise KeyError('exit')
with C():
    pass
print('not reached')
