# expect-error
print('start reraise_bare')
try:
    [][1]
except IndexError:
    print('handling')
    raise
print('not reached')
