# expect-error
print('start namedtuple_args')
from collections import namedtuple
P = namedtuple('P', 'x y')
P(1)
print('not reached')
