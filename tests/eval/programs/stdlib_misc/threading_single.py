# threading in one thread: locks, re-entrant locks, events, thread-local data, the main thread.
import threading

lock = threading.Lock()
with lock:
    print(lock.locked())
print(lock.locked(), lock.acquire(), lock.acquire(blocking=False))
lock.release()
r = threading.RLock()
with r:
    with r:
        print("reentrant")
e = threading.Event()
print(e.is_set(), e.wait(0))
e.set()
print(e.is_set(), e.wait())
data = threading.local()
data.x = 3
print(data.x, threading.current_thread().name, threading.main_thread() is threading.current_thread())
print(threading.active_count())
try:
    lock.release()
except RuntimeError as err:
    print("RuntimeError", err)
