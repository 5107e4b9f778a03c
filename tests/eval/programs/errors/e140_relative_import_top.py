# expect-error
print('start relative_import_top')
from . import x
print('not reached')
