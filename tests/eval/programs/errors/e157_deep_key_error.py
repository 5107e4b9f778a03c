# expect-error
print('start deep_key_error')
def a(d):
    return b(d)
def b(d):
    return d['missing']
a({})
print('not reached')
