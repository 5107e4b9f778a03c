# expect-error
print('start import_missing_name')
from sys import nothing_here
print('not reached')
