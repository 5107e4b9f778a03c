# expect-error
print('start super_no_args_outside')
def f():
    return super()
f()
print('not reached')
