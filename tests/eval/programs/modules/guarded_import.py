import guarded
print(guarded.HAVE, guarded.REASON, guarded.REASON2.split(" (")[0])
try:
    import mypkg.does_not_exist
except ModuleNotFoundError as e:
    print("ModuleNotFoundError:", e)
try:
    from mypkg import nothing_here
except ImportError as e:
    print("ImportError:", str(e).split(" (")[0])
