"""contextvars (onnxify's stdlib subset): the evaluator runs one thread and no event loop, so there is
one context; ContextVar.set returns a Token that reset() undoes, as in CPython."""

_MISSING = object()


class Token:
    MISSING = _MISSING

    def __init__(self, context, var, old_value):
        self._context = context
        self.var = var
        self.old_value = old_value
        self._used = False

    def __repr__(self):
        return f"<Token{' used' if self._used else ''} var={self.var!r} at 0x{id(self):x}>"


class Context:
    def __init__(self):
        self._data = {}

    def run(self, callable, *args, **kwargs):
        global _current
        saved = _current
        _current = self
        try:
            return callable(*args, **kwargs)
        finally:
            _current = saved

    def copy(self):
        c = Context()
        c._data = dict(self._data)
        return c

    def __getitem__(self, var):
        return self._data[var]

    def get(self, var, default=None):
        return self._data.get(var, default)

    def __contains__(self, var):
        return var in self._data

    def __iter__(self):
        return iter(self._data)

    def __len__(self):
        return len(self._data)

    def keys(self):
        return self._data.keys()

    def values(self):
        return self._data.values()

    def items(self):
        return self._data.items()


_current = Context()


def copy_context():
    return _current.copy()


class ContextVar:
    def __init__(self, name, *, default=_MISSING):
        if not isinstance(name, str):
            raise TypeError("context variable name must be a str")
        self._name = name
        self._default = default

    @property
    def name(self):
        return self._name

    def get(self, *args):
        if self in _current._data:
            return _current._data[self]
        if args:
            return args[0]
        if self._default is not _MISSING:
            return self._default
        raise LookupError(self)

    def set(self, value):
        old = _current._data.get(self, _MISSING)
        _current._data[self] = value
        return Token(_current, self, old)

    def reset(self, token):
        if not isinstance(token, Token):
            raise TypeError(f"expected an instance of Token, got {token!r}")
        if token._used:
            raise RuntimeError(f"{token!r} has already been used once")
        if token.var is not self:
            raise ValueError(f"{token!r} was created by a different ContextVar")
        if token._context is not _current:
            raise ValueError(f"{token!r} was created in a different Context")
        if token.old_value is _MISSING:
            _current._data.pop(self, None)
        else:
            _current._data[self] = token.old_value
        token._used = True

    def __hash__(self):
        return id(self)

    def __repr__(self):
        default = "" if self._default is _MISSING else f" default={self._default!r}"
        return f"<ContextVar name={self._name!r}{default} at 0x{id(self):x}>"

    def __class_getitem__(cls, item):
        return cls
