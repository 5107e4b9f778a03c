"""re (onnxify's stdlib subset): regular expressions on str with Python's syntax and matching rules,
written here as a backtracking matcher (patterns compile to closures in continuation-passing style).
Model code uses re at import time and while it builds layers (block strings like 'ir_r1_k3_s11_e6',
state-dict key patterns); the strings are short, the patterns ordinary. Bytes patterns, possessive
quantifiers and atomic groups are not supported (re.error says so)."""
import _onnxify

__all__ = ["compile", "search", "match", "fullmatch", "split", "findall", "finditer", "sub", "subn", "escape",
           "purge", "error", "Pattern", "Match", "I", "IGNORECASE", "M", "MULTILINE", "S", "DOTALL", "X", "VERBOSE",
           "A", "ASCII", "U", "UNICODE", "L", "LOCALE", "T", "TEMPLATE", "DEBUG", "NOFLAG"]

NOFLAG = 0
T = TEMPLATE = 1
I = IGNORECASE = 2
L = LOCALE = 4
M = MULTILINE = 8
S = DOTALL = 16
U = UNICODE = 32
X = VERBOSE = 64
DEBUG = 128
A = ASCII = 256
_FLAG_CHARS = {"i": I, "m": M, "s": S, "x": X, "a": A, "u": U, "L": L}


class error(Exception):
    def __init__(self, msg, pattern=None, pos=None):
        self.msg = msg
        self.pattern = pattern
        self.pos = pos
        if pattern is not None and pos is not None:
            msg = f"{msg} at position {pos}"
            self.lineno = pattern.count("\n", 0, pos) + 1
            self.colno = pos - pattern.rfind("\n", 0, pos)
        super().__init__(msg)


PatternError = error


class _Unsupported(Exception):
    """A construct Python's re has and this one lacks: the pattern becomes an unknown value."""
_MAXREPEAT = 4294967295

# ---- parsing: pattern text -> nodes (tuples) ----------------------------------------------------------

_CATEGORY = {"d": ("digit", False), "D": ("digit", True), "w": ("word", False), "W": ("word", True),
             "s": ("space", False), "S": ("space", True)}
_SIMPLE_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", "f": "\f", "v": "\v", "a": "\a", "b": "\b", "0": "\0"}
_SPECIAL = ".^$*+?{}[]\\|()"


class _Parser:
    def __init__(self, pattern, flags):
        self.p = pattern
        self.i = 0
        self.flags = flags
        self.groups = 1  # next group number
        self.names = {}
        self.open = []

    def error(self, msg, pos=None):
        raise error(msg, self.p, self.i if pos is None else pos)

    def more(self):
        return self.i < len(self.p)

    def peek(self):
        return self.p[self.i] if self.i < len(self.p) else ""

    def parse(self):
        node = self.alternation()
        if self.more():
            if self.peek() == ")":
                self.error("unbalanced parenthesis")
            self.error("internal: trailing pattern")
        return node

    def skip_verbose(self):
        while self.more():
            c = self.p[self.i]
            if c in " \t\n\r\f\v":
                self.i += 1
            elif c == "#":
                while self.more() and self.p[self.i] != "\n":
                    self.i += 1
            else:
                break

    def alternation(self):
        alts = [self.sequence()]
        while self.peek() == "|":
            self.i += 1
            alts.append(self.sequence())
        return alts[0] if len(alts) == 1 else ("alt", alts)

    def sequence(self):
        items = []
        while True:
            if self.flags & X:
                self.skip_verbose()
            if not self.more() or self.peek() in "|)":
                break
            start = self.i
            atom = self.atom()
            if atom is None:
                continue
            atom = self.quantified(atom, start)
            items.append(atom)
        return items[0] if len(items) == 1 else ("cat", items)

    def quantified(self, atom, start):
        while True:
            if self.flags & X:
                self.skip_verbose()
            c = self.peek()
            here = self.i
            if c == "*":
                lo, hi = 0, _MAXREPEAT
                self.i += 1
            elif c == "+":
                lo, hi = 1, _MAXREPEAT
                self.i += 1
            elif c == "?":
                lo, hi = 0, 1
                self.i += 1
            elif c == "{":
                rng = self.braces()
                if rng is None:
                    return atom
                lo, hi = rng
            else:
                return atom
            if atom[0] in ("bol", "eol", "start", "end", "wordb", "nonwordb", "look"):
                self.error("nothing to repeat", here)
            if atom[0] == "repeat" and not atom[5]:
                self.error("multiple repeat", here)
            greedy = True
            if self.peek() == "?":
                greedy = False
                self.i += 1
            elif self.peek() == "+":
                raise _Unsupported("possessive quantifiers")
            atom = ("repeat", atom, lo, hi, greedy, False)
            # a quantifier after a quantifier is "multiple repeat"
            nxt = self.peek()
            if nxt and (nxt in "*+?" or (nxt == "{" and self._braces_ahead())):
                self.error("multiple repeat", self.i)
            return atom

    def _braces_ahead(self):
        save = self.i
        try:
            return self.braces() is not None
        finally:
            self.i = save

    def braces(self):
        j = self.i + 1
        p = self.p
        k = j
        while k < len(p) and p[k].isdigit():
            k += 1
        lo_text = p[j:k]
        if k < len(p) and p[k] == "}":
            if not lo_text:
                return None
            self.i = k + 1
            return int(lo_text), int(lo_text)
        if k >= len(p) or p[k] != ",":
            return None
        m = k + 1
        while m < len(p) and p[m].isdigit():
            m += 1
        if m >= len(p) or p[m] != "}":
            return None
        hi_text = p[k + 1:m]
        lo = int(lo_text) if lo_text else 0
        hi = int(hi_text) if hi_text else _MAXREPEAT
        if hi < lo:
            self.error("min repeat greater than max repeat", j)
        self.i = m + 1
        return lo, hi

    def atom(self):
        c = self.p[self.i]
        start = self.i
        if c in "*+?":
            self.error("nothing to repeat")
        if c == "{" and self._braces_ahead():
            self.error("nothing to repeat")
        self.i += 1
        if c == ".":
            return ("any", bool(self.flags & S))
        if c == "^":
            return ("bol", bool(self.flags & M))
        if c == "$":
            return ("eol", bool(self.flags & M))
        if c == "[":
            return self.charset(start)
        if c == "(":
            return self.group(start)
        if c == "\\":
            return self.escape(in_set=False)
        return self.lit(c)

    def lit(self, c):
        return ("lit", c, bool(self.flags & I))

    def escape(self, in_set):
        if not self.more():
            self.error("bad escape (end of pattern)", self.i - 1)
        c = self.p[self.i]
        self.i += 1
        if c in _CATEGORY:
            kind, neg = _CATEGORY[c]
            return ("cat_class", kind, neg, bool(self.flags & A))
        if c == "x":
            h = self.p[self.i:self.i + 2]
            if len(h) != 2 or not all(ch in "0123456789abcdefABCDEF" for ch in h):
                self.error(f"incomplete escape \\x{h}", self.i - 2)
            self.i += 2
            return self.lit(chr(int(h, 16)))
        if c in "uU":
            n = 4 if c == "u" else 8
            h = self.p[self.i:self.i + n]
            if len(h) != n or not all(ch in "0123456789abcdefABCDEF" for ch in h):
                self.error(f"incomplete escape \\{c}{h}", self.i - 2)
            self.i += n
            return self.lit(chr(int(h, 16)))
        if c == "N":
            raise _Unsupported("named Unicode escapes (\\N{...})")
        if in_set:
            if c in _SIMPLE_ESCAPES:
                return self.lit(_SIMPLE_ESCAPES[c])
            if c.isdigit():
                self.error(f"bad escape \\{c}", self.i - 2)
        else:
            if c == "A":
                return ("start",)
            if c == "Z":
                return ("end",)
            if c == "b":
                return ("wordb", bool(self.flags & A))
            if c == "B":
                return ("nonwordb", bool(self.flags & A))
            if c == "0":
                return self.lit("\0")
            if c.isdigit():
                j = self.i
                while j < len(self.p) and self.p[j].isdigit() and j - self.i < 1:
                    j += 1
                num = int(self.p[self.i - 1:j])
                self.i = j
                if num >= self.groups or num in self.open:
                    self.error("cannot refer to an open group" if num in self.open else
                               f"invalid group reference {num}", self.i - len(str(num)))
                return ("backref", num, bool(self.flags & I))
            if c in _SIMPLE_ESCAPES:
                return self.lit(_SIMPLE_ESCAPES[c])
        if c.isascii() and c.isalnum():
            self.error(f"bad escape \\{c}", self.i - 2)
        return self.lit(c)

    def charset(self, start):
        negate = False
        if self.peek() == "^":
            negate = True
            self.i += 1
        items = []
        first = True
        while True:
            if not self.more():
                self.error("unterminated character set", start)
            c = self.p[self.i]
            if c == "]" and not first:
                self.i += 1
                break
            first = False
            self.i += 1
            if c == "\\":
                item = self.escape(in_set=True)
            else:
                item = ("lit", c, False)
            if item[0] == "lit" and self.peek() == "-" and self.i + 1 < len(self.p) and self.p[self.i + 1] != "]":
                self.i += 1
                d = self.p[self.i]
                self.i += 1
                if d == "\\":
                    hi = self.escape(in_set=True)
                    if hi[0] != "lit":
                        self.error(f"bad character range {item[1]}-{self.p[self.i - 2:self.i]}", self.i - 4)
                    d = hi[1]
                if ord(d) < ord(item[1]):
                    self.error(f"bad character range {item[1]}-{d}", self.i - 3)
                items.append(("range", item[1], d))
            elif item[0] == "lit":
                items.append(("ch", item[1]))
            else:
                items.append(item)
        return ("set", tuple(items), negate, bool(self.flags & I))

    def group(self, start):
        if self.peek() == "?":
            self.i += 1
            c = self.peek()
            self.i += 1
            if c == ":":
                node = self.alternation()
                self.close(start)
                return node
            if c == "P":
                d = self.peek()
                self.i += 1
                if d == "<":
                    end = self.p.find(">", self.i)
                    if end < 0:
                        self.error("missing >, unterminated name", self.i)
                    name = self.p[self.i:end]
                    if not name.isidentifier():
                        self.error(f"bad character in group name {name!r}", self.i)
                    if name in self.names:
                        self.error(f"redefinition of group name {name!r} as group {self.groups}; was group "
                                   f"{self.names[name]}", self.i)
                    self.i = end + 1
                    return self.capture(start, name)
                if d == "=":
                    end = self.p.find(")", self.i)
                    if end < 0:
                        self.error("missing ), unterminated name", self.i)
                    name = self.p[self.i:end]
                    if name not in self.names:
                        self.error(f"unknown group name {name!r}", self.i)
                    self.i = end + 1
                    return ("backref", self.names[name], bool(self.flags & I))
                self.error(f"unknown extension ?P{d}", start + 1)
            if c in "=!":
                node = self.alternation()
                self.close(start)
                return ("look", node, True, c == "!")
            if c == "<" and self.peek() in "=!":
                neg = self.peek() == "!"
                self.i += 1
                node = self.alternation()
                self.close(start)
                return ("look", node, False, neg)
            if c == "#":
                end = self.p.find(")", self.i)
                if end < 0:
                    self.error("missing ), unterminated comment", start)
                self.i = end + 1
                return None
            if c == ">":
                raise _Unsupported("atomic groups")
            if c in _FLAG_CHARS or c == "-":
                self.i -= 1
                add = 0
                while self.peek() in _FLAG_CHARS:
                    add |= _FLAG_CHARS[self.peek()]
                    self.i += 1
                remove = 0
                if self.peek() == "-":
                    self.i += 1
                    while self.peek() in _FLAG_CHARS:
                        remove |= _FLAG_CHARS[self.peek()]
                        self.i += 1
                if self.peek() == ")":
                    if start != 0:
                        self.error("global flags not at the start of the expression", start)
                    self.i += 1
                    self.flags |= add
                    return None
                if self.peek() != ":":
                    self.error("missing -, : or )", self.i)
                self.i += 1
                saved = self.flags
                self.flags = (self.flags | add) & ~remove
                node = self.alternation()
                self.flags = saved
                self.close(start)
                return node
            self.error(f"unknown extension ?{c}", start + 1)
        return self.capture(start, None)

    def capture(self, start, name):
        num = self.groups
        self.groups += 1
        if name is not None:
            self.names[name] = num
        self.open.append(num)
        node = self.alternation()
        self.open.pop()
        self.close(start)
        return ("group", num, node)

    def close(self, start):
        if self.peek() != ")":
            self.error("missing ), unterminated subpattern", start)
        self.i += 1


# ---- matching: nodes -> closures ----------------------------------------------------------------------


def _is_word(ch, ascii_only):
    if ascii_only:
        return ch.isascii() and (ch.isalnum() or ch == "_")
    return ch.isalnum() or ch == "_"


def _in_category(ch, kind, ascii_only):
    if kind == "digit":
        return ch.isdecimal() and (not ascii_only or ch.isascii())
    if kind == "word":
        return _is_word(ch, ascii_only)
    return ch in " \t\n\r\f\v" if ascii_only else (ch.isspace() or ch in "\x1c\x1d\x1e\x1f")


def _char_test(node):
    """A predicate on one character for single-character nodes, or None."""
    kind = node[0]
    if kind == "lit":
        c, icase = node[1], node[2]
        if icase:
            lc = c.lower()
            return lambda ch: ch.lower() == lc
        return lambda ch: ch == c
    if kind == "any":
        if node[1]:
            return lambda ch: True
        return lambda ch: ch != "\n"
    if kind == "cat_class":
        _, k, neg, asc = node
        return lambda ch: _in_category(ch, k, asc) != neg
    if kind == "set":
        items, negate, icase = node[1], node[2], node[3]

        def one(ch):
            for it in items:
                t = it[0]
                if t == "ch":
                    if ch == it[1]:
                        return True
                elif t == "range":
                    if it[1] <= ch <= it[2]:
                        return True
                elif t == "cat_class":
                    if _in_category(ch, it[1], it[3]) != it[2]:
                        return True
            return False

        if icase:
            return lambda ch: (one(ch) or one(ch.lower()) or one(ch.upper())) != negate
        return lambda ch: one(ch) != negate
    return None


class _Ctx:
    def __init__(self, ngroups):
        self.s = ""
        self.n = 0
        self.g = [None] * ngroups
        self.opened = [0] * ngroups
        self.end = -1
        self.start = 0
        self.must_advance = False


def _compile_node(node, nxt, ctx):
    kind = node[0]
    test = _char_test(node)
    if test is not None:
        def char(i):
            return i < ctx.n and test(ctx.s[i]) and nxt(i + 1)
        return char
    if kind == "cat":
        f = nxt
        for item in reversed(node[1]):
            f = _compile_node(item, f, ctx)
        return f
    if kind == "alt":
        fs = [_compile_node(a, nxt, ctx) for a in node[1]]

        def alt(i):
            for f in fs:
                if f(i):
                    return True
            return False
        return alt
    if kind == "group":
        num = node[1]

        def close(j):
            saved = ctx.g[num]
            ctx.g[num] = (ctx.opened[num], j)
            if nxt(j):
                return True
            ctx.g[num] = saved
            return False

        inner = _compile_node(node[2], close, ctx)

        def enter(i):
            saved = ctx.opened[num]
            ctx.opened[num] = i
            r = inner(i)
            ctx.opened[num] = saved
            return r
        return enter
    if kind == "repeat":
        return _compile_repeat(node, nxt, ctx)
    if kind == "bol":
        multiline = node[1]
        return lambda i: (i == 0 or (multiline and ctx.s[i - 1] == "\n")) and nxt(i)
    if kind == "eol":
        multiline = node[1]
        return lambda i: (i == ctx.n or (i == ctx.n - 1 and ctx.s[i] == "\n") or
                          (multiline and ctx.s[i] == "\n")) and nxt(i)
    if kind == "start":
        return lambda i: i == 0 and nxt(i)
    if kind == "end":
        return lambda i: i == ctx.n and nxt(i)
    if kind in ("wordb", "nonwordb"):
        asc = node[1]
        want = kind == "wordb"

        def boundary(i):
            before = i > 0 and _is_word(ctx.s[i - 1], asc)
            after = i < ctx.n and _is_word(ctx.s[i], asc)
            return ((before != after) == want) and nxt(i)
        return boundary
    if kind == "backref":
        num, icase = node[1], node[2]

        def backref(i):
            g = ctx.g[num]
            if g is None:
                return False
            text = ctx.s[g[0]:g[1]]
            got = ctx.s[i:i + len(text)]
            if (got.lower() == text.lower()) if icase else (got == text):
                return nxt(i + len(text))
            return False
        return backref
    if kind == "look":
        _, sub, ahead, negate = node
        if ahead:
            inner = _compile_node(sub, lambda j: True, ctx)

            def look(i):
                saved = list(ctx.g)
                ok = inner(i)
                if negate:
                    ctx.g[:] = saved
                    return (not ok) and nxt(i)
                if not ok:
                    return False
                if nxt(i):
                    return True
                ctx.g[:] = saved
                return False
            return look
        target = []
        inner = _compile_node(sub, lambda j: j == target[-1], ctx)

        def lookbehind(i):
            saved = list(ctx.g)
            target.append(i)
            ok = False
            for j in range(i, -1, -1):
                if inner(j):
                    ok = True
                    break
            target.pop()
            if negate:
                ctx.g[:] = saved
                return (not ok) and nxt(i)
            if ok and nxt(i):
                return True
            ctx.g[:] = saved
            return False
        return lookbehind
    raise error(f"internal: unknown node {kind}")


def _fixed_width(node):
    """The number of characters a node always matches, or None when it varies."""
    kind = node[0]
    if kind in ("lit", "any", "cat_class", "set"):
        return 1
    if kind in ("bol", "eol", "start", "end", "wordb", "nonwordb", "look"):
        return 0
    if kind == "cat":
        total = 0
        for item in node[1]:
            w = _fixed_width(item)
            if w is None:
                return None
            total += w
        return total
    if kind == "alt":
        widths = {_fixed_width(a) for a in node[1]}
        return widths.pop() if len(widths) == 1 else None
    if kind == "group":
        return _fixed_width(node[2])
    if kind == "repeat" and node[2] == node[3]:
        w = _fixed_width(node[1])
        return None if w is None else w * node[2]
    return None


def _first_test(node):
    """A predicate every match's first character passes, or None when a match may start otherwise (or be
    empty): lets a search skip the start positions whose character no match can begin with."""
    test = _char_test(node)
    if test is not None:
        return test
    kind = node[0]
    if kind == "cat":
        return _first_test(node[1][0]) if node[1] else None
    if kind == "group":
        return _first_test(node[2])
    if kind == "repeat":
        return _first_test(node[1]) if node[2] >= 1 else None
    if kind == "alt":
        tests = [_first_test(a) for a in node[1]]
        if not tests or any(t is None for t in tests):
            return None
        return lambda ch: any(t(ch) for t in tests)
    return None


def _captures(node):
    """Whether a node sets or reads a group (then backtracking into it can matter)."""
    kind = node[0]
    if kind in ("group", "backref"):
        return True
    if kind in ("cat", "alt"):
        return any(_captures(a) for a in node[1])
    if kind == "repeat":
        return _captures(node[1])
    if kind == "look":
        return _captures(node[1])
    return False


def _compile_repeat(node, nxt, ctx):
    _, body, lo, hi, greedy, _poss = node
    test = _char_test(body)
    if test is not None:
        # One character per iteration: count the run, then try the continuation from each length.
        def simple(i):
            s, n = ctx.s, ctx.n
            limit = min(n, i + hi)
            j = i
            while j < limit and test(s[j]):
                j += 1
            if j - i < lo:
                return False
            if greedy:
                k = j
                while k >= i + lo:
                    if nxt(k):
                        return True
                    k -= 1
                return False
            k = i + lo
            while k <= j:
                if nxt(k):
                    return True
                k += 1
            return False
        return simple

    width = _fixed_width(body)
    if width and not _captures(body):
        # A body of fixed width that captures nothing ends at i + width whenever it matches, so no
        # continuation can make it match differently: count the run iteratively, then try the
        # continuation from each count. Keeps recursion flat on long strings ((?:(?!x).)*, (?:ab)*).
        one = _compile_node(body, lambda j: True, ctx)

        def fixed(i):
            n = ctx.n
            count, j = 0, i
            while count < hi and j + width <= n and one(j):
                j += width
                count += 1
            if count < lo:
                return False
            if greedy:
                c = count
                while c >= lo:
                    if nxt(i + c * width):
                        return True
                    c -= 1
                return False
            c = lo
            while c <= count:
                if nxt(i + c * width):
                    return True
                c += 1
            return False
        return fixed

    stack = []

    def after(j):
        i0, c0 = stack.pop()
        try:
            if j == i0 and c0 + 1 > lo:  # an empty iteration past the minimum ends the loop
                return False
            return attempt(j, c0 + 1)
        finally:
            stack.append((i0, c0))

    inner = _compile_node(body, after, ctx)

    def try_body(i, count):
        stack.append((i, count))
        try:
            return inner(i)
        finally:
            stack.pop()

    def attempt(i, count):
        if count < lo:
            return try_body(i, count)
        if count >= hi:
            return nxt(i)
        if greedy:
            return try_body(i, count) or nxt(i)
        return nxt(i) or try_body(i, count)

    return lambda i: attempt(i, 0)


# ---- Pattern and Match --------------------------------------------------------------------------------


class Match:
    def __init__(self, pattern, string, pos, endpos, regs):
        self.re = pattern
        self.string = string
        self.pos = pos
        self.endpos = endpos
        self._regs = regs  # [(start, end) or None] per group, group 0 first

    def _num(self, g):
        if isinstance(g, int) and not isinstance(g, bool):
            if 0 <= g < len(self._regs):
                return g
        elif isinstance(g, str) and g in self.re.groupindex:
            return self.re.groupindex[g]
        raise IndexError("no such group")

    def group(self, *groups):
        if not groups:
            return self._get(0)
        if len(groups) == 1:
            return self._get(self._num(groups[0]))
        return tuple(self._get(self._num(g)) for g in groups)

    def _get(self, n, default=None):
        r = self._regs[n]
        return default if r is None else self.string[r[0]:r[1]]

    def __getitem__(self, g):
        return self._get(self._num(g))

    def groups(self, default=None):
        return tuple(self._get(k, default) for k in range(1, len(self._regs)))

    def groupdict(self, default=None):
        return {name: self._get(num, default) for name, num in self.re.groupindex.items()}

    def start(self, group=0):
        r = self._regs[self._num(group)]
        return -1 if r is None else r[0]

    def end(self, group=0):
        r = self._regs[self._num(group)]
        return -1 if r is None else r[1]

    def span(self, group=0):
        r = self._regs[self._num(group)]
        return (-1, -1) if r is None else r

    @property
    def regs(self):
        return tuple((-1, -1) if r is None else r for r in self._regs)

    @property
    def lastindex(self):
        best = None
        best_end = -1
        for k in range(1, len(self._regs)):
            r = self._regs[k]
            if r is not None and r[1] >= best_end:
                if best is None or r[1] > best_end or True:
                    best, best_end = k, r[1]
        return best

    @property
    def lastgroup(self):
        k = self.lastindex
        for name, num in self.re.groupindex.items():
            if num == k:
                return name
        return None

    def expand(self, template):
        return _expand(self.re, template, self)

    def __bool__(self):
        return True

    def __repr__(self):
        return f"<re.Match object; span={self.span()!r}, match={self.group()!r}>"


class Pattern:
    def __init__(self, pattern, flags):
        if not isinstance(pattern, str):
            raise TypeError("onnxify's re matches str patterns only")
        parser = _Parser(pattern, flags)
        node = parser.parse()
        self.pattern = pattern
        self.flags = parser.flags | (U if not parser.flags & A else 0)
        self.groups = parser.groups - 1
        self.groupindex = dict(parser.names)
        self._node = node
        self._ctx = _Ctx(parser.groups)

        def done(i):
            if self._ctx.must_advance and i == self._ctx.start:
                return False
            self._ctx.end = i
            return True

        def done_full(i):
            if i != self._ctx.n:
                return False
            return done(i)

        self._matcher = _compile_node(node, done, self._ctx)
        self._full = _compile_node(node, done_full, self._ctx)
        self._first = _first_test(node)
        self._subn_memo = {}  # (repl, string, count) -> subn's result, for str replacements

    def __repr__(self):
        return f"re.compile({self.pattern!r})" if not (self.flags & ~U) else \
            f"re.compile({self.pattern!r}, {_flags_text(self.flags & ~U)})"

    def __eq__(self, other):
        return isinstance(other, Pattern) and self.pattern == other.pattern and self.flags == other.flags

    def __hash__(self):
        return hash((self.pattern, self.flags))

    def _try(self, string, start, matcher, must_advance=False):
        ctx = self._ctx
        ctx.g = [None] * len(ctx.g)
        ctx.start = start
        ctx.must_advance = must_advance
        if matcher(start):
            regs = [(start, ctx.end)] + ctx.g[1:]
            return regs
        return None

    def _setup(self, string, pos, endpos):
        if not isinstance(string, str):
            raise TypeError(f"expected string or bytes-like object, got '{type(string).__name__}'")
        n = len(string)
        pos = max(0, min(pos, n))
        endpos = n if endpos is None else max(0, min(endpos, n))
        self._ctx.s = string[:endpos] if endpos < n else string
        self._ctx.n = endpos
        return pos, endpos

    def match(self, string, pos=0, endpos=None):
        pos, endpos = self._setup(string, pos, endpos)
        regs = self._try(string, pos, self._matcher)
        return Match(self, string, pos, endpos, regs) if regs else None

    def fullmatch(self, string, pos=0, endpos=None):
        pos, endpos = self._setup(string, pos, endpos)
        regs = self._try(string, pos, self._full)
        return Match(self, string, pos, endpos, regs) if regs else None

    def search(self, string, pos=0, endpos=None):
        pos, endpos = self._setup(string, pos, endpos)
        return self._search(string, pos, endpos, False)

    def _search(self, string, pos, endpos, must_advance):
        first = self._first
        if first is None:
            for start in range(pos, endpos + 1):
                regs = self._try(string, start, self._matcher, must_advance and start == pos)
                if regs:
                    return Match(self, string, pos, endpos, regs)
            return None
        # Every match starts with a character `first` accepts (so none starts at endpos).
        s = self._ctx.s
        for start in range(pos, endpos):
            if first(s[start]):
                regs = self._try(string, start, self._matcher, must_advance and start == pos)
                if regs:
                    return Match(self, string, pos, endpos, regs)
        return None

    def _all(self, string, pos=0, endpos=None, count=0):
        pos, endpos = self._setup(string, pos, endpos)
        out = []
        must_advance = False
        while pos <= endpos:
            m = self._search(string, pos, endpos, must_advance)
            if m is None:
                break
            out.append(m)
            if count and len(out) >= count:
                break
            must_advance = m.end() == m.start()
            pos = m.end()
        return out

    def finditer(self, string, pos=0, endpos=None):
        return iter(self._all(string, pos, endpos))

    def findall(self, string, pos=0, endpos=None):
        out = []
        for m in self._all(string, pos, endpos):
            if self.groups == 0:
                out.append(m.group())
            elif self.groups == 1:
                out.append(m._get(1, ""))
            else:
                out.append(m.groups(""))
        return out

    def split(self, string, maxsplit=0):
        out = []
        last = 0
        for m in self._all(string, 0, None, maxsplit if maxsplit > 0 else 0):
            out.append(string[last:m.start()])
            out.extend(m.groups())
            last = m.end()
        out.append(string[last:])
        return out

    def subn(self, repl, string, count=0):
        # With a str replacement the result depends on its arguments alone: libraries that name
        # things by re.sub (Keras' to_snake_case on every layer) repeat the same few calls.
        key = (repl, string, count) if type(repl) is str and type(string) is str and type(count) is int else None
        if key is not None:
            hit = self._subn_memo.get(key)
            if hit is not None:
                return hit
        result = self._subn(repl, string, count)
        if key is not None:
            if len(self._subn_memo) >= 256:
                self._subn_memo.clear()
            self._subn_memo[key] = result
        return result

    def _subn(self, repl, string, count):
        if callable(repl):
            fn = repl
        else:
            template = _parse_template(self, repl)
            fn = lambda m: _apply_template(template, m)  # noqa: E731
        out = []
        last = 0
        n = 0
        for m in self._all(string, 0, None, count if count > 0 else 0):
            out.append(string[last:m.start()])
            r = fn(m)
            if r is not None:
                out.append(r)
            last = m.end()
            n += 1
        out.append(string[last:])
        return "".join(out), n

    def sub(self, repl, string, count=0):
        return self.subn(repl, string, count)[0]

    def scanner(self, string, pos=0, endpos=None):
        raise error("Pattern.scanner is not supported by onnxify's re")

    def __copy__(self):
        return self

    def __deepcopy__(self, memo):
        return self


def _flags_text(flags):
    names = [(I, "re.IGNORECASE"), (L, "re.LOCALE"), (M, "re.MULTILINE"), (S, "re.DOTALL"), (X, "re.VERBOSE"),
             (A, "re.ASCII"), (T, "re.TEMPLATE"), (DEBUG, "re.DEBUG")]
    return "|".join(n for f, n in names if flags & f) or "0"


def _parse_template(pattern, repl):
    """repl -> list of str pieces and group numbers (\\1, \\g<1>, \\g<name>, escapes)."""
    if not isinstance(repl, str):
        raise TypeError("onnxify's re takes str replacements")
    parts = []
    lit = []
    i = 0
    n = len(repl)
    while i < n:
        c = repl[i]
        if c != "\\":
            lit.append(c)
            i += 1
            continue
        if i + 1 >= n:
            raise error("bad escape (end of pattern)", repl, i)
        d = repl[i + 1]
        if d == "g":
            end = repl.find(">", i + 3)
            if i + 2 >= n or repl[i + 2] != "<" or end < 0:
                raise error("missing <" if i + 2 >= n or repl[i + 2] != "<" else "missing >, unterminated name",
                            repl, i + 2)
            name = repl[i + 3:end]
            if name.isdigit():
                num = int(name)
                if num > pattern.groups:
                    raise error(f"invalid group reference {num}", repl, i + 3)
            elif name in pattern.groupindex:
                num = pattern.groupindex[name]
            else:
                if not name.isidentifier():
                    raise error(f"bad character in group name {name!r}", repl, i + 3)
                raise IndexError(f"unknown group name {name!r}")
            parts.append("".join(lit))
            lit = []
            parts.append(num)
            i = end + 1
            continue
        if d.isdigit() and d != "0":
            j = i + 2
            if j < n and repl[j].isdigit():
                j += 1
            num = int(repl[i + 1:j])
            if num > pattern.groups:
                raise error(f"invalid group reference {num}", repl, i + 1)
            parts.append("".join(lit))
            lit = []
            parts.append(num)
            i = j
            continue
        if d in _SIMPLE_ESCAPES and d != "b":
            lit.append(_SIMPLE_ESCAPES[d])
        elif d == "b":
            lit.append("\b")
        elif d == "\\":
            lit.append("\\")
        elif d.isascii() and d.isalpha():
            raise error(f"bad escape \\{d}", repl, i)
        else:
            lit.append("\\" + d)
        i += 2
    parts.append("".join(lit))
    return parts


def _apply_template(parts, m):
    out = []
    for p in parts:
        if isinstance(p, int):
            out.append(m._get(p, ""))
        else:
            out.append(p)
    return "".join(out)


def _expand(pattern, template, m):
    return _apply_template(_parse_template(pattern, template), m)


# ---- module functions ---------------------------------------------------------------------------------

_cache = {}


def compile(pattern, flags=0):
    if isinstance(pattern, Pattern):
        if flags:
            raise ValueError("cannot process flags argument with a compiled pattern")
        return pattern
    key = (type(pattern), pattern, int(flags))
    p = _cache.get(key)
    if p is None:
        if not isinstance(pattern, str):
            return _onnxify.poison("re.compile(...)", "onnxify's re matches str patterns only")
        try:
            p = Pattern(pattern, int(flags))
        except _Unsupported as e:
            return _onnxify.poison("re.compile(...)", f"onnxify's re does not support {e.args[0]}")
        if len(_cache) > 512:
            _cache.clear()
        _cache[key] = p
    return p


def purge():
    _cache.clear()


def search(pattern, string, flags=0):
    return compile(pattern, flags).search(string)


def match(pattern, string, flags=0):
    return compile(pattern, flags).match(string)


def fullmatch(pattern, string, flags=0):
    return compile(pattern, flags).fullmatch(string)


def split(pattern, string, maxsplit=0, flags=0):
    return compile(pattern, flags).split(string, maxsplit)


def findall(pattern, string, flags=0):
    return compile(pattern, flags).findall(string)


def finditer(pattern, string, flags=0):
    return compile(pattern, flags).finditer(string)


def sub(pattern, repl, string, count=0, flags=0):
    return compile(pattern, flags).sub(repl, string, count)


def subn(pattern, repl, string, count=0, flags=0):
    return compile(pattern, flags).subn(repl, string, count)


_SPECIAL_CHARS = frozenset("()[]{}?*+-|^$\\.&~# \t\n\r\v\f")


def escape(pattern):
    if isinstance(pattern, str):
        return "".join("\\" + c if c in _SPECIAL_CHARS else c for c in pattern)
    raise TypeError("onnxify's re escapes str only")


def template(pattern, flags=0):
    return compile(pattern, flags | T)


RegexFlag = int
_onnxify.poison_transparent(escape)
