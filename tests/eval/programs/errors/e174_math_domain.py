# expect-error
print('start math_domain')
import math
print(math.sqrt(-4))
print('not reached')
