"""threading (onnxify's stdlib subset): the evaluator runs one thread, so locks, events and
thread-local data are the single-threaded objects libraries guard their state with (transformers
holds a Lock while it patches classes); starting a thread is an unknown value (nothing runs
concurrently here)."""
import _onnxify

TIMEOUT_MAX = 9223372036.0


class _Lock:
    def __init__(self):
        self._locked = False

    def acquire(self, blocking=True, timeout=-1):
        if self._locked:
            if not blocking or timeout >= 0:
                return False
            raise RuntimeError("deadlock: the lock is held by the only thread")
        self._locked = True
        return True

    def release(self):
        if not self._locked:
            raise RuntimeError("release unlocked lock")
        self._locked = False

    def locked(self):
        return self._locked

    __enter__ = acquire

    def __exit__(self, *exc):
        self.release()


class _RLock:
    def __init__(self):
        self._count = 0

    def acquire(self, blocking=True, timeout=-1):
        self._count += 1
        return True

    def release(self):
        if self._count == 0:
            raise RuntimeError("cannot release un-acquired lock")
        self._count -= 1

    __enter__ = acquire

    def __exit__(self, *exc):
        self.release()


def Lock():
    return _Lock()


def RLock():
    return _RLock()


class Condition:
    def __init__(self, lock=None):
        self._lock = lock if lock is not None else RLock()

    def __enter__(self):
        return self._lock.__enter__()

    def __exit__(self, *exc):
        return self._lock.__exit__(*exc)

    def acquire(self, *args):
        return self._lock.acquire(*args)

    def release(self):
        self._lock.release()

    def notify(self, n=1):
        pass

    def notify_all(self):
        pass

    def wait(self, timeout=None):
        return _onnxify.poison("threading.Condition.wait", "waiting for another thread: onnxify runs one thread")


class Event:
    def __init__(self):
        self._flag = False

    def is_set(self):
        return self._flag

    def set(self):
        self._flag = True

    def clear(self):
        self._flag = False

    def wait(self, timeout=None):
        return self._flag


class Semaphore:
    def __init__(self, value=1):
        if value < 0:
            raise ValueError("semaphore initial value must be >= 0")
        self._value = value

    def acquire(self, blocking=True, timeout=None):
        if self._value == 0:
            return False
        self._value -= 1
        return True

    def release(self, n=1):
        self._value += n

    __enter__ = acquire

    def __exit__(self, *exc):
        self.release()


BoundedSemaphore = Semaphore


class local:
    """Thread-local data: with one thread, plain attributes."""


class Thread:
    def __init__(self, group=None, target=None, name=None, args=(), kwargs=None, *, daemon=None):
        self.name = name or "Thread-1"
        self.daemon = bool(daemon)
        self._target = target

    def start(self):
        return _onnxify.poison("threading.Thread.start", "threading.Thread.start() is not available: onnxify runs "
                               "one thread")

    def join(self, timeout=None):
        return None

    def is_alive(self):
        return False


class _MainThread(Thread):
    def __init__(self):
        Thread.__init__(self, name="MainThread")
        self.ident = 1


_main = _MainThread()


def current_thread():
    return _main


def main_thread():
    return _main


def get_ident():
    return 1


def active_count():
    return 1


def enumerate():
    return [_main]
