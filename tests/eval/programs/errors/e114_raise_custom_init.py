# expect-error
print('start raise_custom_init')
class E(Exception):
    def __init__(self, code):
        super().__init__(f'code {code}')
raise E(7)
print('not reached')
