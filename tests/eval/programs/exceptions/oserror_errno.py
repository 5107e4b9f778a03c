# OSError(errno, ...) is the subclass its number names; errno's names and errorcode.
import errno
import os

for code in [errno.ENOENT, errno.EEXIST, errno.EACCES, errno.EPERM, errno.EISDIR, errno.ENOTDIR,
             errno.EAGAIN, errno.EPIPE, errno.ECONNREFUSED, errno.ECONNRESET, errno.ETIMEDOUT,
             errno.EINTR, errno.ESRCH, errno.ECHILD, errno.EROFS, errno.EINVAL]:
    e = OSError(code, "message", "file.txt")
    print(code, errno.errorcode[code], type(e).__name__, isinstance(e, OSError), e.errno, str(e), e.args)

print(type(OSError("just text")).__name__, type(OSError(2)).__name__, type(OSError("2", "x")).__name__)
print(type(FileNotFoundError(13, "x")).__name__)   # only OSError itself maps
print(issubclass(BrokenPipeError, ConnectionError), BlockingIOError.__mro__[1].__name__)
print(IOError is OSError, EnvironmentError is OSError, errno.EWOULDBLOCK == errno.EAGAIN)
try:
    raise OSError(errno.ENOENT, "gone")
except FileNotFoundError as e:
    print("caught", repr(e))
try:
    open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "missing.txt"))
except OSError as e:
    print("open", type(e).__name__, e.errno)
print(len(errno.errorcode) > 100, sorted(errno.errorcode)[:5])
