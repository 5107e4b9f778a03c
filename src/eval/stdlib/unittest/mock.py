"""unittest.mock (onnxify's stdlib subset, written here).

Why it matters: generated model files (ParityBench's) replace modules they do not need with mocks at
module level (`yaml = logging = sys = argparse = MagicMock()`, `open = mock_open()`) and then branch on
them (`if sys.version_info[0] == 2:`), so the mocks must answer exactly as CPython's do.

What is kept of CPython's behaviour (its documented semantics, implemented anew and smaller):
* each mock gets a class of its own, so magic methods configured on one mock do not leak to others;
* attributes are child mocks made on first access and cached per name (`del` hides one); calls are
  recorded (called, call_count, call_args, call_args_list, mock_calls, method_calls); return_value
  is one child mock returned by every call; side_effect is an exception, a callable or an iterable;
* MagicMock gives every supported magic method a default: len 0, iter empty, bool True, int 1,
  float 1.0, index 1, contains False, == by identity, ordering NotImplemented (so `<` raises
  TypeError), __exit__ False, and a MagicMock for the rest (getitem, call, arithmetic, enter ...).
  Each default is a child mock made on first use, so `m.__len__.return_value = 3` works;
* spec (a list of names or an object) limits attributes; name appears in repr and child names.
Left out: autospec/create_autospec, seal and AsyncMock (unknown values if used), signature checks."""
import builtins
import io
import sys
from functools import wraps

import _onnxify

__all__ = ("Mock", "MagicMock", "patch", "sentinel", "DEFAULT", "ANY", "call", "create_autospec", "AsyncMock",
           "FILTER_DIR", "NonCallableMock", "NonCallableMagicMock", "mock_open", "PropertyMock", "seal")

FILTER_DIR = True


class _SentinelObject:
    def __init__(self, name):
        self.name = name

    def __repr__(self):
        return "sentinel." + self.name

    def __reduce__(self):
        return "sentinel." + self.name


class _SentinelFactory:
    """`sentinel.NAME` is one unique object per NAME."""

    def __init__(self):
        self._made = {}

    def __getattr__(self, name):
        if name == "__bases__":
            raise AttributeError(name)
        made = self._made.get(name)
        if made is None:
            made = self._made[name] = _SentinelObject(name)
        return made

    def __reduce__(self):
        return "sentinel"


sentinel = _SentinelFactory()
DEFAULT = sentinel.DEFAULT
_missing = sentinel.MISSING
_deleted = sentinel.DELETED


class _AnyValue:
    """Equal to everything (for comparing recorded calls)."""

    def __eq__(self, other):
        return True

    def __ne__(self, other):
        return False

    def __repr__(self):
        return "<ANY>"


ANY = _AnyValue()


# The magic methods MagicMock configures, and those a mock may be given by assignment only.
_numeric_ops = "add sub mul matmul truediv floordiv mod lshift rshift and xor or pow".split()
_default_magics = set(
    "__%s__" % op for op in
    ("lt le gt ge eq ne getitem setitem delitem len contains iter hash str sizeof enter exit divmod rdivmod "
     "neg pos abs invert complex int float index round trunc floor ceil bool next fspath").split()
    + _numeric_ops + ["i" + op for op in _numeric_ops] + ["r" + op for op in _numeric_ops])
_assignable_only = {"__get__", "__set__", "__delete__", "__reversed__", "__missing__", "__reduce__",
                    "__reduce_ex__", "__getinitargs__", "__getnewargs__", "__getstate__", "__setstate__",
                    "__getformat__", "__repr__", "__dir__", "__subclasses__", "__format__", "__getnewargs_ex__"}
_supported_magics = _default_magics | _assignable_only
# Setting these would break the mock machinery itself.
_refused_magics = {"__getattr__", "__setattr__", "__init__", "__new__", "__prepare__", "__instancecheck__",
                   "__subclasscheck__", "__del__"}

# Fixed answers of MagicMock's defaults; the others are computed per mock below or are child mocks.
_fixed_results = {"__lt__": NotImplemented, "__gt__": NotImplemented, "__le__": NotImplemented,
                  "__ge__": NotImplemented, "__int__": 1, "__contains__": False, "__len__": 0, "__exit__": False,
                  "__complex__": 1j, "__float__": 1.0, "__bool__": True, "__index__": 1}

# Attribute names that bypass the child-mock bookkeeping of __setattr__ (properties and internals).
_plain_names = {"return_value", "_mock_return_value", "side_effect", "_mock_side_effect", "_mock_parent",
                "_mock_new_parent", "_mock_name", "_mock_new_name"}


def _is_dunder(name):
    return len(name) > 4 and name.startswith("__") and name.endswith("__")


def _is_mock(obj):
    return isinstance(obj, NonCallableMock)


def _is_exception(obj):
    return isinstance(obj, BaseException) or (isinstance(obj, type) and issubclass(obj, BaseException))


def _as_effect(obj):
    """A side_effect iterable becomes an iterator; exceptions and callables stay as they are."""
    if obj is None or _is_exception(obj) or callable(obj):
        return obj
    try:
        return iter(obj)
    except TypeError:
        return obj


def _adopt(parent, child, name, new_name):
    """Makes an unnamed, unowned mock `child` a child of `parent` (for naming and call recording)."""
    if not _is_mock(child):
        return False
    if child._mock_name or child._mock_new_name or child._mock_parent is not None \
            or child._mock_new_parent is not None:
        return False
    ancestor = parent
    while ancestor is not None:
        if ancestor is child:   # would make a cycle
            return False
        ancestor = ancestor._mock_new_parent
    child.__dict__["_mock_new_parent"] = parent
    child.__dict__["_mock_new_name"] = new_name
    if name:
        child.__dict__["_mock_parent"] = parent
        child.__dict__["_mock_name"] = name
    return True


def _format_call(name, args, kwargs):
    parts = [repr(a) for a in args] + ["%s=%r" % item for item in kwargs.items()]
    return "%s(%s)" % (name, ", ".join(parts))


class _CallList(list):
    def __contains__(self, value):
        if not isinstance(value, list):
            return list.__contains__(self, value)
        n = len(value)
        return any(self[i:i + n] == value for i in range(len(self) - n + 1))

    def __repr__(self):
        # as pprint prints a list of calls: one line if it fits in 80 columns, else one call a line
        items = [repr(c) for c in self]
        text = "[" + ", ".join(items) + "]"
        if len(text) <= 80:
            return text
        return "[" + ",\n ".join(items) + "]"


class _Call(tuple):
    """A recorded call: (args, kwargs) for call_args, (name, args, kwargs) for mock_calls and `call`.
    Equality ignores an empty name, so call_args == call(1, a=2) holds."""

    def __new__(cls, value=(), name="", parent=None, two=False, from_kall=True):
        call_name, args, kwargs = "", (), {}
        if len(value) == 3:
            call_name, args, kwargs = value
        elif len(value) == 2:
            call_name, args, kwargs = _Call._split_pair(value)
        elif len(value) == 1:
            call_name, args, kwargs = _Call._split_one(value[0])
        if two:
            return tuple.__new__(cls, (args, kwargs))
        return tuple.__new__(cls, (call_name, args, kwargs))

    def __init__(self, value=(), name=None, parent=None, two=False, from_kall=True):
        self._mock_name = name
        self._mock_parent = parent
        self._mock_from_kall = from_kall

    @staticmethod
    def _split_pair(pair):
        first, second = pair
        if isinstance(first, str):
            return (first, second, {}) if isinstance(second, tuple) else (first, (), second)
        return "", first, second

    @staticmethod
    def _split_one(only):
        if isinstance(only, str):
            return only, (), {}
        if isinstance(only, tuple):
            return "", only, {}
        return "", (), only

    def _parts(self):
        if len(self) == 2:
            return ("",) + tuple(self)
        return tuple(self)

    def __eq__(self, other):
        try:
            n = len(other)
        except TypeError:
            return NotImplemented
        mine = self._parts()
        if self.__dict__.get("_mock_parent") is not None and getattr(other, "_mock_parent", None) is not None \
                and self._mock_parent != other._mock_parent:
            return False
        if n == 0:
            theirs = ("", (), {})
        elif n == 1:
            theirs = _Call._split_one(other[0])
        elif n == 2:
            theirs = _Call._split_pair(other)
        elif n == 3:
            theirs = tuple(other)
        else:
            return False
        if mine[0] and theirs[0] != mine[0]:
            return False
        # the other side first, so ANY inside `other` decides
        return (theirs[1], theirs[2]) == (mine[1], mine[2])

    def __ne__(self, other):
        result = self.__eq__(other)
        return result if result is NotImplemented else not result

    def __call__(self, *args, **kwargs):
        if self._mock_name is None:
            return _Call(("", args, kwargs), name="()")
        return _Call((self._mock_name, args, kwargs), name=self._mock_name + "()", parent=self)

    def __getattr__(self, attr):
        if _is_dunder(attr) or attr.startswith("_mock_"):
            raise AttributeError(attr)
        if self._mock_name is None:
            return _Call(name=attr, from_kall=False)
        return _Call(name=self._mock_name + "." + attr, parent=self, from_kall=False)

    @property
    def args(self):
        return self._parts()[1]

    @property
    def kwargs(self):
        return self._parts()[2]

    def __repr__(self):
        if not self._mock_from_kall:
            name = self._mock_name or "call"
            return "call" + name if name.startswith("()") else name
        name, args, kwargs = self._parts()
        if not name:
            name = "call"
        elif name.startswith("()"):
            name = "call" + name
        else:
            name = "call." + name
        return _format_call(name, args, kwargs)

    def call_list(self):
        calls = []
        node = self
        while node is not None:
            if node._mock_from_kall:
                calls.append(node)
            node = node._mock_parent
        return _CallList(reversed(calls))


call = _Call(from_kall=False)


class NonCallableMock:
    """A mock that cannot be called; the base of all mocks here."""

    def __new__(cls, *args, **kwargs):
        # A class per mock: magic methods are looked up on the type.
        own = type(cls.__name__, (cls,), {"__doc__": cls.__doc__})
        return object.__new__(own)

    def __init__(self, spec=None, wraps=None, name=None, spec_set=None, parent=None, _spec_state=None,
                 _new_name="", _new_parent=None, _spec_as_instance=False, _eat_self=None, unsafe=False, **kwargs):
        if _new_parent is None:
            _new_parent = parent
        state = self.__dict__
        state["_mock_parent"] = parent
        state["_mock_name"] = name
        state["_mock_new_name"] = _new_name
        state["_mock_new_parent"] = _new_parent
        state["_mock_sealed"] = False
        state.setdefault("_mock_return_value", DEFAULT)
        state.setdefault("_mock_side_effect", None)
        if spec_set is not None:
            spec = spec_set
            spec_set = True
        self._mock_add_spec(spec, spec_set)
        state["_mock_children"] = {}
        state["_mock_wraps"] = wraps
        state["_mock_unsafe"] = unsafe
        state["called"] = False
        state["call_args"] = None
        state["call_count"] = 0
        state["call_args_list"] = _CallList()
        state["mock_calls"] = _CallList()
        state["method_calls"] = _CallList()
        if kwargs:
            self.configure_mock(**kwargs)

    def _mock_add_spec(self, spec, spec_set):
        spec_class = None
        names = None
        if spec is not None:
            if isinstance(spec, (list, tuple)) and all(isinstance(n, str) for n in spec):
                names = list(spec)
            else:
                spec_class = spec if isinstance(spec, type) else type(spec)
                names = dir(spec)
        self.__dict__["_spec_class"] = spec_class
        self.__dict__["_spec_set"] = spec_set
        self.__dict__["_mock_methods"] = names

    def mock_add_spec(self, spec, spec_set=False):
        self._mock_add_spec(spec, spec_set)

    def attach_mock(self, mock, attribute):
        # the attached mock forgets its old owner, so it is adopted (and named) anew
        mock.__dict__.update(_mock_parent=None, _mock_new_parent=None, _mock_name="", _mock_new_name=None)
        setattr(self, attribute, mock)

    # return_value and side_effect

    def _get_return_value(self):
        value = self._mock_return_value
        if value is DEFAULT:
            value = self._get_child_mock(_new_parent=self, _new_name="()")
            self.return_value = value
        return value

    def _set_return_value(self, value):
        self.__dict__["_mock_return_value"] = value
        _adopt(self, value, None, "()")

    return_value = property(_get_return_value, _set_return_value)

    def _get_side_effect(self):
        return self._mock_side_effect

    def _set_side_effect(self, value):
        self.__dict__["_mock_side_effect"] = _as_effect(value)

    side_effect = property(_get_side_effect, _set_side_effect)

    @property
    def __class__(self):
        if self._spec_class is None:
            return type(self)
        return self._spec_class

    def configure_mock(self, **kwargs):
        # deeper dotted names last, so `a=...` is set before `a.b=...`
        for key in sorted(kwargs, key=lambda k: k.count(".")):
            path = key.split(".")
            target = self
            for part in path[:-1]:
                target = getattr(target, part)
            setattr(target, path[-1], kwargs[key])

    def reset_mock(self, visited=None, *, return_value=False, side_effect=False):
        if visited is None:
            visited = []
        if any(v is self for v in visited):
            return
        visited.append(self)
        state = self.__dict__
        state["called"] = False
        state["call_args"] = None
        state["call_count"] = 0
        state["call_args_list"] = _CallList()
        state["mock_calls"] = _CallList()
        state["method_calls"] = _CallList()
        if return_value:
            state["_mock_return_value"] = DEFAULT
        if side_effect:
            state["_mock_side_effect"] = None
        for child in list(self._mock_children.values()):
            if _is_mock(child) and child is not _deleted:
                child.reset_mock(visited, return_value=return_value, side_effect=side_effect)
        ret = self._mock_return_value
        if _is_mock(ret) and ret is not self:
            ret.reset_mock(visited)

    # attributes

    def __getattr__(self, name):
        if name in ("_mock_methods", "_mock_unsafe", "_mock_children"):
            raise AttributeError(name)
        methods = self._mock_methods
        if methods is not None:
            if name not in methods or name in _supported_magics:
                raise AttributeError("Mock object has no attribute %r" % name)
        elif _is_dunder(name):
            raise AttributeError(name)
        if not self._mock_unsafe and (not methods or name not in methods):
            if name.startswith(("assert", "assret", "asert", "aseert", "assrt")):
                raise AttributeError("%r is not a valid assertion. Use a spec for the mock if %r is meant to be "
                                     "an attribute." % (name, name))
        children = self._mock_children
        child = children.get(name)
        if child is _deleted:
            raise AttributeError(name)
        if child is None:
            wrapped = None
            if self._mock_wraps is not None:
                wrapped = getattr(self._mock_wraps, name)
            child = self._get_child_mock(parent=self, name=name, wraps=wrapped, _new_name=name, _new_parent=self)
            children[name] = child
        return child

    def __setattr__(self, name, value):
        if name in _plain_names:
            return object.__setattr__(self, name, value)
        if self._spec_set and self._mock_methods is not None and name not in self._mock_methods \
                and name not in self.__dict__:
            raise AttributeError("Mock object has no attribute '%s'" % name)
        if name in _refused_magics:
            raise AttributeError("Attempting to set unsupported magic method %r." % name)
        if name in _supported_magics:
            if self._mock_methods is not None and name not in self._mock_methods:
                raise AttributeError("Mock object has no attribute '%s'" % name)
            if not _is_mock(value):
                # a plain function becomes a method of this mock's own class
                setattr(type(self), name, _as_method(name, value))
                function = value
                value = lambda *args, **kw: function(self, *args, **kw)
            else:
                _adopt(self, value, None, name)
                setattr(type(self), name, value)
                self._mock_children[name] = value
        elif name == "__class__":
            self.__dict__["_spec_class"] = value
            return None
        elif _adopt(self, value, name, name):
            self._mock_children[name] = value
        return object.__setattr__(self, name, value)

    def __delattr__(self, name):
        if name in _supported_magics and name in type(self).__dict__:
            delattr(type(self), name)
            if name not in self.__dict__:
                return
        children = self.__dict__.get("_mock_children", {})
        child = children.get(name, _missing)
        if name in self.__dict__:
            object.__delattr__(self, name)
        elif child is _deleted:
            raise AttributeError(name)
        children[name] = _deleted

    def __dir__(self):
        extras = self._mock_methods or []
        names = set(dir(type(self))) | set(extras)
        names |= set(k for k, v in self._mock_children.items() if v is not _deleted)
        names |= set(k for k in self.__dict__ if not k.startswith("_mock_"))
        return sorted(names)

    def _get_child_mock(self, **kwargs):
        own = type(self)
        if isinstance(self, CallableMixin):
            klass = own.__mro__[1]
        elif issubclass(own, NonCallableMagicMock):
            klass = MagicMock
        else:
            klass = Mock
        return klass(**kwargs)

    def _extract_mock_name(self):
        # Names run from the root mock: 'mock.a.b', 'mock.a()', 'mock()().c'.
        steps = []
        node = self
        while node._mock_new_parent is not None:
            steps.append(node._mock_new_name)
            node = node._mock_new_parent
        text = node._mock_name or "mock"
        for step in reversed(steps):
            text += step if step == "()" else "." + step
        return text

    def __repr__(self):
        name = self._extract_mock_name()
        text = "<" + type(self).__name__
        if name not in ("mock", "mock."):
            text += " name=%r" % name
        if self._spec_class is not None:
            text += (" spec_set=%r" if self._spec_set else " spec=%r") % self._spec_class.__name__
        return text + " id='%s'>" % id(self)

    # assertions (the common ones)

    def _calls_repr(self):
        return "\nCalls: %r." % (self.mock_calls,) if self.mock_calls else ""

    def assert_not_called(self):
        if self.call_count != 0:
            raise AssertionError("Expected '%s' to not have been called. Called %s times.%s"
                                 % (self._mock_name or "mock", self.call_count, self._calls_repr()))

    def assert_called(self):
        if self.call_count == 0:
            raise AssertionError("Expected '%s' to have been called." % (self._mock_name or "mock"))

    def assert_called_once(self):
        if self.call_count != 1:
            raise AssertionError("Expected '%s' to have been called once. Called %s times.%s"
                                 % (self._mock_name or "mock", self.call_count, self._calls_repr()))

    def assert_called_with(self, *args, **kwargs):
        expected = _Call((args, kwargs), two=True)
        if self.call_args is None:
            raise AssertionError("expected call not found.\nExpected: %s\n  Actual: not called."
                                 % _format_call(self._mock_name or "mock", args, kwargs))
        if self.call_args != expected:
            actual_args, actual_kwargs = self.call_args
            raise AssertionError("expected call not found.\nExpected: %s\n  Actual: %s"
                                 % (_format_call(self._mock_name or "mock", args, kwargs),
                                    _format_call(self._mock_name or "mock", actual_args, actual_kwargs)))

    def assert_called_once_with(self, *args, **kwargs):
        if self.call_count != 1:
            raise AssertionError("Expected '%s' to be called once. Called %s times.%s"
                                 % (self._mock_name or "mock", self.call_count, self._calls_repr()))
        return self.assert_called_with(*args, **kwargs)

    def assert_any_call(self, *args, **kwargs):
        expected = _Call((args, kwargs), two=True)
        if not any(c == expected for c in self.call_args_list):
            raise AssertionError("%s call not found" % _format_call(self._mock_name or "mock", args, kwargs))

    def assert_has_calls(self, calls, any_order=False):
        expected = list(calls)
        actual = self.mock_calls
        if not any_order:
            if expected not in actual:
                raise AssertionError("Calls not found.\nExpected: %r\n  Actual: %r" % (expected, list(actual)))
            return
        remaining = list(actual)
        for c in expected:
            for i, a in enumerate(remaining):
                if a == c:
                    del remaining[i]
                    break
            else:
                raise AssertionError("%r does not contain all of %r in its call list, found %r instead"
                                     % (self._mock_name or "mock", tuple(expected), list(actual)))


def _as_method(name, function):
    def method(self, *args, **kwargs):
        return function(self, *args, **kwargs)
    method.__name__ = name
    return method


class CallableMixin:
    def __init__(self, spec=None, side_effect=None, return_value=DEFAULT, wraps=None, name=None, spec_set=None,
                 parent=None, _spec_state=None, _new_name="", _new_parent=None, **kwargs):
        self.__dict__["_mock_return_value"] = return_value
        super().__init__(spec, wraps, name, spec_set, parent, _spec_state, _new_name, _new_parent, **kwargs)
        self.side_effect = side_effect

    def __call__(self, *args, **kwargs):
        self._record_call(args, kwargs)
        return self._mock_call(*args, **kwargs)

    def _record_call(self, args, kwargs):
        state = self.__dict__
        state["called"] = True
        state["call_count"] = self.call_count + 1
        this_call = _Call((args, kwargs), two=True)
        state["call_args"] = this_call
        self.call_args_list.append(this_call)
        self.mock_calls.append(_Call(("", args, kwargs)))
        # Every ancestor records the call under the path from it: parent.mock_calls gets call.child(...),
        # and ancestors reached through named attributes get method_calls.
        method_name = self._mock_name
        keep_method = self._mock_parent is not None
        path = self._mock_new_name
        path_is_call = path == "()"
        ancestor = self._mock_new_parent
        while ancestor is not None:
            if keep_method:
                ancestor.method_calls.append(_Call((method_name, args, kwargs)))
                keep_method = ancestor._mock_parent is not None
                if keep_method:
                    method_name = ancestor._mock_name + "." + method_name
            ancestor.mock_calls.append(_Call((path, args, kwargs)))
            if ancestor._mock_new_name:
                path = ancestor._mock_new_name + ("" if path_is_call else ".") + path
                path_is_call = ancestor._mock_new_name == "()"
            ancestor = ancestor._mock_new_parent

    def _mock_call(self, *args, **kwargs):
        effect = self.side_effect
        if effect is not None:
            if _is_exception(effect):
                raise effect
            if callable(effect):
                result = effect(*args, **kwargs)
            else:
                result = next(effect)
                if _is_exception(result):
                    raise result
            if result is not DEFAULT:
                return result
        if self._mock_return_value is not DEFAULT:
            return self.return_value
        if self._mock_wraps is not None:
            return self._mock_wraps(*args, **kwargs)
        return self.return_value


class Mock(CallableMixin, NonCallableMock):
    """A callable mock: attributes are mocks made on first use, calls are recorded and return
    return_value (one mock, the same every time) unless side_effect says otherwise."""


class _MagicSlot:
    """What a mock's class holds for a magic method it has not used yet: the first access (or the
    first implicit use, e.g. len()) makes the method's child mock, with its default answer."""

    def __init__(self, name, owner):
        self.name = name
        self.owner = owner

    def _make(self):
        owner, name = self.owner, self.name
        child = owner._get_child_mock(name=name, _new_name=name, _new_parent=owner)
        setattr(owner, name, child)
        _give_default(owner, child, name)
        return child

    def __call__(self, *args, **kwargs):
        return self._make()(*args, **kwargs)

    def __get__(self, obj, owner_type=None):
        return self._make()


def _give_default(owner, method, name):
    if name in _fixed_results:
        method.return_value = _fixed_results[name]
    elif name == "__hash__":
        method.return_value = object.__hash__(owner)
    elif name == "__str__":
        method.return_value = object.__str__(owner)
    elif name == "__sizeof__":
        method.return_value = object.__sizeof__(owner)
    elif name == "__fspath__":
        method.return_value = "%s/%s/%s" % (type(owner).__name__, owner._extract_mock_name(), id(owner))
    elif name == "__eq__":
        def equal(other):
            answer = method._mock_return_value
            if answer is not DEFAULT:
                return answer
            return True if owner is other else NotImplemented
        method.side_effect = equal
    elif name == "__ne__":
        def not_equal(other):
            answer = method._mock_return_value
            if answer is not DEFAULT:
                return answer
            return False if owner is other else NotImplemented
        method.side_effect = not_equal
    elif name == "__iter__":
        def iterate():
            answer = method._mock_return_value
            return iter([]) if answer is DEFAULT else iter(answer)
        method.side_effect = iterate


class MagicMixin:
    def __init__(self, *args, **kwargs):
        self._mock_set_magics()
        super().__init__(*args, **kwargs)
        self._mock_set_magics()   # again: the spec is known now

    def _mock_set_magics(self):
        own = type(self)
        wanted = _default_magics
        methods = self.__dict__.get("_mock_methods")
        if methods is not None:
            wanted = _default_magics.intersection(methods)
            for name in _default_magics - wanted:
                if name in own.__dict__:
                    delattr(own, name)
        present = own.__dict__
        for name in wanted:
            if name not in present:
                setattr(own, name, _MagicSlot(name, self))

    def mock_add_spec(self, spec, spec_set=False):
        self._mock_add_spec(spec, spec_set)
        self._mock_set_magics()


class NonCallableMagicMock(MagicMixin, NonCallableMock):
    """A non-callable mock with MagicMock's magic methods."""


class MagicMock(MagicMixin, Mock):
    """Mock with defaults for the magic methods (len 0, iter empty, bool True, int 1, ...)."""


class PropertyMock(Mock):
    """A mock to put on a class as a property: reading the attribute calls it, assigning calls it with
    the value."""

    def _get_child_mock(self, **kwargs):
        return MagicMock(**kwargs)

    def __get__(self, obj, obj_type=None):
        return self()

    def __set__(self, obj, value):
        self(value)


# mock_open

_file_names = ["__enter__", "__exit__", "__iter__", "__next__", "__eq__", "__ne__", "__lt__", "__le__", "__gt__",
               "__ge__", "__hash__", "__str__", "__sizeof__", "__getstate__", "__repr__", "__dir__", "__format__",
               "__reduce__", "__reduce_ex__", "buffer", "close", "closed", "detach", "encoding", "errors", "fileno",
               "flush", "getbuffer", "getvalue", "isatty", "line_buffering", "mode", "name", "newlines", "read",
               "read1", "readable", "readinto", "readinto1", "readline", "readlines", "reconfigure", "seek",
               "seekable", "tell", "truncate", "writable", "write", "write_through", "writelines"]


def _stream(data):
    return io.BytesIO(data) if isinstance(data, bytes) else io.StringIO(data)


def mock_open(mock=None, read_data=""):
    """A MagicMock standing for open(): each call returns one file handle mock whose read, readline,
    readlines and iteration serve `read_data`, starting again at every open() call."""
    stream = [_stream(read_data)]

    def remaining_lines():
        if handle.readline.return_value is not None:
            while True:
                yield handle.readline.return_value
        line = stream[0].readline()
        while line:
            yield line
            line = stream[0].readline()

    def read(*args, **kwargs):
        if handle.read.return_value is not None:
            return handle.read.return_value
        return stream[0].read(*args, **kwargs)

    def readline_generator():
        yield from remaining_lines()
        while True:
            yield stream[0].readline()

    def readlines(*args, **kwargs):
        if handle.readlines.return_value is not None:
            return handle.readlines.return_value
        return stream[0].readlines(*args, **kwargs)

    def next_line():
        if handle.readline.return_value is not None:
            return handle.readline.return_value
        line = stream[0].readline()
        if not line:
            raise StopIteration
        return line

    if mock is None:
        mock = MagicMock(name="open", spec=builtins.open)
    handle = MagicMock(spec=_file_names)
    handle.__enter__.return_value = handle
    handle.write.return_value = None
    handle.read.return_value = None
    handle.readline.return_value = None
    handle.readlines.return_value = None
    handle.read.side_effect = read
    readline_state = [readline_generator()]
    handle.readline.side_effect = readline_state[0]
    handle.readlines.side_effect = readlines
    handle.__iter__.side_effect = remaining_lines
    handle.__next__.side_effect = next_line

    def reopen(*args, **kwargs):
        stream[0] = _stream(read_data)
        if handle.readline.side_effect is readline_state[0]:
            readline_state[0] = readline_generator()
            handle.readline.side_effect = readline_state[0]
        return DEFAULT

    mock.side_effect = reopen
    mock.return_value = handle
    return mock


# patch

def _resolve(dotted):
    """The object a dotted path names, importing its modules as `import` would."""
    parts = dotted.split(".")
    path = parts[0]
    obj = __import__(path)
    for part in parts[1:]:
        path += "." + part
        try:
            obj = getattr(obj, part)
        except AttributeError:
            __import__(path)
            obj = getattr(obj, part)
    return obj


def _split_target(target):
    try:
        owner, attribute = target.rsplit(".", 1)
    except (TypeError, ValueError, AttributeError):
        raise TypeError("Need a valid target to patch. You supplied: %r" % (target,))
    return (lambda: _resolve(owner)), attribute


_active_patches = []


class _Patcher:
    """One patch of one attribute: a decorator, a context manager, or start()/stop()."""
    TEST_PREFIX = "test"

    def __init__(self, getter, attribute, new, spec, create, spec_set, autospec, new_callable, kwargs):
        if new_callable is not None and new is not DEFAULT:
            raise ValueError("Cannot use 'new' and 'new_callable' together")
        self.getter = getter
        self.attribute = attribute
        self.new = new
        self.new_callable = new_callable
        self.spec = spec
        self.create = create
        self.spec_set = spec_set
        self.autospec = autospec
        self.kwargs = kwargs
        self.is_local = False
        self.attribute_name = None

    def copy(self):
        return _Patcher(self.getter, self.attribute, self.new, self.spec, self.create, self.spec_set,
                        self.autospec, self.new_callable, self.kwargs)

    def __call__(self, func):
        if isinstance(func, type):
            return self._decorate_class(func)
        return self._decorate_callable(func)

    def _decorate_class(self, klass):
        for name in dir(klass):
            if not name.startswith(self.TEST_PREFIX):
                continue
            value = getattr(klass, name)
            if callable(value):
                setattr(klass, name, self.copy()(value))
        return klass

    def _decorate_callable(self, func):
        if hasattr(func, "patchings") and isinstance(func.patchings, list):
            # stacked patch decorators share one wrapper; the innermost one's argument comes first
            func.patchings.append(self)
            return func

        @wraps(func)
        def patched(*args, **kwargs):
            extra = []
            entered = []
            try:
                for patching in patched.patchings:
                    value = patching.__enter__()
                    entered.append(patching)
                    if patching.attribute_name is not None:
                        kwargs.update(value)
                    elif patching.new is DEFAULT:
                        extra.append(value)
                return func(*args, *extra, **kwargs)
            finally:
                for patching in reversed(entered):
                    patching.__exit__(None, None, None)

        patched.patchings = [self]
        return patched

    def _original(self):
        target = self.getter()
        name = self.attribute
        try:
            original, local = target.__dict__[name], True
        except (AttributeError, KeyError):
            original, local = getattr(target, name, DEFAULT), False
        if not self.create and original is DEFAULT:
            raise AttributeError("%s does not have the attribute %r" % (target, name))
        return target, original, local

    def _make_new(self, original):
        new = self.new
        if new is not DEFAULT:
            return new
        spec, spec_set = self.spec, self.spec_set
        if spec is True:
            spec = original
        if spec_set is True:
            spec_set = original
        klass = MagicMock
        kwargs = {}
        if self.new_callable is not None:
            klass = self.new_callable
        elif spec is not None or spec_set is not None:
            this_spec = spec_set if spec_set is not None else spec
            if isinstance(this_spec, (list, tuple)):
                not_callable = "__call__" not in this_spec
            else:
                not_callable = not callable(this_spec)
            if not_callable:
                klass = NonCallableMagicMock
        if spec is not None:
            kwargs["spec"] = spec
        if spec_set is not None:
            kwargs["spec_set"] = spec_set
        kwargs.update(self.kwargs)
        new = klass(**kwargs)
        this_spec = spec_set if spec_set is not None else spec
        if isinstance(this_spec, type) and _is_mock(new):
            # patching a class with a spec: its instances are specced too, callable only if the class
            # defines __call__
            if not any("__call__" in vars(base) for base in this_spec.__mro__ if base is not object):
                klass = NonCallableMagicMock
            kwargs.pop("name", None)
            new.return_value = klass(_new_parent=new, _new_name="()", **kwargs)
        return new

    def __enter__(self):
        target, original, local = self._original()
        new = self._make_new(original)
        self.target, self.temp_original, self.is_local = target, original, local
        setattr(target, self.attribute, new)
        if self.attribute_name is not None:
            return {self.attribute_name: new} if self.new is DEFAULT else {}
        return new

    def __exit__(self, *exc_info):
        if self.is_local and self.temp_original is not DEFAULT:
            setattr(self.target, self.attribute, self.temp_original)
        else:
            delattr(self.target, self.attribute)
            if not self.create and (not hasattr(self.target, self.attribute)
                                    or self.attribute in ("__doc__", "__module__", "__defaults__",
                                                          "__annotations__", "__kwdefaults__")):
                setattr(self.target, self.attribute, self.temp_original)
        del self.target, self.temp_original
        self.is_local = False
        return False

    def start(self):
        result = self.__enter__()
        _active_patches.append(self)
        return result

    def stop(self):
        if self in _active_patches:
            _active_patches.remove(self)
        if not hasattr(self, "target"):
            return None
        return self.__exit__(None, None, None)


def patch(target, new=DEFAULT, spec=None, create=False, spec_set=None, autospec=None, new_callable=None, *,
          unsafe=False, **kwargs):
    """Replaces the attribute a dotted `target` names with `new` (default: a MagicMock) while a
    decorated function runs or a `with` block lasts, then restores it."""
    getter, attribute = _split_target(target)
    return _Patcher(getter, attribute, new, spec, create, spec_set, autospec, new_callable, kwargs)


def _patch_object(target, attribute, new=DEFAULT, spec=None, create=False, spec_set=None, autospec=None,
                  new_callable=None, *, unsafe=False, **kwargs):
    if isinstance(target, str):
        raise TypeError("%r must be the actual object to be patched, not a str" % (target,))
    return _Patcher(lambda: target, attribute, new, spec, create, spec_set, autospec, new_callable, kwargs)


def _patch_multiple(target, spec=None, create=False, spec_set=None, autospec=None, new_callable=None, **kwargs):
    if isinstance(target, str):
        target_name = target
        getter = lambda: _resolve(target_name)
    else:
        getter = lambda: target
    if not kwargs:
        raise ValueError("Must supply at least one keyword argument with patch.multiple")
    patchers = []
    for attribute, new in kwargs.items():
        patcher = _Patcher(getter, attribute, new, spec, create, spec_set, autospec, new_callable, {})
        patcher.attribute_name = attribute
        patchers.append(patcher)
    return _MultiPatcher(patchers)


class _MultiPatcher:
    attribute_name = "*"
    new = None

    def __init__(self, patchers):
        self.patchers = patchers

    def __enter__(self):
        values = {}
        for p in self.patchers:
            values.update(p.__enter__())
        return values

    def __exit__(self, *exc_info):
        for p in reversed(self.patchers):
            p.__exit__(*exc_info)
        return False

    def __call__(self, func):
        return _Patcher._decorate_callable(self, func)

    def start(self):
        result = self.__enter__()
        _active_patches.append(self)
        return result

    def stop(self):
        if self in _active_patches:
            _active_patches.remove(self)
        return self.__exit__(None, None, None)


class _DictPatcher:
    """patch.dict: sets keys of a dict (or a dotted name of one) for a block or a decorated function,
    then restores its whole former content."""
    TEST_PREFIX = "test"

    def __init__(self, in_dict, values=(), clear=False, **kwargs):
        self.in_dict = in_dict
        self.values = dict(values)
        self.values.update(kwargs)
        self.clear = clear
        self._original = None

    def copy(self):
        return _DictPatcher(self.in_dict, self.values, self.clear)

    def __call__(self, f):
        if isinstance(f, type):
            for name in dir(f):
                value = getattr(f, name)
                if name.startswith(self.TEST_PREFIX) and callable(value):
                    setattr(f, name, self.copy()(value))
            return f

        @wraps(f)
        def patched(*args, **kwargs):
            self._patch_dict()
            try:
                return f(*args, **kwargs)
            finally:
                self._unpatch_dict()
        return patched

    def _patch_dict(self):
        if isinstance(self.in_dict, str):
            self.in_dict = _resolve(self.in_dict)
        in_dict = self.in_dict
        try:
            self._original = in_dict.copy()
        except AttributeError:
            self._original = {key: in_dict[key] for key in in_dict}
        if self.clear:
            _clear_dict(in_dict)
        try:
            in_dict.update(self.values)
        except AttributeError:
            for key in self.values:
                in_dict[key] = self.values[key]
        return in_dict

    def _unpatch_dict(self):
        in_dict, original = self.in_dict, self._original
        _clear_dict(in_dict)
        try:
            in_dict.update(original)
        except AttributeError:
            for key in original:
                in_dict[key] = original[key]

    def __enter__(self):
        return self._patch_dict()

    def __exit__(self, *exc_info):
        if self._original is not None:
            self._unpatch_dict()
        return False

    def start(self):
        result = self._patch_dict()
        _active_patches.append(self)
        return result

    def stop(self):
        if self in _active_patches:
            _active_patches.remove(self)
        return self.__exit__(None, None, None)


def _clear_dict(in_dict):
    try:
        in_dict.clear()
    except AttributeError:
        for key in list(in_dict):
            del in_dict[key]


def _stop_all():
    for patcher in reversed(list(_active_patches)):
        patcher.stop()


patch.object = _patch_object
patch.dict = _DictPatcher
patch.multiple = _patch_multiple
patch.stopall = _stop_all
patch.TEST_PREFIX = "test"


def __getattr__(name):
    # CPython has these; onnxify does not model them: an unknown value, reported only where used.
    if name in ("create_autospec", "AsyncMock", "seal", "ThreadingMock"):
        return _onnxify.poison("unittest.mock." + name, "unittest.mock." + name + " is not supported by onnxify")
    raise AttributeError("module 'unittest.mock' has no attribute %r" % name)
