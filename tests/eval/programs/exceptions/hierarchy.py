errs = [ZeroDivisionError, KeyError, IndexError, ValueError, TypeError, AttributeError, NameError,
        UnboundLocalError, StopIteration, RecursionError, NotImplementedError, FileNotFoundError,
        ModuleNotFoundError, UnicodeDecodeError, OverflowError, AssertionError, KeyboardInterrupt]
for e in errs:
    print(e.__name__, [b.__name__ for b in e.__mro__[1:]])
print(issubclass(KeyError, LookupError), issubclass(OSError, Exception), IOError is OSError, EnvironmentError is OSError)
