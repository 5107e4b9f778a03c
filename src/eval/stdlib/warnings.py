"""Warnings (onnxify's stdlib subset): warn() records into catch_warnings(record=True) lists and
otherwise writes nothing to stdout."""
import sys
import _onnxify

__all__ = ["warn", "warn_explicit", "showwarning", "formatwarning", "filterwarnings", "simplefilter",
           "resetwarnings", "catch_warnings"]

filters = []
defaultaction = "default"
_recorders = []
_onceregistry = {}


class WarningMessage(object):
    _WARNING_DETAILS = ("message", "category", "filename", "lineno", "file", "line", "source")

    def __init__(self, message, category, filename, lineno, file=None, line=None, source=None):
        self.message = message
        self.category = category
        self.filename = filename
        self.lineno = lineno
        self.file = file
        self.line = line
        self.source = source
        self._category_name = category.__name__ if category else None

    def __str__(self):
        return ("{message : %r, category : %r, filename : %r, lineno : %s, line : %r}" %
                (self.message, self._category_name, self.filename, self.lineno, self.line))


def formatwarning(message, category, filename, lineno, line=None):
    return "%s:%s: %s: %s\n" % (filename, lineno, category.__name__, message)


def showwarning(message, category, filename, lineno, file=None, line=None):
    _onnxify.write_err(formatwarning(message, category, filename, lineno, line))


def _action_for(category, text):
    for action, msg, cat, mod, lineno in filters:
        if (msg is None or msg in text) and issubclass(category, cat):
            return action
    return defaultaction


def warn(message, category=None, stacklevel=1, source=None):
    if isinstance(message, Warning):
        category = message.__class__
    if category is None:
        category = UserWarning
    if not (isinstance(category, type) and issubclass(category, Warning)):
        raise TypeError("category must be a Warning subclass, not '{:s}'".format(type(category).__name__))
    text = str(message)
    action = _action_for(category, text)
    if action == "error":
        if isinstance(message, Warning):
            raise message
        raise category(message)
    if action == "ignore":
        return
    msg = message if isinstance(message, Warning) else category(message)
    if _recorders:
        _recorders[-1].append(WarningMessage(msg, category, "<onnxify>", 0))
        return
    showwarning(msg, category, "<onnxify>", 0)


def warn_explicit(message, category, filename, lineno, module=None, registry=None, module_globals=None, source=None):
    warn(message, category)


def filterwarnings(action, message="", category=Warning, module="", lineno=0, append=False):
    item = (action, message or None, category, module, lineno)
    if append:
        filters.append(item)
    else:
        filters.insert(0, item)


def simplefilter(action, category=Warning, lineno=0, append=False):
    item = (action, None, category, None, lineno)
    if append:
        filters.append(item)
    else:
        filters.insert(0, item)


def resetwarnings():
    filters[:] = []


class catch_warnings(object):
    def __init__(self, *, record=False, module=None, action=None, category=Warning, lineno=0, append=False):
        self._record = record
        self._entered = False
        self._action = action
        self._category = category

    def __enter__(self):
        self._entered = True
        self._filters = filters[:]
        log = None
        if self._record:
            log = []
            _recorders.append(log)
        self._log = log
        if self._action:
            simplefilter(self._action, self._category)
        return log

    def __exit__(self, *exc_info):
        filters[:] = self._filters
        if self._log is not None:
            _recorders.remove(self._log)
