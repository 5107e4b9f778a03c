import os, os.path, sys, warnings, logging, numbers, string, keyword, heapq, bisect, textwrap, contextlib
print(os.path.join("a", "b", "c.py"), os.path.join("/x", "/y"), os.path.basename("/a/b.txt"), os.path.dirname("/a/b.txt"))
print(os.path.splitext("archive.tar.gz"), os.path.split("/a/b/c"), os.path.normpath("/a/./b/../c//d"), os.path.isabs("/x"))
print(os.sep, os.name, os.path.commonprefix(["/usr/lib", "/usr/local"]), os.getenv("NOPE_X", "dflt"), os.fspath("p"))
print(sys.version_info[:2], sys.version_info.major, sys.maxsize, sys.platform, "sys" in sys.modules, sys.byteorder)
print(sys.getrecursionlimit(), type(sys.modules).__name__, sys.float_info.epsilon)
with warnings.catch_warnings(record=True) as w:
    warnings.simplefilter("always")
    warnings.warn("careful", DeprecationWarning)
    warnings.warn("plain")
print(len(w), w[0].category.__name__, str(w[0].message), w[1].category.__name__)
warnings.warn("to stderr only")
log = logging.getLogger("model")
log.setLevel(logging.INFO)
log.info("not printed"); log.warning("not printed either")
print(log.name, log.level, logging.getLevelName(logging.WARNING), log.isEnabledFor(logging.DEBUG), logging.getLogger("model") is log)
print(isinstance(3, numbers.Number), isinstance(3.5, numbers.Integral), isinstance(True, numbers.Integral), isinstance(1j, numbers.Real))
print(string.ascii_lowercase[:5], string.digits, keyword.iskeyword("for"), keyword.iskeyword("foo"), string.capwords("hello world"))
h = [5, 1, 4, 2]
heapq.heapify(h); heapq.heappush(h, 0)
print([heapq.heappop(h) for _ in range(5)], heapq.nlargest(2, [3, 9, 1]), heapq.nsmallest(2, [3, 9, 1]))
print(bisect.bisect_left([1, 2, 2, 3], 2), bisect.bisect_right([1, 2, 2, 3], 2), bisect.bisect([1, 3], 2))
l = [1, 3]; bisect.insort(l, 2); print(l)
print(textwrap.dedent("    a\n      b\n    c"), textwrap.indent("x\ny", "> "))
@contextlib.contextmanager
def tag(name):
    print("<" + name + ">")
    yield name.upper()
    print("</" + name + ">")
with tag("b") as t:
    print("inside", t)
with contextlib.suppress(KeyError):
    {}["x"]
print("suppressed")
with contextlib.nullcontext(5) as v:
    print(v)
with contextlib.ExitStack() as stack:
    stack.callback(print, "callback ran")
    print(stack.enter_context(tag("i")))
