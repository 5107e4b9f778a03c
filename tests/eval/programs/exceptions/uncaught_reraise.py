# expect-error
def risky():
    return 1 / 0
try:
    risky()
except ZeroDivisionError:
    print("logging and re-raising")
    raise
