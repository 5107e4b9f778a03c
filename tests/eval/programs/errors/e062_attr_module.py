# expect-error
print('start attr_module')
import math
print(math.nothing)
print('not reached')
