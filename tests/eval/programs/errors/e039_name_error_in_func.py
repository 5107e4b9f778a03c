# expect-error
print('start name_error_in_func')
def f():
    return missing_thing
f()
print('not reached')
