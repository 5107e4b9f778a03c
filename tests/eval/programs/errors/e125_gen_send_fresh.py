# expect-error
print('start gen_send_fresh')
def g():
    yield 1
g().send(5)
print('not reached')
