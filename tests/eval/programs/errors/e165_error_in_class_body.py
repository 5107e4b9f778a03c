# expect-error
print('start error_in_class_body')
class A:
    x = 1 / 0
print('not reached')
