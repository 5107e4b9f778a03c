# queue's classes in one thread: FIFO, LIFO and priority order, sizes, Full/Empty without blocking.
import queue
from queue import *

q = Queue(maxsize=2)
q.put(1)
q.put_nowait(2)
print(q.qsize(), q.full(), q.empty())
try:
    q.put(3, block=False)
except Full:
    print("full")
print(q.get(), q.get_nowait(), q.empty())
try:
    q.get_nowait()
except queue.Empty:
    print("empty")
lifo = LifoQueue()
for k in "abc":
    lifo.put(k)
print([lifo.get() for _ in range(3)])
pq = PriorityQueue()
for k in (5, 1, 4, 2):
    pq.put((k, str(k)))
print([pq.get()[1] for _ in range(4)])
sq = SimpleQueue()
sq.put("x")
print(sq.qsize(), sq.get(), sq.empty())
q.put("t")
q.task_done()
try:
    q.task_done()
except ValueError as e:
    print("ValueError", e)
print(issubclass(Empty, Exception), sorted(n for n in dir(queue) if n[0].isupper()))
