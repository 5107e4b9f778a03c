# expect-error
print('start frozen_dataclass')
from dataclasses import dataclass
@dataclass(frozen=True)
class P:
    x: int
P(1).x = 2
print('not reached')
