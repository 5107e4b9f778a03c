"""os.path (onnxify's stdlib subset): pure path arithmetic, and the file system queries (exists,
isfile, isdir, getsize, ...) answered for paths under the import roots only."""
import _onnxify

sep = "/"
curdir = "."
pardir = ".."
extsep = "."
altsep = None
pathsep = ":"
defpath = "/bin:/usr/bin"
devnull = "/dev/null"
supports_unicode_filenames = False


def _fspath(p):
    import os
    return os.fspath(p)


def isabs(s):
    s = _fspath(s)
    return s.startswith("/")


def join(a, *p):
    a = _fspath(a)
    path = a
    for b in map(_fspath, p):
        if b.startswith("/"):
            path = b
        elif not path or path.endswith("/"):
            path += b
        else:
            path += "/" + b
    return path


def split(p):
    p = _fspath(p)
    i = p.rfind("/") + 1
    head, tail = p[:i], p[i:]
    if head and head != "/" * len(head):
        head = head.rstrip("/")
    return head, tail


def splitext(p):
    p = _fspath(p)
    sep_index = p.rfind("/")
    dot_index = p.rfind(".")
    if dot_index > sep_index:
        filename_index = sep_index + 1
        while filename_index < dot_index:
            if p[filename_index] != ".":
                return p[:dot_index], p[dot_index:]
            filename_index += 1
    return p, p[:0]


def splitdrive(p):
    p = _fspath(p)
    return p[:0], p


def basename(p):
    p = _fspath(p)
    i = p.rfind("/") + 1
    return p[i:]


def dirname(p):
    p = _fspath(p)
    i = p.rfind("/") + 1
    head = p[:i]
    if head and head != "/" * len(head):
        head = head.rstrip("/")
    return head


def normpath(path):
    path = _fspath(path)
    if path == "":
        return "."
    initial_slashes = path.startswith("/")
    if initial_slashes and path.startswith("//") and not path.startswith("///"):
        initial_slashes = 2
    comps = path.split("/")
    new_comps = []
    for comp in comps:
        if comp in ("", "."):
            continue
        if (comp != ".." or (not initial_slashes and not new_comps) or (new_comps and new_comps[-1] == "..")):
            new_comps.append(comp)
        elif new_comps:
            new_comps.pop()
    comps = new_comps
    path = "/".join(comps)
    if initial_slashes:
        path = "/" * initial_slashes + path
    return path or "."


def commonprefix(m):
    if not m:
        return ""
    s1 = min(m)
    s2 = max(m)
    for i, c in enumerate(s1):
        if c != s2[i]:
            return s1[:i]
    return s1


def commonpath(paths):
    if not paths:
        raise ValueError("commonpath() arg is an empty sequence")
    split_paths = [path.split("/") for path in paths]
    isabs_ = {p.startswith("/") for p in paths}
    if len(isabs_) != 1:
        raise ValueError("Can't mix absolute and relative paths")
    split_paths = [[c for c in s if c and c != "."] for s in split_paths]
    s1 = min(split_paths)
    s2 = max(split_paths)
    common = s1
    for i, c in enumerate(s1):
        if c != s2[i]:
            common = s1[:i]
            break
    prefix = "/" if isabs_.pop() else ""
    return prefix + "/".join(common)


def relpath(path, start=None):
    start_list = [x for x in abspath(curdir if start is None else start).split("/") if x]
    path_list = [x for x in abspath(path).split("/") if x]
    i = len(commonprefix([start_list, path_list]))
    rel_list = [pardir] * (len(start_list) - i) + path_list[i:]
    if not rel_list:
        return curdir
    return join(*rel_list)


def abspath(path):
    path = _fspath(path)
    if isabs(path):
        return normpath(path)
    return normpath(join(_onnxify.getcwd(), path))


def realpath(path, *, strict=False):
    """abspath: symbolic links are not resolved (that would read the file system)."""
    return abspath(path)


def expanduser(path):
    path = _fspath(path)
    if not path.startswith("~"):
        return path
    return _onnxify.poison("os.path.expanduser", "the home directory is not visible to evaluated code")


def expandvars(path):
    return _fspath(path)


def normcase(s):
    return _fspath(s)


# File system queries: answered under the import roots (src/eval/file_access.h), an unknown value
# for a path outside them.
def _stat(p, follow=True):
    import os
    try:
        return os.stat(p, follow_symlinks=follow)
    except (OSError, ValueError):
        return None


def _kind(p, kind, follow=True):
    st = _stat(p, follow)
    if st is None:
        return False
    if _onnxify.is_poison(st):
        return st
    return st.st_mode & 0o170000 == kind


def exists(path):
    st = _stat(path)
    return st if _onnxify.is_poison(st) else st is not None


def lexists(path):
    st = _stat(path, False)
    return st if _onnxify.is_poison(st) else st is not None


def isfile(path):
    return _kind(path, 0o100000)


def isdir(s):
    return _kind(s, 0o040000)


def islink(path):
    return _kind(path, 0o120000, False)


def ismount(path):
    return _onnxify.poison("os.path.ismount", "os.path.ismount() is not available: mount points are not visible")


def getsize(filename):
    import os
    return os.stat(filename).st_size


def getmtime(filename):
    import os
    return os.stat(filename).st_mtime


def getatime(filename):
    import os
    return os.stat(filename).st_atime


def getctime(filename):
    import os
    return os.stat(filename).st_ctime


def samefile(f1, f2):
    import os
    s1, s2 = os.stat(f1), os.stat(f2)
    if _onnxify.is_poison(s1):
        return s1
    if _onnxify.is_poison(s2):
        return s2
    return s1.st_ino == s2.st_ino and s1.st_dev == s2.st_dev


# Pure string functions: an unknown argument (a directory from torch.hub) gives an unknown result.
_onnxify.poison_transparent(
    *[_v for _k, _v in list(globals().items()) if not _k.startswith("_") and type(_v).__name__ == "function"]
)
