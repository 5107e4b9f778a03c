# expect-error
print('start overflow_error_float')
import math
print(math.exp(10000))
print('not reached')
