"""os (onnxify's stdlib subset): constants and the pure parts; everything that touches files,
processes or the machine is unknown (poison). Evaluated code sees an empty environment (os.environ)
and the working directory's name (os.getcwd(), which reads no file), so that path checks like
torchvision's "imported from its own source folder?" have an answer."""
import _onnxify
from os import path

name = "posix"
sep = "/"
altsep = None
extsep = "."
pathsep = ":"
linesep = "\n"
curdir = "."
pardir = ".."
defpath = "/bin:/usr/bin"
devnull = "/dev/null"
environ = {}
supports_bytes_environ = True
SEEK_SET, SEEK_CUR, SEEK_END = 0, 1, 2


def getcwd():
    return _onnxify.getcwd()


def getcwdb():
    return _onnxify.getcwd().encode()


def getenv(key, default=None):
    return environ.get(key, default)


def fspath(p):
    if isinstance(p, (str, bytes)):
        return p
    f = getattr(type(p), "__fspath__", None)
    if f is None:
        raise TypeError("expected str, bytes or os.PathLike object, not " + type(p).__name__)
    return f(p)


def fsencode(filename):
    filename = fspath(filename)
    return filename.encode("utf-8") if isinstance(filename, str) else filename


def fsdecode(filename):
    filename = fspath(filename)
    return filename.decode("utf-8") if isinstance(filename, bytes) else filename


_onnxify.poison_transparent(fspath, fsencode, fsdecode)


class PathLike:
    @classmethod
    def __subclasshook__(cls, subclass):
        return hasattr(subclass, "__fspath__")

    # PEP 585: os.PathLike[str] in annotations and type aliases, as CPython 3.9+.
    def __class_getitem__(cls, item):
        return _onnxify.GenericAlias(cls, item)


def _unavailable(fname, why):
    return _onnxify.poison("os." + fname, "os.%s() is not available: %s" % (fname, why), False)


for _fname in ("system", "popen", "spawnl", "spawnv", "execv", "execvp", "execl", "fork", "kill", "_exit",
               "startfile", "posix_spawn"):
    globals()[_fname] = _unavailable(_fname, "onnxify does not run processes")
for _fname in ("listdir", "scandir", "walk", "stat", "lstat", "mkdir", "makedirs", "remove", "unlink", "rmdir",
               "removedirs", "rename", "replace", "chdir", "chmod", "open", "close", "read", "write",
               "access", "symlink", "readlink", "utime", "truncate", "link"):
    globals()[_fname] = _unavailable(_fname, "onnxify does not access files")
for _fname in ("cpu_count", "getpid", "getppid", "getuid", "urandom", "times", "uname", "getlogin"):
    globals()[_fname] = _unavailable(_fname, "the host machine is not visible to evaluated code")
del _fname
