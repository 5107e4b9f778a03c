# expect-error
print('start recursion')
def f(n):
    return f(n + 1)
f(0)
print('not reached')
