"""silenced(): a context in which nothing reaches the terminal — for PyTorch's exporters, which
print progress lines, FX graphs and warnings on file descriptors 1 and 2 from Python and from C++,
and for ONNX Runtime, which logs a kernel's failure on stderr before it raises."""
import contextlib
import os
import sys
import warnings


@contextlib.contextmanager
def silenced():
    sys.stdout.flush()
    sys.stderr.flush()
    saved = os.dup(1), os.dup(2)
    null = os.open(os.devnull, os.O_WRONLY)
    try:
        os.dup2(null, 1)
        os.dup2(null, 2)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            yield
    finally:
        sys.stdout.flush()
        sys.stderr.flush()
        os.dup2(saved[0], 1)
        os.dup2(saved[1], 2)
        for fd in (null, *saved):
            os.close(fd)
