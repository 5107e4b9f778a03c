"""io (onnxify's stdlib subset): in-memory streams (StringIO, BytesIO) and open() for reading files
under the import roots (src/eval/file_access.h); writing and the raw file classes are unknown values."""
import _onnxify

SEEK_SET, SEEK_CUR, SEEK_END = 0, 1, 2
DEFAULT_BUFFER_SIZE = 8192


class UnsupportedOperation(OSError, ValueError):
    pass


class IOBase:
    closed = False

    def close(self):
        self.closed = True

    def flush(self):
        self._check_open()

    def readable(self):
        return True

    def writable(self):
        return True

    def seekable(self):
        return True

    def isatty(self):
        return False

    def __enter__(self):
        self._check_open()
        return self

    def __exit__(self, *exc):
        self.close()

    def __iter__(self):
        self._check_open()
        return self

    def __next__(self):
        line = self.readline()
        if not line:
            raise StopIteration
        return line

    def readlines(self, hint=-1):
        lines = []
        total = 0
        for line in self:
            lines.append(line)
            total += len(line)
            if 0 < hint <= total:
                break
        return lines

    def writelines(self, lines):
        for line in lines:
            self.write(line)

    def _check_open(self):
        if self.closed:
            raise ValueError("I/O operation on closed file")


class RawIOBase(IOBase):
    pass


class BufferedIOBase(IOBase):
    pass


class TextIOBase(IOBase):
    encoding = "utf-8"
    errors = "strict"
    newlines = None


class _MemoryIO:
    """The shared buffer logic of StringIO and BytesIO: a value and a position."""

    def _init(self, initial, empty):
        self._buf = empty if initial is None else initial
        self._empty = empty
        self._pos = 0
        self.closed = False

    def getvalue(self):
        self._check_open()
        return self._buf

    def read(self, size=-1):
        self._check_open()
        if size is None or size < 0:
            end = len(self._buf)
        else:
            end = min(len(self._buf), self._pos + size)
        out = self._buf[self._pos:end]
        self._pos = max(self._pos, end)
        return out

    def write(self, s):
        self._check_open()
        if not isinstance(s, type(self._empty)):
            raise TypeError(self._write_type_error(s))
        if self._pos > len(self._buf):
            self._buf = self._buf + self._pad * (self._pos - len(self._buf))
        self._buf = self._buf[:self._pos] + s + self._buf[self._pos + len(s):]
        self._pos += len(s)
        return len(s)

    def seek(self, pos, whence=0):
        self._check_open()
        if whence == 0:
            if pos < 0:
                raise ValueError("negative seek value %d" % pos)
            self._pos = pos
        elif whence == 1:
            self._pos = max(0, self._pos + pos)
        elif whence == 2:
            self._pos = max(0, len(self._buf) + pos)
        else:
            raise ValueError("invalid whence (%d, should be 0, 1 or 2)" % whence)
        return self._pos

    def tell(self):
        self._check_open()
        return self._pos

    def truncate(self, size=None):
        self._check_open()
        if size is None:
            size = self._pos
        self._buf = self._buf[:size]
        return size


class StringIO(_MemoryIO, TextIOBase):
    _pad = "\0"

    def __init__(self, initial_value="", newline="\n"):
        if initial_value is not None and not isinstance(initial_value, str):
            raise TypeError("initial_value must be str or None, not %s" % type(initial_value).__name__)
        self._init(initial_value or "", "")

    def _write_type_error(self, s):
        return "string argument expected, got '%s'" % type(s).__name__

    def readline(self, size=-1):
        self._check_open()
        end = self._buf.find("\n", self._pos)
        end = len(self._buf) if end < 0 else end + 1
        if size is not None and size >= 0:
            end = min(end, self._pos + size)
        out = self._buf[self._pos:end]
        self._pos = end
        return out


class BytesIO(_MemoryIO, BufferedIOBase):
    _pad = b"\0"

    def __init__(self, initial_bytes=b""):
        self._init(bytes(initial_bytes), b"")

    def _write_type_error(self, s):
        return "a bytes-like object is required, not '%s'" % type(s).__name__

    def getbuffer(self):
        return self._buf

    def readline(self, size=-1):
        self._check_open()
        end = self._buf.find(b"\n", self._pos)
        end = len(self._buf) if end < 0 else end + 1
        if size is not None and size >= 0:
            end = min(end, self._pos + size)
        out = self._buf[self._pos:end]
        self._pos = end
        return out


class _FileReader:
    """A file opened for reading: its whole content, read when it was opened (files under the import
    roots only; _onnxify.fs_read decides). Writing is not possible."""

    def _init_file(self, name, mode):
        self.name = name
        self.mode = mode

    def writable(self):
        return False

    def write(self, s):
        self._check_open()
        raise UnsupportedOperation("not writable")

    def truncate(self, size=None):
        self._check_open()
        raise UnsupportedOperation("truncate")

    def fileno(self):
        raise UnsupportedOperation("fileno")

    def getvalue(self):
        raise AttributeError("'%s' object has no attribute 'getvalue'" % type(self).__name__)

    def __repr__(self):
        return "<%s name=%r mode=%r>" % (self._repr_name, self.name, self.mode)


class _BinaryFile(_FileReader, BytesIO):
    _repr_name = "_io.BufferedReader"

    def __init__(self, data, name, mode):
        BytesIO.__init__(self, data)
        self._init_file(name, mode)

    def getbuffer(self):
        raise AttributeError("'_BinaryFile' object has no attribute 'getbuffer'")


class _TextFile(_FileReader, StringIO):
    _repr_name = "_io.TextIOWrapper"

    def __init__(self, text, name, mode, encoding, errors):
        StringIO.__init__(self, text)
        self._init_file(name, mode)
        self.encoding = encoding
        self.errors = errors


def open(file, mode="r", buffering=-1, encoding=None, errors=None, newline=None, closefd=True, opener=None):
    """open() for reading files under the import roots, as CPython's with the file read at once."""
    import os
    if isinstance(file, int):
        return _onnxify.poison("open(...)", "open() of a file descriptor is not available: onnxify does not access them")
    file = os.fspath(file)
    if _onnxify.is_poison(file):
        return file
    if not isinstance(mode, str):
        raise TypeError("open() argument 'mode' must be str, not %s" % type(mode).__name__)
    if not isinstance(file, (str, bytes)):
        raise TypeError("expected str, bytes or os.PathLike object, not %s" % type(file).__name__)
    modes = set(mode)
    if modes - set("axrwb+t") or len(mode) > len(modes):
        raise ValueError("invalid mode: %r" % mode)
    if sum(c in modes for c in "rwax") != 1:
        raise ValueError("must have exactly one of create/read/write/append mode")
    if "b" in modes and "t" in modes:
        raise ValueError("can't have text and binary mode at once")
    binary = "b" in modes
    if binary and encoding is not None:
        raise ValueError("binary mode doesn't take an encoding argument")
    if binary and errors is not None:
        raise ValueError("binary mode doesn't take an errors argument")
    if binary and newline is not None:
        raise ValueError("binary mode doesn't take a newline argument")
    if newline not in (None, "", "\n", "\r", "\r\n"):
        raise ValueError("illegal newline value: %s" % (newline,))
    if modes & set("wax+"):
        # As on a read-only file system: code that guards its writes (config files, caches) goes on.
        raise OSError(30, "Read-only file system: onnxify does not write files (open(..., %r))" % mode, file)
    name = file
    if isinstance(file, bytes):
        file = file.decode("utf-8")
    data = _onnxify.fs_read(file)
    if _onnxify.is_poison(data):
        return data
    if binary:
        return _BinaryFile(data, name, mode)
    encoding = "UTF-8" if encoding is None else encoding
    errors = "strict" if errors is None else errors
    text = data.decode(encoding, errors)
    if newline is None and "\r" in text:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    return _TextFile(text, name, mode, encoding, errors)


_why = "onnxify does not read or write files"
open_code = _onnxify.poison("io.open_code", "io.open_code() is not available: " + _why, False)
FileIO = _onnxify.poison("io.FileIO", "io.FileIO is not available: " + _why, False)
TextIOWrapper = _onnxify.poison("io.TextIOWrapper", "io.TextIOWrapper is not available: " + _why, False)
BufferedReader = _onnxify.poison("io.BufferedReader", "io.BufferedReader is not available: " + _why, False)
BufferedWriter = _onnxify.poison("io.BufferedWriter", "io.BufferedWriter is not available: " + _why, False)
del _why
