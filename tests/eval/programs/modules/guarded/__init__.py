try:
    import definitely_not_a_module_xyz
    HAVE = True
except ImportError as e:
    HAVE = False
    REASON = str(e)
try:
    from math import not_a_thing
except ImportError as e:
    REASON2 = str(e)
