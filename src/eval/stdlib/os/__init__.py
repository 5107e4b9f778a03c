"""os (onnxify's stdlib subset): constants, the pure parts and read-only queries of files under the
import roots (listdir, scandir, walk, stat, access); writing files, processes and the machine are unknown
(poison). Evaluated code sees the working directory's name (os.getcwd(), which reads no file), so
that path checks like torchvision's "imported from its own source folder?" have an answer, and an
environment (os.environ) of two entries: Keras 3 runs on its torch backend (the one onnxify
evaluates), with its home in onnxify's embedded folder, where no keras.json is (a user's Keras
configuration is not read, as no file outside the import roots is)."""
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
environ = {"KERAS_BACKEND": "torch", "KERAS_HOME": "<onnxify>/keras"}
supports_bytes_environ = True
SEEK_SET, SEEK_CUR, SEEK_END = 0, 1, 2
F_OK, R_OK, W_OK, X_OK = 0, 4, 2, 1


def getcwd():
    return _onnxify.getcwd()


def getcwdb():
    return _onnxify.getcwd().encode()


def getenv(key, default=None):
    return environ.get(key, default)


# The environment of processes this one starts (none here). As in CPython, os.environ does not
# change; the arguments are checked as CPython's posix module and libc check them. numpy 2.4 calls
# os.putenv while it is imported.
def _env_arg(x):
    x = fspath(x)
    if ("\0" if isinstance(x, str) else b"\0") in x:
        raise ValueError("embedded null byte")
    return x


def putenv(name, value):
    name, value = _env_arg(name), _env_arg(value)
    if ("=" if isinstance(name, str) else b"=") in name:
        raise ValueError("illegal environment variable name")
    if not name:
        raise OSError(22, "Invalid argument")


def unsetenv(name):
    name = _env_arg(name)
    if not name or ("=" if isinstance(name, str) else b"=") in name:
        raise OSError(22, "Invalid argument")


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
for _fname in ("mkdir", "makedirs", "remove", "unlink", "rmdir", "removedirs", "rename", "replace", "chmod",
               "symlink", "utime", "truncate", "link"):
    globals()[_fname] = _unavailable(_fname, "onnxify does not write files")
for _fname in ("open", "close", "read", "write", "readlink", "chdir"):
    globals()[_fname] = _unavailable(_fname, "onnxify reads files only through open(), os.listdir/scandir/stat")


# Reading the file system: only under the import roots (src/eval/file_access.h decides; a path outside
# them gives an unknown value).
class stat_result:
    """os.stat_result: the ten fields as a sequence and as attributes."""

    n_sequence_fields = 10
    _fields = ("st_mode", "st_ino", "st_dev", "st_nlink", "st_uid", "st_gid", "st_size", "st_atime", "st_mtime",
               "st_ctime")

    def __init__(self, fields):
        self._t = tuple(fields)
        for name, value in zip(self._fields, self._t):
            setattr(self, name, value)

    def __getitem__(self, i):
        return int(self._t[i]) if isinstance(i, int) and 7 <= i % 10 else self._t[i]

    def __len__(self):
        return 10

    def __iter__(self):
        return iter(self[i] for i in range(10))

    def __eq__(self, other):
        return isinstance(other, stat_result) and self._t == other._t

    def __repr__(self):
        return "os.stat_result(" + ", ".join("%s=%r" % (n, self[i]) for i, n in enumerate(self._fields)) + ")"


def stat(path, *, dir_fd=None, follow_symlinks=True):
    path = fsdecode(path)
    r = _onnxify.fs_stat(path, follow_symlinks)
    return r if _onnxify.is_poison(r) else stat_result(r)


def access(path, mode, *, dir_fd=None, effective_ids=False, follow_symlinks=True):
    """As CPython's on a read-only file system: W_OK is never granted (onnxify writes nothing, which
    code that falls back when a folder is not writable takes as it is); existence, reading and
    searching are answered for paths under the import roots (any other path is unknown)."""
    if not isinstance(mode, int):
        raise TypeError("'%s' object cannot be interpreted as an integer" % type(mode).__name__)
    path = fsdecode(path)
    if _onnxify.is_poison(path):
        return path
    try:
        r = _onnxify.fs_stat(path, follow_symlinks)
    except (OSError, ValueError):
        return False
    if _onnxify.is_poison(r):
        return False if mode & W_OK else r
    if mode & W_OK:
        return False
    if mode & X_OK:
        st = stat_result(r)
        return bool(st.st_mode & 0o111) or (st.st_mode & 0o170000) == 0o040000
    return True


def lstat(path, *, dir_fd=None):
    return stat(path, follow_symlinks=False)


def listdir(path="."):
    if isinstance(path, bytes):
        return [n.encode() for n in _onnxify.fs_listdir(path.decode())]
    return _onnxify.fs_listdir(fspath(path))


class DirEntry:
    """One entry of os.scandir: the file type is asked when needed (lstat / stat under the roots)."""

    def __init__(self, folder, name):
        self.name = name
        self.path = path.join(folder, name)
        self._lstat = None
        self._stat = None

    def stat(self, *, follow_symlinks=True):
        if not follow_symlinks:
            if self._lstat is None:
                self._lstat = lstat(self.path)
            return self._lstat
        if self._stat is None:
            self._stat = stat(self.path)
        return self._stat

    def _mode(self, follow_symlinks):
        try:
            st = self.stat(follow_symlinks=follow_symlinks)
        except FileNotFoundError:
            return 0
        return st if _onnxify.is_poison(st) else st.st_mode

    def is_dir(self, *, follow_symlinks=True):
        m = self._mode(follow_symlinks)
        return m if _onnxify.is_poison(m) else m & 0o170000 == 0o040000

    def is_file(self, *, follow_symlinks=True):
        m = self._mode(follow_symlinks)
        return m if _onnxify.is_poison(m) else m & 0o170000 == 0o100000

    def is_symlink(self):
        m = self._mode(False)
        return m if _onnxify.is_poison(m) else m & 0o170000 == 0o120000

    def inode(self):
        return self.stat(follow_symlinks=False).st_ino

    def __fspath__(self):
        return self.path

    def __repr__(self):
        return "<DirEntry %r>" % self.name


class _ScandirIterator:
    def __init__(self, folder, names):
        self._it = iter([DirEntry(folder, n) for n in names])

    def __iter__(self):
        return self

    def __next__(self):
        return next(self._it)

    def close(self):
        self._it = iter(())

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


def scandir(path="."):
    path = fspath(path)
    names = listdir(path)
    if _onnxify.is_poison(names):
        return names
    return _ScandirIterator(path, names)


def walk(top, topdown=True, onerror=None, followlinks=False):
    top = fspath(top)
    try:
        entries = list(scandir(top))
    except OSError as error:
        if onerror is not None:
            onerror(error)
        return
    dirs, nondirs, walk_dirs = [], [], []
    for entry in entries:
        is_dir = entry.is_dir()
        (dirs if is_dir else nondirs).append(entry.name)
        if not topdown and is_dir and (followlinks or not entry.is_symlink()):
            walk_dirs.append(entry.path)
    if topdown:
        yield top, dirs, nondirs
        for dirname in dirs:
            new_path = path.join(top, dirname)
            if followlinks or not path.islink(new_path):
                yield from walk(new_path, topdown, onerror, followlinks)
    else:
        for new_path in walk_dirs:
            yield from walk(new_path, topdown, onerror, followlinks)
        yield top, dirs, nondirs


class uname_result(tuple):
    """os.uname_result: (sysname, nodename, release, version, machine), also as attributes."""
    _fields = ("sysname", "nodename", "release", "version", "machine")

    def __new__(cls, fields):
        return tuple.__new__(cls, fields)

    sysname = property(lambda self: self[0])
    nodename = property(lambda self: self[1])
    release = property(lambda self: self[2])
    version = property(lambda self: self[3])
    machine = property(lambda self: self[4])

    def __repr__(self):
        return "posix.uname_result(" + ", ".join("%s=%r" % (n, self[i]) for i, n in enumerate(self._fields)) + ")"


def uname():
    return uname_result(_onnxify.uname())


for _fname in ("cpu_count", "getpid", "getppid", "getuid", "urandom", "times", "getlogin"):
    globals()[_fname] = _unavailable(_fname, "the host machine is not visible to evaluated code")
del _fname
