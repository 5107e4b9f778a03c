# expect-error
print('start enum_bad_value')
import enum
class C(enum.Enum):
    A = 1
C(2)
print('not reached')
