# expect-error
print('start import_missing_module')
try:
    import missing_module_xyz
except ImportError:
    raise
print('not reached')
