# expect-error
print('start generator_exit_ignored')
def g():
    while True:
        try:
            yield 1
        except GeneratorExit:
            pass
x = g()
next(x)
x.close()
print('not reached')
