# args: --max-depth 10000000
# compare: message-and-help
# Even with a huge recursion budget the native stack is checked: a clear error, never a crash.
def f(n):
    return f(n + 1) + 1


f(0)
