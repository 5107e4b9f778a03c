"""json (onnxify's stdlib subset): dumps/loads with CPython's output format and errors; dump/load
take file objects (io.StringIO; real files cannot be opened during conversion)."""
import math as _math

__all__ = ["dump", "dumps", "load", "loads", "JSONDecodeError", "JSONEncoder", "JSONDecoder"]


class JSONDecodeError(ValueError):
    def __init__(self, msg, doc, pos):
        lineno = doc.count("\n", 0, pos) + 1
        colno = pos - doc.rfind("\n", 0, pos)
        super().__init__(f"{msg}: line {lineno} column {colno} (char {pos})")
        self.msg = msg
        self.doc = doc
        self.pos = pos
        self.lineno = lineno
        self.colno = colno


_ESCAPES = {'"': '\\"', "\\": "\\\\", "\n": "\\n", "\r": "\\r", "\t": "\\t", "\b": "\\b", "\f": "\\f"}


def _encode_str(s, ensure_ascii):
    out = ['"']
    for ch in s:
        e = _ESCAPES.get(ch)
        if e is not None:
            out.append(e)
            continue
        c = ord(ch)
        if c < 0x20 or (ensure_ascii and c > 0x7E):
            if c > 0xFFFF:
                c -= 0x10000
                out.append("\\u%04x\\u%04x" % (0xD800 | (c >> 10), 0xDC00 | (c & 0x3FF)))
            else:
                out.append("\\u%04x" % c)
        else:
            out.append(ch)
    out.append('"')
    return "".join(out)


def _float_text(f, allow_nan):
    if f != f:
        text = "NaN"
    elif f == _math.inf:
        text = "Infinity"
    elif f == -_math.inf:
        text = "-Infinity"
    else:
        return float.__repr__(f)
    if not allow_nan:
        raise ValueError("Out of range float values are not JSON compliant: " + repr(f))
    return text


class JSONEncoder:
    item_separator = ", "
    key_separator = ": "

    def __init__(self, *, skipkeys=False, ensure_ascii=True, check_circular=True, allow_nan=True, sort_keys=False,
                 indent=None, separators=None, default=None):
        self.skipkeys = skipkeys
        self.ensure_ascii = ensure_ascii
        self.allow_nan = allow_nan
        self.sort_keys = sort_keys
        if indent is not None and not isinstance(indent, str):
            indent = " " * indent
        self.indent = indent
        if separators is not None:
            self.item_separator, self.key_separator = separators
        elif indent is not None:
            self.item_separator = ","
        if default is not None:
            self.default = default

    def default(self, o):
        raise TypeError(f"Object of type {type(o).__name__} is not JSON serializable")

    def encode(self, o):
        return "".join(self._encode(o, 0, []))

    def _key(self, k):
        if isinstance(k, str):
            return k
        if k is True:
            return "true"
        if k is False:
            return "false"
        if k is None:
            return "null"
        if isinstance(k, float):
            return _float_text(k, self.allow_nan)
        if isinstance(k, int):
            return int.__repr__(k)
        if self.skipkeys:
            return None
        raise TypeError(f"keys must be str, int, float, bool or None, not {type(k).__name__}")

    def _encode(self, o, level, stack):
        if isinstance(o, str):
            return [_encode_str(o, self.ensure_ascii)]
        if o is None:
            return ["null"]
        if o is True:
            return ["true"]
        if o is False:
            return ["false"]
        if isinstance(o, int):
            return [int.__repr__(o)]
        if isinstance(o, float):
            return [_float_text(o, self.allow_nan)]
        if isinstance(o, (list, tuple, dict)):
            for s in stack:
                if s is o:
                    raise ValueError("Circular reference detected")
            stack.append(o)
            out = self._encode_list(o, level, stack) if not isinstance(o, dict) else self._encode_dict(o, level, stack)
            stack.pop()
            return out
        return self._encode(self.default(o), level, stack)

    def _open(self, level):
        if self.indent is None:
            return "", self.item_separator, ""
        inner = "\n" + self.indent * (level + 1)
        return inner, self.item_separator + inner, "\n" + self.indent * level

    def _encode_list(self, o, level, stack):
        if not o:
            return ["[]"]
        first, sep, last = self._open(level)
        out = ["[", first]
        for i, v in enumerate(o):
            if i:
                out.append(sep)
            out.extend(self._encode(v, level + 1, stack))
        out += [last, "]"]
        return out

    def _encode_dict(self, o, level, stack):
        if not o:
            return ["{}"]
        first, sep, last = self._open(level)
        items = list(o.items())
        if self.sort_keys:
            items.sort(key=lambda kv: kv[0])
        out = ["{", first]
        n = 0
        for k, v in items:
            key = self._key(k)
            if key is None:
                continue
            if n:
                out.append(sep)
            n += 1
            out.append(_encode_str(key, self.ensure_ascii))
            out.append(self.key_separator)
            out.extend(self._encode(v, level + 1, stack))
        out += [last, "}"]
        return out


def dumps(obj, *, skipkeys=False, ensure_ascii=True, check_circular=True, allow_nan=True, cls=None, indent=None,
          separators=None, default=None, sort_keys=False, **kw):
    cls = cls or JSONEncoder
    return cls(skipkeys=skipkeys, ensure_ascii=ensure_ascii, check_circular=check_circular, allow_nan=allow_nan,
               indent=indent, separators=separators, default=default, sort_keys=sort_keys, **kw).encode(obj)


def dump(obj, fp, **kw):
    fp.write(dumps(obj, **kw))


_WS = " \t\n\r"
_UNESCAPE = {'"': '"', "\\": "\\", "/": "/", "b": "\b", "f": "\f", "n": "\n", "r": "\r", "t": "\t"}


class JSONDecoder:
    def __init__(self, *, object_hook=None, parse_float=None, parse_int=None, parse_constant=None, strict=True,
                 object_pairs_hook=None):
        self.object_hook = object_hook
        self.object_pairs_hook = object_pairs_hook
        self.parse_float = parse_float or float
        self.parse_int = parse_int or int
        self.parse_constant = parse_constant or {"NaN": _math.nan, "Infinity": _math.inf,
                                                 "-Infinity": -_math.inf}.__getitem__
        self.strict = strict

    def decode(self, s):
        obj, end = self.raw_decode(s, self._skip(s, 0))
        end = self._skip(s, end)
        if end != len(s):
            raise JSONDecodeError("Extra data", s, end)
        return obj

    def raw_decode(self, s, idx=0):
        return self._value(s, idx)

    def _skip(self, s, i):
        while i < len(s) and s[i] in _WS:
            i += 1
        return i

    def _value(self, s, i):
        if i >= len(s):
            raise JSONDecodeError("Expecting value", s, i)
        c = s[i]
        if c == '"':
            return self._string(s, i + 1)
        if c == "{":
            return self._object(s, i + 1)
        if c == "[":
            return self._array(s, i + 1)
        for word, val in (("null", None), ("true", True), ("false", False)):
            if s.startswith(word, i):
                return val, i + len(word)
        for word in ("NaN", "Infinity", "-Infinity"):
            if s.startswith(word, i):
                return self.parse_constant(word), i + len(word)
        j = i
        if j < len(s) and s[j] == "-":
            j += 1
        if j < len(s) and s[j] == "0":
            j += 1
        elif j < len(s) and "1" <= s[j] <= "9":
            while j < len(s) and s[j].isdigit():
                j += 1
        else:
            raise JSONDecodeError("Expecting value", s, i)
        is_float = False
        if j + 1 < len(s) and s[j] == "." and s[j + 1].isdigit():
            is_float = True
            j += 1
            while j < len(s) and s[j].isdigit():
                j += 1
        if j < len(s) and s[j] in "eE":
            k = j + 1
            if k < len(s) and s[k] in "+-":
                k += 1
            if k < len(s) and s[k].isdigit():
                is_float = True
                j = k
                while j < len(s) and s[j].isdigit():
                    j += 1
        text = s[i:j]
        return (self.parse_float(text) if is_float else self.parse_int(text)), j

    def _string(self, s, i):
        out = []
        start = i
        while True:
            if i >= len(s):
                raise JSONDecodeError("Unterminated string starting at", s, start - 1)
            c = s[i]
            if c == '"':
                return "".join(out), i + 1
            if c == "\\":
                if i + 1 >= len(s):
                    raise JSONDecodeError("Unterminated string starting at", s, start - 1)
                e = s[i + 1]
                if e == "u":
                    code = self._hex4(s, i + 2)
                    i += 6
                    if 0xD800 <= code <= 0xDBFF and s.startswith("\\u", i):
                        low = self._hex4(s, i + 2)
                        if 0xDC00 <= low <= 0xDFFF:
                            code = 0x10000 + (((code - 0xD800) << 10) | (low - 0xDC00))
                            i += 6
                    out.append(chr(code))
                    continue
                if e not in _UNESCAPE:
                    raise JSONDecodeError("Invalid \\escape", s, i)
                out.append(_UNESCAPE[e])
                i += 2
                continue
            if self.strict and ord(c) < 0x20:
                raise JSONDecodeError("Invalid control character at", s, i)
            out.append(c)
            i += 1

    def _hex4(self, s, i):
        h = s[i:i + 4]
        if len(h) != 4 or any(ch not in "0123456789abcdefABCDEF" for ch in h):
            raise JSONDecodeError("Invalid \\uXXXX escape", s, i - 1)
        return int(h, 16)

    def _object(self, s, i):
        pairs = []
        i = self._skip(s, i)
        if i < len(s) and s[i] == "}":
            return self._finish_object(pairs), i + 1
        while True:
            if i >= len(s) or s[i] != '"':
                raise JSONDecodeError("Expecting property name enclosed in double quotes", s, i)
            key, i = self._string(s, i + 1)
            i = self._skip(s, i)
            if i >= len(s) or s[i] != ":":
                raise JSONDecodeError("Expecting ':' delimiter", s, i)
            i = self._skip(s, i + 1)
            value, i = self._value(s, i)
            pairs.append((key, value))
            i = self._skip(s, i)
            if i < len(s) and s[i] == "}":
                return self._finish_object(pairs), i + 1
            if i >= len(s) or s[i] != ",":
                raise JSONDecodeError("Expecting ',' delimiter", s, i)
            i = self._skip(s, i + 1)

    def _finish_object(self, pairs):
        if self.object_pairs_hook is not None:
            return self.object_pairs_hook(pairs)
        d = dict(pairs)
        return self.object_hook(d) if self.object_hook is not None else d

    def _array(self, s, i):
        out = []
        i = self._skip(s, i)
        if i < len(s) and s[i] == "]":
            return out, i + 1
        while True:
            value, i = self._value(s, self._skip(s, i))
            out.append(value)
            i = self._skip(s, i)
            if i < len(s) and s[i] == "]":
                return out, i + 1
            if i >= len(s) or s[i] != ",":
                raise JSONDecodeError("Expecting ',' delimiter", s, i)
            i += 1


def loads(s, *, cls=None, object_hook=None, parse_float=None, parse_int=None, parse_constant=None,
          object_pairs_hook=None, **kw):
    if isinstance(s, (bytes, bytearray)):
        s = s.decode("utf-8")
    if not isinstance(s, str):
        raise TypeError(f"the JSON object must be str, bytes or bytearray, not {type(s).__name__}")
    cls = cls or JSONDecoder
    return cls(object_hook=object_hook, parse_float=parse_float, parse_int=parse_int, parse_constant=parse_constant,
               object_pairs_hook=object_pairs_hook, **kw).decode(s)


def load(fp, **kw):
    return loads(fp.read(), **kw)
