# expect-error
print('start import_missing_name')
from math import nothing_here
print('not reached')
