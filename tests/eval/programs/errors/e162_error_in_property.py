# expect-error
print('start error_in_property')
class A:
    @property
    def p(self):
        return [][0]
A().p
print('not reached')
