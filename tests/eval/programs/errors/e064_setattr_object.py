# expect-error
print('start setattr_object')
o = object()
o.a = 1
print('not reached')
