"""Introspection (onnxify's stdlib subset: what model code uses)."""
import types
import functools
import _onnxify
from collections import OrderedDict, namedtuple

__all__ = ["signature", "Signature", "Parameter", "BoundArguments", "isclass", "isfunction", "ismethod",
           "isbuiltin", "isroutine", "ismodule", "isgenerator", "isgeneratorfunction", "iscoroutinefunction",
           "isabstract", "getmembers", "getmro", "getfullargspec", "getdoc", "cleandoc", "unwrap", "getattr_static",
           "currentframe", "getmodule", "isdatadescriptor", "ismethoddescriptor"]


def isclass(object):
    return isinstance(object, type)


def ismodule(object):
    return isinstance(object, types.ModuleType)


def isfunction(object):
    return isinstance(object, types.FunctionType)


def ismethod(object):
    return isinstance(object, types.MethodType)


def isbuiltin(object):
    return isinstance(object, types.BuiltinFunctionType)


def ismethoddescriptor(object):
    if isclass(object) or ismethod(object) or isfunction(object):
        return False
    tp = type(object)
    return hasattr(tp, "__get__") and not hasattr(tp, "__set__")


def isdatadescriptor(object):
    if isclass(object) or ismethod(object) or isfunction(object):
        return False
    tp = type(object)
    return hasattr(tp, "__set__") or hasattr(tp, "__delete__")


def isroutine(object):
    return (isbuiltin(object) or isfunction(object) or ismethod(object) or ismethoddescriptor(object))


def isgeneratorfunction(object):
    while ismethod(object):
        object = object.__func__
    return isfunction(object) and _onnxify.code_info(object)[6]


def isgenerator(object):
    return isinstance(object, types.GeneratorType)


def iscoroutinefunction(object):
    return False


def iscoroutine(object):
    return False


def isawaitable(object):
    return False


def isabstract(object):
    return bool(isinstance(object, type) and getattr(object, "__abstractmethods__", None))


def getmro(cls):
    return cls.__mro__


def getmembers(object, predicate=None):
    results = []
    names = dir(object)
    for key in names:
        try:
            value = getattr(object, key)
        except AttributeError:
            continue
        if not predicate or predicate(value):
            results.append((key, value))
    results.sort(key=lambda pair: pair[0])
    return results


def getmodule(object, _filename=None):
    import sys
    if ismodule(object):
        return object
    if hasattr(object, "__module__"):
        return sys.modules.get(object.__module__)
    return None


def currentframe():
    return None


def unwrap(func, *, stop=None):
    f = func
    memo = {id(f): f}
    while hasattr(func, "__wrapped__") and not (stop is not None and stop(func)):
        func = func.__wrapped__
        if id(func) in memo:
            raise ValueError("wrapper loop when unwrapping {!r}".format(f))
        memo[id(func)] = func
    return func


def cleandoc(doc):
    try:
        lines = doc.expandtabs().split("\n")
    except UnicodeError:
        return None
    margin = None
    for line in lines[1:]:
        content = len(line.lstrip())
        if content:
            indent = len(line) - content
            margin = indent if margin is None else min(margin, indent)
    if lines:
        lines[0] = lines[0].lstrip()
    if margin is not None:
        for i in range(1, len(lines)):
            lines[i] = lines[i][margin:]
    while lines and not lines[-1]:
        lines.pop()
    while lines and not lines[0]:
        lines.pop(0)
    return "\n".join(lines)


def getdoc(object):
    try:
        doc = object.__doc__
    except AttributeError:
        return None
    if doc is None:
        return None
    if not isinstance(doc, str):
        return None
    return cleandoc(doc)


def getattr_static(obj, attr, default=None):
    for klass in (type(obj).__mro__ if not isinstance(obj, type) else ()):
        if attr in klass.__dict__:
            return klass.__dict__[attr]
    d = getattr(obj, "__dict__", {})
    if attr in d:
        return d[attr]
    if isinstance(obj, type):
        for klass in obj.__mro__:
            if attr in klass.__dict__:
                return klass.__dict__[attr]
    if default is not None:
        return default
    raise AttributeError(attr)


def _given(x):
    """x is not _empty, for a default or an annotation that may be unknown (then it is given)."""
    return _onnxify.is_poison(x) or x is not _empty


def _missing(x):
    return not _onnxify.is_poison(x) and x is _empty


class _empty:
    """Marker object for Signature.empty and Parameter.empty."""


class _void:
    pass


class _ParameterKind(int):
    def __new__(cls, value, name, description):
        self = int.__new__(cls, value)
        self._name_ = name
        self.description = description
        return self

    @property
    def name(self):
        return self._name_

    def __str__(self):
        return self._name_

    def __repr__(self):
        return "<_ParameterKind.%s: %d>" % (self._name_, int(self))


_POSITIONAL_ONLY = _ParameterKind(0, "POSITIONAL_ONLY", "positional-only")
_POSITIONAL_OR_KEYWORD = _ParameterKind(1, "POSITIONAL_OR_KEYWORD", "positional or keyword")
_VAR_POSITIONAL = _ParameterKind(2, "VAR_POSITIONAL", "variadic positional")
_KEYWORD_ONLY = _ParameterKind(3, "KEYWORD_ONLY", "keyword-only")
_VAR_KEYWORD = _ParameterKind(4, "VAR_KEYWORD", "variadic keyword")


def formatannotation(annotation, base_module=None):
    if getattr(annotation, "__module__", None) == "typing":
        return repr(annotation).replace("typing.", "")
    if isinstance(annotation, types.GenericAlias):
        return str(annotation)
    if isinstance(annotation, type):
        if annotation.__module__ in ("builtins", base_module):
            return annotation.__qualname__
        return annotation.__module__ + "." + annotation.__qualname__
    return repr(annotation)


class Parameter:
    __slots__ = ("_name", "_kind", "_default", "_annotation")
    POSITIONAL_ONLY = _POSITIONAL_ONLY
    POSITIONAL_OR_KEYWORD = _POSITIONAL_OR_KEYWORD
    VAR_POSITIONAL = _VAR_POSITIONAL
    KEYWORD_ONLY = _KEYWORD_ONLY
    VAR_KEYWORD = _VAR_KEYWORD
    empty = _empty

    def __init__(self, name, kind, *, default=_empty, annotation=_empty):
        if kind not in (0, 1, 2, 3, 4):
            raise ValueError(f"value {kind!r} is not a valid Parameter.kind")
        self._kind = (_POSITIONAL_ONLY, _POSITIONAL_OR_KEYWORD, _VAR_POSITIONAL, _KEYWORD_ONLY, _VAR_KEYWORD)[kind]
        if _given(default) and self._kind in (_VAR_POSITIONAL, _VAR_KEYWORD):
            raise ValueError(f"{self._kind.description} parameters cannot have default values")
        self._default = default
        self._annotation = annotation
        if not isinstance(name, str):
            raise TypeError("name must be a str, not a {}".format(type(name).__name__))
        if not name.isidentifier():
            raise ValueError("{!r} is not a valid parameter name".format(name))
        self._name = name

    @property
    def name(self):
        return self._name

    @property
    def default(self):
        return self._default

    @property
    def annotation(self):
        return self._annotation

    @property
    def kind(self):
        return self._kind

    def replace(self, *, name=_void, kind=_void, annotation=_void, default=_void):
        if name is _void:
            name = self._name
        if kind is _void:
            kind = self._kind
        if annotation is _void:
            annotation = self._annotation
        if default is _void:
            default = self._default
        return type(self)(name, kind, default=default, annotation=annotation)

    def __str__(self):
        kind = self.kind
        formatted = self._name
        if _given(self._annotation):
            formatted = "{}: {}".format(formatted, formatannotation(self._annotation))
        if _given(self._default):
            if _given(self._annotation):
                formatted = "{} = {}".format(formatted, repr(self._default))
            else:
                formatted = "{}={}".format(formatted, repr(self._default))
        if kind == _VAR_POSITIONAL:
            formatted = "*" + formatted
        elif kind == _VAR_KEYWORD:
            formatted = "**" + formatted
        return formatted

    def __repr__(self):
        return '<{} "{}">'.format(self.__class__.__name__, self)

    def __hash__(self):
        return hash((self.name, self.kind, self.annotation, self.default))

    def __eq__(self, other):
        if self is other:
            return True
        if not isinstance(other, Parameter):
            return NotImplemented
        return (self._name == other._name and self._kind == other._kind and self._default == other._default and
                self._annotation == other._annotation)


class BoundArguments:
    __slots__ = ("arguments", "_signature")

    def __init__(self, signature, arguments):
        self.arguments = arguments
        self._signature = signature

    @property
    def signature(self):
        return self._signature

    @property
    def args(self):
        args = []
        for param_name, param in self._signature.parameters.items():
            if param.kind in (_VAR_KEYWORD, _KEYWORD_ONLY):
                break
            try:
                arg = self.arguments[param_name]
            except KeyError:
                break
            else:
                if param.kind == _VAR_POSITIONAL:
                    args.extend(arg)
                else:
                    args.append(arg)
        return tuple(args)

    @property
    def kwargs(self):
        kwargs = {}
        kwargs_started = False
        for param_name, param in self._signature.parameters.items():
            if not kwargs_started:
                if param.kind in (_VAR_KEYWORD, _KEYWORD_ONLY):
                    kwargs_started = True
                else:
                    if param_name not in self.arguments:
                        kwargs_started = True
                        continue
            if not kwargs_started:
                continue
            try:
                arg = self.arguments[param_name]
            except KeyError:
                pass
            else:
                if param.kind == _VAR_KEYWORD:
                    kwargs.update(arg)
                else:
                    kwargs[param_name] = arg
        return kwargs

    def __eq__(self, other):
        if self is other:
            return True
        if not isinstance(other, BoundArguments):
            return NotImplemented
        return self.signature == other.signature and self.arguments == other.arguments

    def apply_defaults(self):
        arguments = self.arguments
        new_arguments = []
        for name, param in self._signature.parameters.items():
            if name in arguments:  # not arguments[name] inside try: see _bind
                new_arguments.append((name, arguments[name]))
            else:
                if _given(param.default):
                    val = param.default
                elif param.kind is _VAR_POSITIONAL:
                    val = ()
                elif param.kind is _VAR_KEYWORD:
                    val = {}
                else:
                    continue
                new_arguments.append((name, val))
        self.arguments = dict(new_arguments)

    def __repr__(self):
        args = []
        for arg, value in self.arguments.items():
            args.append("{}={!r}".format(arg, value))
        return "<{} ({})>".format(self.__class__.__name__, ", ".join(args))


class Signature:
    __slots__ = ("_return_annotation", "_parameters")
    _parameter_cls = Parameter
    _bound_arguments_cls = BoundArguments
    empty = _empty

    def __init__(self, parameters=None, *, return_annotation=_empty, __validate_parameters__=True):
        if parameters is None:
            params = OrderedDict()
        else:
            params = OrderedDict()
            top_kind = _POSITIONAL_ONLY
            seen_default = False
            for param in parameters:
                kind = param.kind
                name = param.name
                if __validate_parameters__:
                    if kind < top_kind:
                        msg = "wrong parameter order: {} parameter before {} parameter"
                        raise ValueError(msg.format(top_kind.description, kind.description))
                    elif kind > top_kind:
                        top_kind = kind
                    if kind in (_POSITIONAL_ONLY, _POSITIONAL_OR_KEYWORD):
                        if _missing(param.default):
                            if seen_default:
                                raise ValueError("non-default argument follows default argument")
                        else:
                            seen_default = True
                if name in params:
                    raise ValueError("duplicate parameter name: {!r}".format(name))
                params[name] = param
        self._parameters = types.MappingProxyType(params)
        self._return_annotation = return_annotation

    @classmethod
    def from_callable(cls, obj, *, follow_wrapped=True):
        return signature(obj, follow_wrapped=follow_wrapped)

    @property
    def parameters(self):
        return self._parameters

    @property
    def return_annotation(self):
        return self._return_annotation

    def replace(self, *, parameters=_void, return_annotation=_void):
        if parameters is _void:
            parameters = self.parameters.values()
        if return_annotation is _void:
            return_annotation = self._return_annotation
        return type(self)(parameters, return_annotation=return_annotation)

    def __eq__(self, other):
        if self is other:
            return True
        if not isinstance(other, Signature):
            return NotImplemented
        return (self.return_annotation == other.return_annotation and
                list(self.parameters.items()) == list(other.parameters.items()))

    def __hash__(self):
        return hash((tuple(self.parameters.values()), self.return_annotation))

    def _bind(self, args, kwargs, *, partial=False):
        # CPython's algorithm, walked by index and membership tests instead of next()/pop() inside
        # try: a raised exception is far dearer here than in CPython, and Keras binds every layer's
        # constructor arguments.
        arguments = {}
        params = list(self.parameters.values())
        args = tuple(args)
        nparams, nargs = len(params), len(args)
        i = k = 0  # the next parameter, the next positional argument
        parameters_ex = ()
        while True:
            if k >= nargs:
                if i >= nparams:
                    break
                param = params[i]
                i += 1
                if param.kind == _VAR_POSITIONAL:
                    break
                elif param.name in kwargs:
                    if param.kind == _POSITIONAL_ONLY:
                        msg = "{arg!r} parameter is positional only, but was passed as a keyword"
                        raise TypeError(msg.format(arg=param.name)) from None
                    parameters_ex = (param,)
                    break
                elif (param.kind == _VAR_KEYWORD or _given(param.default)):
                    parameters_ex = (param,)
                    break
                elif partial:
                    parameters_ex = (param,)
                    break
                else:
                    raise TypeError("missing a required argument: {arg!r}".format(arg=param.name)) from None
            else:
                arg_val = args[k]
                k += 1
                if i >= nparams:
                    raise TypeError("too many positional arguments") from None
                param = params[i]
                i += 1
                if param.kind in (_VAR_KEYWORD, _KEYWORD_ONLY):
                    raise TypeError("too many positional arguments") from None
                if param.kind == _VAR_POSITIONAL:
                    arguments[param.name] = (arg_val,) + args[k:]
                    break
                if param.name in kwargs and param.kind != _POSITIONAL_ONLY:
                    raise TypeError("multiple values for argument {arg!r}".format(arg=param.name)) from None
                arguments[param.name] = arg_val
        kwargs_param = None
        for param in list(parameters_ex) + params[i:]:
            if param.kind == _VAR_KEYWORD:
                kwargs_param = param
                continue
            if param.kind == _VAR_POSITIONAL:
                continue
            param_name = param.name
            if param_name in kwargs:
                arg_val = kwargs.pop(param_name)
                if param.kind == _POSITIONAL_ONLY:
                    raise TypeError("{arg!r} parameter is positional only, but was passed as a keyword".format(
                        arg=param.name))
                arguments[param_name] = arg_val
            elif not partial and _missing(param.default):
                raise TypeError("missing a required argument: {arg!r}".format(arg=param_name)) from None
        if kwargs:
            if kwargs_param is not None:
                arguments[kwargs_param.name] = kwargs
            else:
                raise TypeError("got an unexpected keyword argument {arg!r}".format(arg=next(iter(kwargs))))
        return self._bound_arguments_cls(self, arguments)

    def bind(self, /, *args, **kwargs):
        return self._bind(args, kwargs)

    def bind_partial(self, /, *args, **kwargs):
        return self._bind(args, kwargs, partial=True)

    def __repr__(self):
        return "<{} {}>".format(self.__class__.__name__, self)

    def __str__(self):
        result = []
        render_pos_only_separator = False
        render_kw_only_separator = True
        for param in self.parameters.values():
            formatted = str(param)
            kind = param.kind
            if kind == _POSITIONAL_ONLY:
                render_pos_only_separator = True
            elif render_pos_only_separator:
                result.append("/")
                render_pos_only_separator = False
            if kind == _VAR_POSITIONAL:
                render_kw_only_separator = False
            elif kind == _KEYWORD_ONLY and render_kw_only_separator:
                result.append("*")
                render_kw_only_separator = False
            result.append(formatted)
        if render_pos_only_separator:
            result.append("/")
        rendered = "({})".format(", ".join(result))
        if _given(self.return_annotation):
            anno = formatannotation(self.return_annotation)
            rendered += " -> {}".format(anno)
        return rendered


def _signature_from_function(cls, func):
    names, posonly, argcount, kwonlycount, varargs, varkw, _gen = _onnxify.code_info(func)
    annotations = func.__annotations__
    defaults = func.__defaults__ or ()
    kwdefaults = func.__kwdefaults__ or {}
    parameters = []
    non_default_count = argcount - len(defaults)
    for i in range(argcount):
        name = names[i]
        kind = _POSITIONAL_ONLY if i < posonly else _POSITIONAL_OR_KEYWORD
        default = defaults[i - non_default_count] if i >= non_default_count else _empty
        parameters.append(Parameter(name, kind, default=default, annotation=annotations.get(name, _empty)))
    idx = argcount
    kwonly_names = names[idx:idx + kwonlycount]
    idx += kwonlycount
    if varargs:
        name = names[idx]
        idx += 1
        parameters.append(Parameter(name, _VAR_POSITIONAL, annotation=annotations.get(name, _empty)))
    for name in kwonly_names:
        parameters.append(Parameter(name, _KEYWORD_ONLY, default=kwdefaults.get(name, _empty),
                                    annotation=annotations.get(name, _empty)))
    if varkw:
        name = names[idx]
        parameters.append(Parameter(name, _VAR_KEYWORD, annotation=annotations.get(name, _empty)))
    return cls(parameters, return_annotation=annotations.get("return", _empty), __validate_parameters__=False)


def _drop_first(sig):
    params = tuple(sig.parameters.values())
    if not params or params[0].kind in (_VAR_KEYWORD, _KEYWORD_ONLY):
        raise ValueError("invalid method signature")
    if params[0].kind == _VAR_POSITIONAL:
        return sig
    return sig.replace(parameters=params[1:])


def signature(obj, *, follow_wrapped=True, globals=None, locals=None, eval_str=False):
    if not callable(obj):
        raise TypeError("{!r} is not a callable object".format(obj))
    if isinstance(obj, types.MethodType):
        return _drop_first(signature(obj.__func__, follow_wrapped=follow_wrapped))
    if follow_wrapped:
        obj = unwrap(obj, stop=(lambda f: hasattr(f, "__signature__")))
        if isinstance(obj, types.MethodType):
            return signature(obj)
    sig = getattr(obj, "__signature__", None)
    if sig is not None:
        if not isinstance(sig, Signature):
            raise TypeError("unexpected object {!r} in __signature__ attribute".format(sig))
        return sig
    if isfunction(obj):
        return _signature_from_function(Signature, obj)
    if isinstance(obj, functools.partial):
        wrapped = signature(obj.func)
        params = list(wrapped.parameters.values())
        args = list(obj.args)
        new_params = []
        for p in params:
            if args and p.kind in (_POSITIONAL_ONLY, _POSITIONAL_OR_KEYWORD):
                args.pop(0)
                continue
            if p.name in obj.keywords:
                new_params.append(p.replace(default=obj.keywords[p.name], kind=_KEYWORD_ONLY)
                                  if p.kind != _POSITIONAL_ONLY else p)
                continue
            new_params.append(p)
        ordered = sorted(new_params, key=lambda p: int(p.kind))
        return wrapped.replace(parameters=ordered)
    if isinstance(obj, type):
        for base in obj.__mro__:
            if "__signature__" in base.__dict__ and isinstance(base.__dict__["__signature__"], Signature):
                return base.__dict__["__signature__"]
        meta_call = None
        for base in type(obj).__mro__:
            if "__call__" in base.__dict__:
                meta_call = base.__dict__["__call__"]
                break
        if meta_call is not None and isfunction(meta_call):
            return _drop_first(signature(meta_call))
        new = init = None
        for base in obj.__mro__:
            if new is None and "__new__" in base.__dict__:
                new = base.__dict__["__new__"]
                new_owner = base
            if init is None and "__init__" in base.__dict__:
                init = base.__dict__["__init__"]
                init_owner = base
        if isinstance(new, staticmethod):
            new = new.__func__
        if init is not None and isfunction(init) and init_owner is not object:
            return _drop_first(signature(init))
        if new is not None and isfunction(new) and new_owner is not object:
            return _drop_first(signature(new))
        if obj.__init__ is object.__init__ and obj.__new__ is object.__new__:
            return Signature()
        raise ValueError("no signature found for builtin type {!r}".format(obj))
    if isbuiltin(obj) or ismethoddescriptor(obj) or isinstance(obj, (types.WrapperDescriptorType,
                                                                       types.MethodWrapperType)):
        raise ValueError("no signature found for builtin {!r}".format(obj))
    call = None
    for base in type(obj).__mro__:
        if "__call__" in base.__dict__:
            call = base.__dict__["__call__"]
            break
    if call is not None and isfunction(call):
        return _drop_first(signature(call))
    raise ValueError("callable {!r} is not supported by signature".format(obj))


FullArgSpec = namedtuple("FullArgSpec", "args, varargs, varkw, defaults, kwonlyargs, kwonlydefaults, annotations")


def getfullargspec(func):
    sig = signature(func, follow_wrapped=False)
    args = []
    varargs = None
    varkw = None
    posonlyargs = []
    kwonlyargs = []
    annotations = {}
    defaults = ()
    kwdefaults = {}
    if sig.return_annotation is not sig.empty:
        annotations["return"] = sig.return_annotation
    for param in sig.parameters.values():
        kind = param.kind
        name = param.name
        if kind is _POSITIONAL_ONLY:
            posonlyargs.append(name)
            if param.default is not param.empty:
                defaults += (param.default,)
        elif kind is _POSITIONAL_OR_KEYWORD:
            args.append(name)
            if param.default is not param.empty:
                defaults += (param.default,)
        elif kind is _VAR_POSITIONAL:
            varargs = name
        elif kind is _KEYWORD_ONLY:
            kwonlyargs.append(name)
            if param.default is not param.empty:
                kwdefaults[name] = param.default
        elif kind is _VAR_KEYWORD:
            varkw = name
        if param.annotation is not param.empty:
            annotations[name] = param.annotation
    if not kwdefaults:
        kwdefaults = None
    if not defaults:
        defaults = None
    return FullArgSpec(posonlyargs + args, varargs, varkw, defaults, kwonlyargs, kwdefaults, annotations)


def getsource(object):
    raise OSError("could not get source code")


def getsourcefile(object):
    return None


def getfile(object):
    raise TypeError("{!r} is a built-in module".format(object))


# Frames are not modelled (currentframe() is None, which CPython also allows): code may import these
# at module level (`from inspect import getframeinfo`) and only fails where it calls them.
def getframeinfo(frame, context=1):
    raise TypeError("{!r} is not a frame or traceback object".format(frame))


def stack(context=1):
    return []


def getouterframes(frame, context=1):
    raise TypeError("{!r} is not a frame or traceback object".format(frame))


def getsourcelines(object):
    raise OSError("could not get source code")


_onnxify.poison_transparent(formatannotation, signature, getmembers, isclass, isfunction, ismethod, ismodule,
                            isroutine, isgeneratorfunction, iscoroutinefunction, isabstract, getmodule, getdoc)


def get_annotations(obj, *, globals=None, locals=None, eval_str=False):
    """CPython 3.11's inspect.get_annotations: a class's own annotations (not its bases'), a
    module's or a callable's; with eval_str, string annotations are evaluated as typing does."""
    if isinstance(obj, type):
        obj_dict = getattr(obj, "__dict__", None)
        ann = obj_dict.get("__annotations__", None) if obj_dict is not None and hasattr(obj_dict, "get") else None
        if isinstance(ann, types.GetSetDescriptorType):
            ann = None
        module_name = getattr(obj, "__module__", None)
        obj_globals = None
        if module_name:
            import sys
            module = sys.modules.get(module_name, None)
            if module is not None:
                obj_globals = getattr(module, "__dict__", None)
        obj_locals = dict(vars(obj))
        unwrap_ = obj
    elif isinstance(obj, types.ModuleType):
        ann = getattr(obj, "__annotations__", None)
        obj_globals = getattr(obj, "__dict__")
        obj_locals = None
        unwrap_ = None
    elif callable(obj):
        ann = getattr(obj, "__annotations__", None)
        obj_globals = getattr(obj, "__globals__", None)
        obj_locals = None
        unwrap_ = obj
    else:
        raise TypeError(f"{obj!r} is not a module, class, or callable.")
    if ann is None:
        return {}
    if not isinstance(ann, dict):
        raise ValueError(f"{obj!r}.__annotations__ is neither a dict nor None")
    if not ann:
        return {}
    if not eval_str:
        return dict(ann)
    import typing
    if globals is None:
        globals = obj_globals
    if locals is None:
        locals = obj_locals
    return {key: typing._eval_annotation(value, globals, locals) if isinstance(value, str) else value
            for key, value in ann.items()}
