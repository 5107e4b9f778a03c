"""Shallow and deep copy operations (onnxify's stdlib subset)."""
import types

__all__ = ["Error", "copy", "deepcopy"]


class Error(Exception):
    pass


error = Error

_atomic = (type(None), int, float, bool, complex, str, bytes, type, range, types.BuiltinFunctionType,
           type(Ellipsis), type(NotImplemented), types.FunctionType, property, types.CodeType)


def _reconstruct(x, cls):
    y = cls.__new__(cls)
    return y


def copy(x):
    cls = type(x)
    if cls in _atomic or isinstance(x, type):
        return x
    if cls in (list, dict, set, bytearray):
        return cls.copy(x)
    if cls in (tuple, frozenset):
        return x
    copier = getattr(cls, "__copy__", None)
    if copier is not None:
        return copier(x)
    if isinstance(x, (list, dict, set)) or isinstance(x, tuple):
        y = cls.__new__(cls, *((x,) if isinstance(x, tuple) else ()))
        if isinstance(x, list):
            y.extend(x)
        elif isinstance(x, dict):
            dict.update(y, x)
        elif isinstance(x, set):
            y.update(x)
        if hasattr(x, "__dict__"):
            y.__dict__.update(x.__dict__)
        return y
    if not hasattr(x, "__dict__"):
        raise Error("un(shallow)copyable object of type %s" % cls)
    y = _reconstruct(x, cls)
    state = getattr(x, "__getstate__", None)
    if state is not None and getattr(cls, "__getstate__", None) is not getattr(object, "__getstate__", None):
        st = x.__getstate__()
        setstate = getattr(y, "__setstate__", None)
        if setstate is not None:
            setstate(st)
        else:
            y.__dict__.update(st)
        return y
    y.__dict__.update(x.__dict__)
    return y


def deepcopy(x, memo=None, _nil=[]):
    if memo is None:
        memo = {}
    d = id(x)
    y = memo.get(d, _nil)
    if y is not _nil:
        return y
    cls = type(x)
    if cls in _atomic or isinstance(x, type):
        return x
    copier = getattr(x, "__deepcopy__", None) if not isinstance(x, (list, dict, tuple, set, frozenset)) or cls not in (list, dict, tuple, set, frozenset) else None
    if copier is not None:
        y = copier(memo)
    elif cls is list or isinstance(x, list):
        y = [] if cls is list else cls.__new__(cls)
        memo[d] = y
        for a in x:
            y.append(deepcopy(a, memo))
        if cls is not list and hasattr(x, "__dict__"):
            y.__dict__.update(deepcopy(x.__dict__, memo))
    elif cls is tuple:
        y = [deepcopy(a, memo) for a in x]
        try:
            return memo[d]
        except KeyError:
            pass
        for k, j in zip(x, y):
            if k is not j:
                y = tuple(y)
                break
        else:
            y = x
    elif isinstance(x, tuple):
        vals = [deepcopy(a, memo) for a in x]
        y = cls.__new__(cls, *vals) if hasattr(cls, "_fields") else cls.__new__(cls, vals)
    elif cls is dict or isinstance(x, dict):
        if cls is dict:
            y = {}
        else:
            y = cls.__new__(cls)
            if hasattr(x, "__dict__"):
                memo[d] = y
                y.__dict__.update(deepcopy(x.__dict__, memo))
        memo[d] = y
        for key, value in x.items():
            dict.__setitem__(y, deepcopy(key, memo), deepcopy(value, memo))
    elif isinstance(x, (set, frozenset)):
        y = cls(deepcopy(a, memo) for a in x)
    elif hasattr(x, "__dict__"):
        y = _reconstruct(x, cls)
        memo[d] = y
        state = x.__dict__
        if hasattr(cls, "__getstate__") and cls.__getstate__ is not getattr(object, "__getstate__", None):
            state = x.__getstate__()
        state = deepcopy(state, memo)
        if hasattr(y, "__setstate__"):
            y.__setstate__(state)
        else:
            y.__dict__.update(state)
    else:
        raise Error("un(deep)copyable object of type %s" % cls)
    if y is not x:
        memo[d] = y
        _keep_alive(x, memo)
    return y


def _keep_alive(x, memo):
    try:
        memo[id(memo)].append(x)
    except KeyError:
        memo[id(memo)] = [x]
