# expect-error
print('start property_no_setter')
class A:
    @property
    def x(self):
        return 1
A().x = 2
print('not reached')
