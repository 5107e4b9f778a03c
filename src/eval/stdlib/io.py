"""io (onnxify's stdlib subset): in-memory streams (StringIO, BytesIO). Files cannot be opened:
io.open and the file classes are unknown values (poison)."""
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


_why = "onnxify does not read or write files"
open = _onnxify.poison("io.open", "io.open() is not available: " + _why, False)
open_code = _onnxify.poison("io.open_code", "io.open_code() is not available: " + _why, False)
FileIO = _onnxify.poison("io.FileIO", "io.FileIO is not available: " + _why, False)
TextIOWrapper = _onnxify.poison("io.TextIOWrapper", "io.TextIOWrapper is not available: " + _why, False)
BufferedReader = _onnxify.poison("io.BufferedReader", "io.BufferedReader is not available: " + _why, False)
BufferedWriter = _onnxify.poison("io.BufferedWriter", "io.BufferedWriter is not available: " + _why, False)
del _why
