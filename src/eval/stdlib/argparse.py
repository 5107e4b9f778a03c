"""argparse (onnxify's stdlib subset): parsers built at module level and parse_args() on the
arguments given (none during conversion: sys.argv holds no arguments), so `args.dim` gives the
default the script declares. Long options (abbreviated too), `--opt=value`, short options, the
usual actions and nargs; errors exit as CPython's parser does (status 2, message on stderr)."""
import sys as _sys

__all__ = ["ArgumentParser", "Namespace", "Action", "ArgumentError", "ArgumentTypeError", "FileType",
           "HelpFormatter", "RawDescriptionHelpFormatter", "RawTextHelpFormatter", "ArgumentDefaultsHelpFormatter",
           "MetavarTypeHelpFormatter", "BooleanOptionalAction", "SUPPRESS", "OPTIONAL", "ZERO_OR_MORE",
           "ONE_OR_MORE", "REMAINDER", "PARSER"]

SUPPRESS = "==SUPPRESS=="
OPTIONAL = "?"
ZERO_OR_MORE = "*"
ONE_OR_MORE = "+"
PARSER = "A..."
REMAINDER = "..."


class HelpFormatter:
    def __init__(self, prog, indent_increment=2, max_help_position=24, width=None):
        self._prog = prog


class RawDescriptionHelpFormatter(HelpFormatter):
    pass


class RawTextHelpFormatter(RawDescriptionHelpFormatter):
    pass


class ArgumentDefaultsHelpFormatter(HelpFormatter):
    pass


class MetavarTypeHelpFormatter(HelpFormatter):
    pass


class ArgumentError(Exception):
    def __init__(self, argument, message):
        self.argument_name = None if argument is None else "/".join(argument.option_strings) or argument.dest
        self.message = message

    def __str__(self):
        if self.argument_name is None:
            return self.message
        return f"argument {self.argument_name}: {self.message}"


class ArgumentTypeError(Exception):
    pass


class FileType:
    def __init__(self, mode="r", bufsize=-1, encoding=None, errors=None):
        self._mode = mode

    def __call__(self, string):
        raise ArgumentTypeError("files cannot be opened during conversion")


class Namespace:
    def __init__(self, **kwargs):
        for k, v in kwargs.items():
            setattr(self, k, v)

    def __repr__(self):
        parts = []
        star = {}
        for k, v in self.__dict__.items():
            if k.isidentifier():
                parts.append(f"{k}={v!r}")
            else:
                star[k] = v
        if star:
            parts.append(f"**{star!r}")
        return "Namespace(" + ", ".join(parts) + ")"

    def __eq__(self, other):
        if not isinstance(other, Namespace):
            return NotImplemented
        return vars(self) == vars(other)

    def __contains__(self, key):
        return key in self.__dict__


class Action:
    def __init__(self, option_strings, dest, nargs=None, const=None, default=None, type=None, choices=None,
                 required=False, help=None, metavar=None):
        self.option_strings = option_strings
        self.dest = dest
        self.nargs = nargs
        self.const = const
        self.default = default
        self.type = type
        self.choices = choices
        self.required = required
        self.help = help
        self.metavar = metavar

    def __call__(self, parser, namespace, values, option_string=None):
        setattr(namespace, self.dest, values)


class _Store(Action):
    pass


class _StoreConst(Action):
    def __init__(self, option_strings, dest, const=None, default=None, required=False, help=None, metavar=None):
        super().__init__(option_strings, dest, nargs=0, const=const, default=default, required=required, help=help)

    def __call__(self, parser, namespace, values, option_string=None):
        setattr(namespace, self.dest, self.const)


class _StoreTrue(_StoreConst):
    def __init__(self, option_strings, dest, default=False, required=False, help=None):
        super().__init__(option_strings, dest, const=True, default=default, required=required, help=help)


class _StoreFalse(_StoreConst):
    def __init__(self, option_strings, dest, default=True, required=False, help=None):
        super().__init__(option_strings, dest, const=False, default=default, required=required, help=help)


class _Append(Action):
    def __call__(self, parser, namespace, values, option_string=None):
        items = list(getattr(namespace, self.dest, None) or [])
        items.append(values)
        setattr(namespace, self.dest, items)


class _AppendConst(Action):
    def __init__(self, option_strings, dest, const=None, default=None, required=False, help=None, metavar=None):
        super().__init__(option_strings, dest, nargs=0, const=const, default=default, required=required, help=help)

    def __call__(self, parser, namespace, values, option_string=None):
        items = list(getattr(namespace, self.dest, None) or [])
        items.append(self.const)
        setattr(namespace, self.dest, items)


class _Count(Action):
    def __init__(self, option_strings, dest, default=None, required=False, help=None):
        super().__init__(option_strings, dest, nargs=0, default=default, required=required, help=help)

    def __call__(self, parser, namespace, values, option_string=None):
        count = getattr(namespace, self.dest, None)
        setattr(namespace, self.dest, (count or 0) + 1)


class _Help(Action):
    def __init__(self, option_strings, dest=SUPPRESS, default=SUPPRESS, help=None):
        super().__init__(option_strings, dest, nargs=0, default=default, help=help)

    def __call__(self, parser, namespace, values, option_string=None):
        parser.print_help()
        parser.exit()


class _Version(Action):
    def __init__(self, option_strings, version=None, dest=SUPPRESS, default=SUPPRESS, help=None):
        super().__init__(option_strings, dest, nargs=0, default=default, help=help)
        self.version = version

    def __call__(self, parser, namespace, values, option_string=None):
        print(self.version)
        parser.exit()


class BooleanOptionalAction(Action):
    def __init__(self, option_strings, dest, default=None, type=None, choices=None, required=False, help=None,
                 metavar=None):
        strings = []
        for s in option_strings:
            strings.append(s)
            if s.startswith("--"):
                strings.append("--no-" + s[2:])
        super().__init__(strings, dest, nargs=0, default=default, required=required, help=help)

    def __call__(self, parser, namespace, values, option_string=None):
        setattr(namespace, self.dest, not option_string.startswith("--no-"))


_ACTIONS = {None: _Store, "store": _Store, "store_const": _StoreConst, "store_true": _StoreTrue,
            "store_false": _StoreFalse, "append": _Append, "append_const": _AppendConst, "count": _Count,
            "help": _Help, "version": _Version, "extend": _Append}


class _Container:
    def _init_container(self, prefix_chars):
        self.prefix_chars = prefix_chars
        self._actions = []
        self._defaults = {}

    def add_argument(self, *args, **kwargs):
        parser = self._parser()
        positional = not args or len(args) == 1 and args[0][:1] not in parser.prefix_chars
        if positional:
            dest = kwargs.pop("dest", None) or args[0]
            option_strings = []
            if kwargs.get("required") is not None:
                raise TypeError("'required' is an invalid argument for positionals")
            kwargs["required"] = kwargs.get("nargs") not in ("?", "*")
        else:
            option_strings = list(args)
            dest = kwargs.pop("dest", None)
            if dest is None:
                longs = [s for s in args if s.startswith(parser.prefix_chars[0] * 2)]
                dest = (longs[0] if longs else args[0]).lstrip(parser.prefix_chars).replace("-", "_")
        action = kwargs.pop("action", None)
        cls = _ACTIONS[action] if not isinstance(action, type) else action
        if "default" not in kwargs and dest in parser._defaults:
            kwargs["default"] = parser._defaults[dest]
        elif "default" not in kwargs and parser.argument_default is not None:
            kwargs["default"] = parser.argument_default
        act = cls(option_strings, dest, **kwargs)
        if act.type is not None and not callable(act.type):
            raise ValueError(f"{act.type!r} is not callable")
        for s in option_strings:
            if s in parser._option_index:
                raise ArgumentError(act, f"conflicting option string: {s}")
        parser._register(act)
        self._actions.append(act)
        return act

    def add_argument_group(self, title=None, description=None, **kwargs):
        return _Group(self._parser(), title, description)

    def add_mutually_exclusive_group(self, required=False):
        return _Group(self._parser(), None, None)

    def set_defaults(self, **kwargs):
        parser = self._parser()
        parser._defaults.update(kwargs)
        for a in parser._all:
            if a.dest in kwargs:
                a.default = kwargs[a.dest]

    def get_default(self, dest):
        parser = self._parser()
        for a in parser._all:
            if a.dest == dest and a.default is not None:
                return a.default
        return parser._defaults.get(dest)


class _Group(_Container):
    def __init__(self, parser, title, description):
        self._p = parser
        self.title = title
        self.description = description
        self._actions = []

    def _parser(self):
        return self._p


class _SubParsers(Action):
    def __init__(self, parser, dest=SUPPRESS, **kwargs):
        super().__init__([], dest, nargs=PARSER, required=kwargs.get("required", False), help=kwargs.get("help"))
        self._parent = parser
        self.choices = {}

    def add_parser(self, name, **kwargs):
        kwargs.setdefault("prog", f"{self._parent.prog} {name}")
        p = ArgumentParser(**{k: v for k, v in kwargs.items() if k not in ("aliases", "help")})
        self.choices[name] = p
        for alias in kwargs.get("aliases", ()):
            self.choices[alias] = p
        return p

    def __call__(self, parser, namespace, values, option_string=None):
        name, rest = values[0], values[1:]
        if self.dest is not SUPPRESS:
            setattr(namespace, self.dest, name)
        if name not in self.choices:
            parser.error(f"argument {self.dest}: invalid choice: {name!r}")
        sub, extras = self.choices[name].parse_known_args(rest, None)
        for k, v in vars(sub).items():
            setattr(namespace, k, v)
        if extras:
            parser.error("unrecognized arguments: " + " ".join(extras))


class ArgumentParser(_Container):
    def __init__(self, prog=None, usage=None, description=None, epilog=None, parents=(), formatter_class=HelpFormatter,
                 prefix_chars="-", fromfile_prefix_chars=None, argument_default=None, conflict_handler="error",
                 add_help=True, allow_abbrev=True, exit_on_error=True):
        if prog is None:
            argv = getattr(_sys, "argv", None) or [""]
            prog = argv[0].replace("\\", "/").rsplit("/", 1)[-1]
        self.prog = prog
        self.usage = usage
        self.description = description
        self.epilog = epilog
        self.formatter_class = formatter_class
        self.argument_default = argument_default
        self.allow_abbrev = allow_abbrev
        self.exit_on_error = exit_on_error
        self._init_container(prefix_chars)
        self._all = []
        self._option_index = {}
        if add_help:
            self.add_argument("-h", "--help", action="help", default=SUPPRESS, help="show this help message and exit")
        for parent in parents:
            for a in parent._all:
                if "-h" not in a.option_strings:
                    self._register(a)
            self._defaults.update(parent._defaults)

    def _parser(self):
        return self

    def _register(self, action):
        self._all.append(action)
        for s in action.option_strings:
            self._option_index[s] = action

    def add_subparsers(self, **kwargs):
        sp = _SubParsers(self, **kwargs)
        self._register(sp)
        return sp

    # ---- parsing
    def parse_args(self, args=None, namespace=None):
        ns, extras = self.parse_known_args(args, namespace)
        if extras:
            self.error("unrecognized arguments: " + " ".join(extras))
        return ns

    def parse_known_args(self, args=None, namespace=None):
        if args is None:
            args = list(getattr(_sys, "argv", [])[1:])
        else:
            args = list(args)
        ns = namespace if namespace is not None else Namespace()
        for a in self._all:
            if a.dest is not SUPPRESS and not hasattr(ns, a.dest) and a.default is not SUPPRESS:
                setattr(ns, a.dest, a.default)
        for k, v in self._defaults.items():
            if not hasattr(ns, k):
                setattr(ns, k, v)
        positionals = [a for a in self._all if not a.option_strings]
        extras = []
        seen = set()
        pending = []  # positional strings since the last option
        i = 0
        while i < len(args):
            s = args[i]
            if s == "--":
                pending.extend(args[i + 1:])
                break
            if s[:1] in self.prefix_chars and len(s) > 1 and not _is_negative_number(s):
                # As CPython: the strings before an option go to as many positionals as can take them.
                extras.extend(self._consume_positionals(positionals, pending, ns, seen))
                pending = []
                action, explicit = self._match_option(s)
                if action is None:
                    extras.append(s)
                    i += 1
                    continue
                i += 1
                if action.nargs == 0 and explicit is not None and s[:2] in self._option_index and "=" not in s:
                    args.insert(i, self.prefix_chars[0] + explicit)  # -vv: -v -v
                    explicit = None
                values, i = self._option_values(action, s, explicit, args, i)
                seen.add(action)
                action(self, ns, values, s)
                continue
            pending.append(s)
            i += 1
        rest = self._consume_positionals(positionals, pending, ns, seen)
        extras.extend(rest)
        missing = [a for a in self._all if a.required and a not in seen]
        if missing:
            names = ["/".join(a.option_strings) if a.option_strings else (a.metavar or a.dest) for a in missing]
            self.error("the following arguments are required: " + ", ".join(names))
        for a in self._all:
            if a not in seen and isinstance(a.default, str) and a.type is not None and \
                    getattr(ns, a.dest, None) is a.default:
                setattr(ns, a.dest, self._convert(a, a.default))
        return ns, extras

    def _match_option(self, s):
        explicit = None
        name = s
        if "=" in s:
            name, explicit = s.split("=", 1)
        if name in self._option_index:
            return self._option_index[name], explicit
        if s[:2] != self.prefix_chars[0] * 2 and len(s) > 2 and s[:2] in self._option_index:
            return self._option_index[s[:2]], s[2:]  # -xVALUE
        if self.allow_abbrev and name.startswith(self.prefix_chars[0] * 2):
            hits = [o for o in self._option_index if o.startswith(name)]
            if len(hits) == 1:
                return self._option_index[hits[0]], explicit
            if len(hits) > 1:
                self.error(f"ambiguous option: {name} could match {', '.join(hits)}")
        return None, None

    def _option_values(self, action, s, explicit, args, i):
        n = action.nargs
        if n == 0:
            if explicit is not None:
                self.error(f"argument {'/'.join(action.option_strings)}: ignored explicit argument {explicit!r}")
            return None, i
        if explicit is not None:
            strings = [explicit]
        else:
            strings = []
            want = 1 if n is None else n
            while i < len(args) and (args[i][:1] not in self.prefix_chars or _is_negative_number(args[i])):
                if isinstance(want, int) and len(strings) >= want:
                    break
                if want == "?" and strings:
                    break
                strings.append(args[i])
                i += 1
        return self._values(action, strings, "/".join(action.option_strings)), i

    def _values(self, action, strings, name):
        n = action.nargs
        if n is None:
            if len(strings) != 1:
                self.error(f"argument {name}: expected one argument")
            return self._convert(action, strings[0])
        if n == "?":
            if not strings:
                return action.const if action.option_strings else self._convert(action, action.default) \
                    if isinstance(action.default, str) else action.default
            return self._convert(action, strings[0])
        if n == "+" and not strings:
            self.error(f"argument {name}: expected at least one argument")
        if isinstance(n, int) and len(strings) != n:
            self.error(f"argument {name}: expected {n} arguments")
        if n == "*" and not strings and not action.option_strings:
            return action.default if action.default is not None else []
        return [self._convert(action, s) for s in strings]

    def _convert(self, action, s):
        v = s
        if action.type is not None:
            try:
                v = action.type(s)
            except (TypeError, ValueError, ArgumentTypeError) as e:
                name = "/".join(action.option_strings) or action.dest
                tname = getattr(action.type, "__name__", repr(action.type))
                msg = str(e) if isinstance(e, ArgumentTypeError) else f"invalid {tname} value: {s!r}"
                self.error(f"argument {name}: {msg}")
        if action.choices is not None and v not in action.choices:
            name = "/".join(action.option_strings) or action.dest
            choices = ", ".join(repr(c) for c in action.choices)
            self.error(f"argument {name}: invalid choice: {v!r} (choose from {choices})")
        return v

    def _consume_positionals(self, positionals, strings, ns, seen):
        """Gives `strings` to the longest run of the positionals not yet filled that can take a prefix
        of them, each taking as many as it can (CPython's match_partial); returns what is left."""
        todo = [a for a in positionals if a not in seen]
        for k in range(len(todo), 0, -1):
            counts = _allocate([a.nargs for a in todo[:k]], len(strings))
            if counts is None:
                continue
            i = 0
            for a, n in zip(todo[:k], counts):
                chunk = strings[i:i + n]
                i += n
                seen.add(a)
                if a.nargs == PARSER:
                    a(self, ns, chunk)
                else:
                    a(self, ns, self._values(a, chunk, a.metavar or a.dest))
            return strings[i:]
        return list(strings)

    # ---- messages
    def format_usage(self):
        return f"usage: {self.prog} [-h]\n" if self.usage is None else f"usage: {self.usage}\n"

    def format_help(self):
        out = self.format_usage()
        if self.description:
            out += "\n" + self.description + "\n"
        return out

    def print_usage(self, file=None):
        (file or _sys.stdout).write(self.format_usage())

    def print_help(self, file=None):
        (file or _sys.stdout).write(self.format_help())

    def exit(self, status=0, message=None):
        if message:
            _sys.stderr.write(message)
        raise SystemExit(status)

    def error(self, message):
        if not self.exit_on_error:
            raise ArgumentError(None, message)
        self.exit(2, f"{self.format_usage()}{self.prog}: error: {message}\n")


def _allocate(nargs, avail):
    """How many strings each positional takes, earlier ones as many as they can; None if they cannot
    all be satisfied by at most `avail` strings."""
    if not nargs:
        return []
    n = nargs[0]
    if n is None:
        options = [1]
    elif isinstance(n, int):
        options = [n]
    elif n == "?":
        options = [1, 0]
    elif n == "+":
        options = list(range(avail, 0, -1))
    else:  # *, ..., A...
        options = list(range(avail, -1, -1))
    for take in options:
        if take > avail:
            continue
        rest = _allocate(nargs[1:], avail - take)
        if rest is not None:
            return [take] + rest
    return None


def _is_negative_number(s):
    if not s.startswith("-"):
        return False
    try:
        float(s)
        return True
    except ValueError:
        return False
