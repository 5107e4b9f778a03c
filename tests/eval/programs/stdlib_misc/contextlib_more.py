from contextlib import contextmanager, closing, redirect_stdout, AbstractContextManager
import io
class Resource:
    def close(self): print("closed resource")
with closing(Resource()) as r:
    print("using", type(r).__name__)
@contextmanager
def transaction(log):
    log.append("begin")
    try:
        yield log
        log.append("commit")
    except Exception as e:
        log.append(f"rollback {e}")
        raise
log = []
with transaction(log): log.append("work")
try:
    with transaction(log): raise KeyError("k")
except KeyError:
    pass
print(log)
class CM(AbstractContextManager):
    def __exit__(self, *a): print("exit CM"); return None
with CM() as c:
    print(type(c).__name__)
buf = io.StringIO()
with redirect_stdout(buf):
    print("captured")
print(repr(buf.getvalue()))
