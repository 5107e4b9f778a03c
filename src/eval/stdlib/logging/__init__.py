"""Logging (onnxify's stdlib subset): the full API, no output."""
import sys

__all__ = ["BASIC_FORMAT", "CRITICAL", "DEBUG", "ERROR", "FATAL", "Formatter", "Handler", "INFO", "LogRecord",
           "Logger", "NOTSET", "NullHandler", "StreamHandler", "WARN", "WARNING", "addLevelName", "basicConfig",
           "critical", "debug", "disable", "error", "exception", "getLevelName", "getLogger", "info", "log",
           "warning", "captureWarnings", "FileHandler", "root"]

CRITICAL = 50
FATAL = CRITICAL
ERROR = 40
WARNING = 30
WARN = WARNING
INFO = 20
DEBUG = 10
NOTSET = 0
BASIC_FORMAT = "%(levelname)s:%(name)s:%(message)s"
raiseExceptions = True

_levelToName = {CRITICAL: "CRITICAL", ERROR: "ERROR", WARNING: "WARNING", INFO: "INFO", DEBUG: "DEBUG",
                NOTSET: "NOTSET"}
_nameToLevel = {"CRITICAL": CRITICAL, "FATAL": FATAL, "ERROR": ERROR, "WARN": WARNING, "WARNING": WARNING,
                "INFO": INFO, "DEBUG": DEBUG, "NOTSET": NOTSET}


def getLevelName(level):
    result = _levelToName.get(level)
    if result is not None:
        return result
    result = _nameToLevel.get(level)
    if result is not None:
        return result
    return "Level %s" % level


def addLevelName(level, levelName):
    _levelToName[level] = levelName
    _nameToLevel[levelName] = level


def _checkLevel(level):
    if isinstance(level, int):
        return level
    if str(level) == level:
        if level not in _nameToLevel:
            raise ValueError("Unknown level: %r" % level)
        return _nameToLevel[level]
    raise TypeError("Level not an integer or a valid string: %r" % (level,))


class LogRecord:
    def __init__(self, name, level, pathname, lineno, msg, args, exc_info, func=None, sinfo=None, **kwargs):
        self.name = name
        self.levelno = level
        self.levelname = getLevelName(level)
        self.pathname = pathname
        self.lineno = lineno
        self.msg = msg
        self.args = args
        self.exc_info = exc_info
        self.funcName = func

    def getMessage(self):
        msg = str(self.msg)
        if self.args:
            msg = msg % self.args
        return msg


class Formatter:
    def __init__(self, fmt=None, datefmt=None, style="%", validate=True, *, defaults=None):
        self._fmt = fmt or "%(message)s"
        self.datefmt = datefmt

    def format(self, record):
        record.message = record.getMessage()
        return self._fmt % record.__dict__


class Filterer:
    def __init__(self):
        self.filters = []

    def addFilter(self, filter):
        if filter not in self.filters:
            self.filters.append(filter)

    def removeFilter(self, filter):
        if filter in self.filters:
            self.filters.remove(filter)

    def filter(self, record):
        for f in self.filters:
            result = f.filter(record) if hasattr(f, "filter") else f(record)
            if not result:
                return False
        return True


class Filter:
    def __init__(self, name=""):
        self.name = name

    def filter(self, record):
        return True


class Handler(Filterer):
    def __init__(self, level=NOTSET):
        Filterer.__init__(self)
        self.level = _checkLevel(level)
        self.formatter = None

    def setLevel(self, level):
        self.level = _checkLevel(level)

    def setFormatter(self, fmt):
        self.formatter = fmt

    def handle(self, record):
        return self.filter(record)

    def emit(self, record):
        pass

    def flush(self):
        pass

    def close(self):
        pass


class StreamHandler(Handler):
    def __init__(self, stream=None):
        Handler.__init__(self)
        self.stream = stream


class FileHandler(StreamHandler):
    def __init__(self, filename, mode="a", encoding=None, delay=False, errors=None):
        StreamHandler.__init__(self)
        self.baseFilename = filename


class NullHandler(Handler):
    pass


class Logger(Filterer):
    def __init__(self, name, level=NOTSET):
        Filterer.__init__(self)
        self.name = name
        self.level = _checkLevel(level)
        self.parent = None
        self.propagate = True
        self.handlers = []
        self.disabled = False

    def setLevel(self, level):
        self.level = _checkLevel(level)

    def getEffectiveLevel(self):
        logger = self
        while logger:
            if logger.level:
                return logger.level
            logger = logger.parent
        return NOTSET

    def isEnabledFor(self, level):
        return level >= self.getEffectiveLevel()

    def debug(self, msg, *args, **kwargs):
        pass

    def info(self, msg, *args, **kwargs):
        pass

    def warning(self, msg, *args, **kwargs):
        pass

    warn = warning

    def error(self, msg, *args, **kwargs):
        pass

    def exception(self, msg, *args, exc_info=True, **kwargs):
        pass

    def critical(self, msg, *args, **kwargs):
        pass

    fatal = critical

    def log(self, level, msg, *args, **kwargs):
        if not isinstance(level, int):
            raise TypeError("level must be an integer")

    def addHandler(self, hdlr):
        if hdlr not in self.handlers:
            self.handlers.append(hdlr)

    def removeHandler(self, hdlr):
        if hdlr in self.handlers:
            self.handlers.remove(hdlr)

    def hasHandlers(self):
        return bool(self.handlers)

    def getChild(self, suffix):
        return getLogger(self.name + "." + suffix if self.name != "root" else suffix)

    def __repr__(self):
        return "<%s %s (%s)>" % (self.__class__.__name__, self.name, getLevelName(self.getEffectiveLevel()))


class RootLogger(Logger):
    def __init__(self, level):
        Logger.__init__(self, "root", level)


root = RootLogger(WARNING)
Logger.root = root
_loggers = {}


def getLogger(name=None):
    if not name or isinstance(name, str) and name == root.name:
        return root
    logger = _loggers.get(name)
    if logger is None:
        logger = Logger(name)
        logger.parent = root
        _loggers[name] = logger
    return logger


def basicConfig(**kwargs):
    level = kwargs.get("level")
    if level is not None:
        root.setLevel(level)


def critical(msg, *args, **kwargs):
    pass


fatal = critical


def error(msg, *args, **kwargs):
    pass


def exception(msg, *args, exc_info=True, **kwargs):
    pass


def warning(msg, *args, **kwargs):
    pass


warn = warning


def info(msg, *args, **kwargs):
    pass


def debug(msg, *args, **kwargs):
    pass


def log(level, msg, *args, **kwargs):
    pass


def disable(level=CRITICAL):
    pass


def captureWarnings(capture):
    pass


def shutdown(handlerList=None):
    pass


lastResort = None
