"""pathlib (onnxify's stdlib subset): posix paths. The pure parts are string arithmetic; the queries
(exists, is_dir, iterdir, stat, read_text, ...) read files under the import roots only, as os does;
writing (mkdir, write_text, unlink, ...) is unknown."""
import os
import re

import _onnxify


class PurePath:
    def __new__(cls, *args):
        if cls is PurePath:
            cls = PurePosixPath
        self = object.__new__(cls)
        parts = []
        for a in args:
            if isinstance(a, PurePath):
                a = a._str
            else:
                a = os.fspath(a)
                if not isinstance(a, str):
                    raise TypeError("argument should be a str object or an os.PathLike object returning str, "
                                    "not %r" % type(a))
            if a.startswith("/"):
                parts = [a]
            elif a:
                parts.append(a)
        self._str = self._normalize("/".join(parts))
        return self

    @staticmethod
    def _normalize(s):
        if not s:
            return "."
        root = "//" if s.startswith("//") and not s.startswith("///") else ("/" if s.startswith("/") else "")
        comps = [c for c in s.split("/") if c and c != "."]
        return root + "/".join(comps) if comps else (root or ".")

    def _from(self, s):
        return type(self)(s)

    def __str__(self):
        return self._str

    def __fspath__(self):
        return self._str

    def as_posix(self):
        return self._str

    def __repr__(self):
        return "%s(%r)" % (type(self).__name__, self._str)

    def __hash__(self):
        return hash(self._str)

    def __eq__(self, other):
        if not isinstance(other, PurePath):
            return NotImplemented
        return self._str == other._str

    def __lt__(self, other):
        if not isinstance(other, PurePath):
            return NotImplemented
        return self.parts < other.parts

    def __le__(self, other):
        if not isinstance(other, PurePath):
            return NotImplemented
        return self.parts <= other.parts

    def __gt__(self, other):
        if not isinstance(other, PurePath):
            return NotImplemented
        return self.parts > other.parts

    def __ge__(self, other):
        if not isinstance(other, PurePath):
            return NotImplemented
        return self.parts >= other.parts

    def __truediv__(self, key):
        try:
            return self._from_parts(self, key)
        except TypeError:
            return NotImplemented

    def __rtruediv__(self, key):
        try:
            return self._from_parts(key, self)
        except TypeError:
            return NotImplemented

    def _from_parts(self, *args):
        return type(self)(*args)

    def joinpath(self, *args):
        return type(self)(self, *args)

    @property
    def parts(self):
        s = self._str
        if s == ".":
            return ()
        root = "//" if s.startswith("//") else ("/" if s.startswith("/") else "")
        comps = [c for c in s[len(root):].split("/") if c]
        return tuple(([root] if root else []) + comps)

    @property
    def drive(self):
        return ""

    @property
    def root(self):
        return "//" if self._str.startswith("//") else ("/" if self._str.startswith("/") else "")

    @property
    def anchor(self):
        return self.root

    @property
    def name(self):
        parts = self.parts
        if not parts or (len(parts) == 1 and self.root):
            return ""
        return parts[-1]

    @property
    def suffix(self):
        name = self.name
        i = name.rfind(".")
        return name[i:] if 0 < i < len(name) - 1 else ""

    @property
    def suffixes(self):
        name = self.name
        if name.endswith("."):
            return []
        name = name.lstrip(".")
        return ["." + s for s in name.split(".")[1:]]

    @property
    def stem(self):
        name, suffix = self.name, self.suffix
        return name[:len(name) - len(suffix)] if suffix else name

    @property
    def parent(self):
        parts = self.parts
        if not parts or (len(parts) == 1 and self.root):
            return self
        if len(parts) == 1:
            return self._from(".")
        rest = parts[:-1]
        if self.root and len(rest) == 1:
            return self._from(self.root)
        return self._from((self.root if self.root else "") + "/".join(rest[1:] if self.root else rest))

    @property
    def parents(self):
        out = []
        p = self
        while True:
            q = p.parent
            if q == p:
                break
            out.append(q)
            p = q
        return tuple(out)

    def with_name(self, name):
        if not self.name:
            raise ValueError("%r has an empty name" % (self,))
        if not name or "/" in name or name == ".":
            raise ValueError("Invalid name %r" % (name,))
        return self.parent / name if str(self.parent) != "." else self._from(name)

    def with_stem(self, stem):
        return self.with_name(stem + self.suffix)

    def with_suffix(self, suffix):
        if "/" in suffix or (suffix and not suffix.startswith(".")) or suffix == ".":
            raise ValueError("Invalid suffix %r" % (suffix,))
        name = self.name
        if not name:
            raise ValueError("%r has an empty name" % (self,))
        return self.with_name(self.stem + suffix)

    def is_absolute(self):
        return self._str.startswith("/")

    def is_relative_to(self, *other):
        try:
            self.relative_to(*other)
            return True
        except ValueError:
            return False

    def relative_to(self, *other):
        base = type(self)(*other)
        n = len(base.parts)
        if self.parts[:n] != base.parts or (n == 0 and self.root):
            raise ValueError("%r is not in the subpath of %r OR one path is relative and the other is absolute."
                             % (str(self), str(base)))
        return self._from("/".join(self.parts[n:]) or ".")

    def match(self, pattern):
        import fnmatch
        pat_parts = [p for p in pattern.split("/") if p]
        parts = self.parts
        if pattern.startswith("/"):
            if len(pat_parts) + 1 != len(parts):
                return False
            parts = parts[1:]
        elif len(pat_parts) > len(parts):
            return False
        for part, pat in zip(reversed(parts), reversed(pat_parts)):
            if not fnmatch.fnmatchcase(part, pat):
                return False
        return True


class PurePosixPath(PurePath):
    pass


class Path(PurePath):
    def __new__(cls, *args, **kwargs):
        if cls is Path:
            cls = PosixPath
        return PurePath.__new__(cls, *args)

    @classmethod
    def cwd(cls):
        return cls(os.getcwd())

    @classmethod
    def home(cls):
        return _onnxify.poison("pathlib.Path.home", "the home directory is not visible to evaluated code")

    def absolute(self):
        return self if self.is_absolute() else type(self)(os.getcwd(), self)

    def resolve(self, strict=False):
        return type(self)(os.path.realpath(self._str))

    def expanduser(self):
        return self if not self._str.startswith("~") else Path.home()

    def stat(self, *, follow_symlinks=True):
        return os.stat(self._str, follow_symlinks=follow_symlinks)

    def lstat(self):
        return os.lstat(self._str)

    def exists(self):
        return os.path.exists(self._str)

    def is_dir(self):
        return os.path.isdir(self._str)

    def is_file(self):
        return os.path.isfile(self._str)

    def is_symlink(self):
        return os.path.islink(self._str)

    def iterdir(self):
        names = os.listdir(self._str)
        if _onnxify.is_poison(names):
            return names
        return iter([self / n if self._str != "." else self._from(n) for n in names])

    def glob(self, pattern):
        """CPython 3.11's order: each folder's entries in directory order; `**` is this folder and
        every folder under it, depth first (symbolic links to folders are not followed by `**`)."""
        if not pattern:
            raise ValueError("Unacceptable pattern: {!r}".format(pattern))
        if pattern.startswith("/"):
            raise NotImplementedError("Non-relative patterns are unsupported")
        parts = [p for p in pattern.split("/") if p and p != "."]
        return iter(self._select(parts))

    def rglob(self, pattern):
        return self.glob("**/" + pattern)

    def _select(self, parts):
        if not parts:
            yield self
            return
        import fnmatch
        head, rest = parts[0], parts[1:]
        if head == "**":
            seen = set()
            for folder in self._folders_below():
                for p in folder._select(rest):
                    if p not in seen:
                        seen.add(p)
                        yield p
            return
        try:
            entries = list(os.scandir(self._str))
        except OSError:
            return
        wild = any(c in head for c in "*?[")
        for entry in entries:
            if (fnmatch.fnmatchcase(entry.name, head) if wild else entry.name == head):
                child = self / entry.name
                if not rest:
                    yield child
                elif entry.is_dir():
                    yield from child._select(rest)

    def _folders_below(self):
        yield self
        try:
            entries = list(os.scandir(self._str))
        except OSError:
            return
        for entry in entries:
            if entry.is_dir() and not entry.is_symlink():
                yield from (self / entry.name)._folders_below()

    def open(self, mode="r", buffering=-1, encoding=None, errors=None, newline=None):
        return open(self._str, mode, buffering, encoding, errors, newline)

    def read_text(self, encoding=None, errors=None):
        with self.open(encoding=encoding, errors=errors) as f:
            return f.read()

    def read_bytes(self):
        with self.open("rb") as f:
            return f.read()

    def samefile(self, other_path):
        return os.path.samefile(self._str, os.fspath(other_path))


class PosixPath(Path, PurePosixPath):
    pass


def _write(fname):
    def unavailable(self, *args, **kwargs):
        return _onnxify.poison("pathlib.Path." + fname,
                               "pathlib.Path.%s() is not available: onnxify does not write files" % fname)
    unavailable.__name__ = fname
    return unavailable


for _fname in ("mkdir", "rmdir", "touch", "unlink", "write_text", "write_bytes", "rename", "replace", "chmod",
               "symlink_to", "hardlink_to", "readlink", "owner", "group"):
    setattr(Path, _fname, _write(_fname))
del _fname

# CPython's names (the Windows flavours are not provided): `from pathlib import *` binds these, not
# the modules this one imports.
__all__ = [_n for _n in ("PurePath", "PurePosixPath", "PureWindowsPath", "Path", "PosixPath", "WindowsPath")
           if _n in globals()]
