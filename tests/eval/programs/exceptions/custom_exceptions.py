class AppError(Exception):
    def __init__(self, msg, code=0):
        super().__init__(msg, code)
        self.msg, self.code = msg, code
    def __str__(self):
        return f"[{self.code}] {self.msg}"
class NotFound(AppError):
    pass
try:
    raise NotFound("missing thing", 404)
except AppError as e:
    print(type(e).__name__, e, e.args, e.code, repr(e), isinstance(e, Exception))
class Plain(Exception): pass
print(str(Plain()), str(Plain("one")), str(Plain("a", "b")), repr(Plain(1, 2)), Plain("x").args)
e = ValueError("v"); e.extra = 1; print(e.extra, e.with_traceback(None) is e)
try:
    raise Plain
except Plain as p:
    print("caught class", repr(p))
