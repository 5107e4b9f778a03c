# expect-error
print('start unbound_local')
def f():
    print(x)
    x = 1
f()
print('not reached')
