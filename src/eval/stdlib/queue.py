"""queue (onnxify's stdlib subset): the queue classes with their single-threaded behaviour.

The evaluator runs one thread, so a blocking get() on an empty queue (or put() on a full one) could
never return: it raises Empty / Full at once, as a zero timeout would, instead of hanging."""
import heapq as _heapq
from collections import deque as _deque

__all__ = ["Empty", "Full", "Queue", "PriorityQueue", "LifoQueue", "SimpleQueue"]


class Empty(Exception):
    "Exception raised by Queue.get(block=0)/get_nowait()."


class Full(Exception):
    "Exception raised by Queue.put(block=0)/put_nowait()."


class Queue:
    """A FIFO queue; maxsize <= 0 means unbounded."""

    def __init__(self, maxsize=0):
        self.maxsize = maxsize
        self._init(maxsize)
        self.unfinished_tasks = 0

    def task_done(self):
        if self.unfinished_tasks <= 0:
            raise ValueError("task_done() called too many times")
        self.unfinished_tasks -= 1

    def join(self):
        pass

    def qsize(self):
        return self._qsize()

    def empty(self):
        return not self._qsize()

    def full(self):
        return 0 < self.maxsize <= self._qsize()

    def put(self, item, block=True, timeout=None):
        if timeout is not None and timeout < 0:
            raise ValueError("'timeout' must be a non-negative number")
        if 0 < self.maxsize <= self._qsize():
            raise Full
        self._put(item)
        self.unfinished_tasks += 1

    def get(self, block=True, timeout=None):
        if timeout is not None and timeout < 0:
            raise ValueError("'timeout' must be a non-negative number")
        if not self._qsize():
            raise Empty
        return self._get()

    def put_nowait(self, item):
        return self.put(item, block=False)

    def get_nowait(self):
        return self.get(block=False)

    def _init(self, maxsize):
        self.queue = _deque()

    def _qsize(self):
        return len(self.queue)

    def _put(self, item):
        self.queue.append(item)

    def _get(self):
        return self.queue.popleft()

    __class_getitem__ = classmethod(lambda cls, item: cls)


class PriorityQueue(Queue):
    """Entries come out lowest first (heapq order)."""

    def _init(self, maxsize):
        self.queue = []

    def _put(self, item):
        _heapq.heappush(self.queue, item)

    def _get(self):
        return _heapq.heappop(self.queue)


class LifoQueue(Queue):
    """Entries come out last in, first out."""

    def _init(self, maxsize):
        self.queue = []

    def _put(self, item):
        self.queue.append(item)

    def _get(self):
        return self.queue.pop()


class SimpleQueue:
    """An unbounded FIFO queue without task tracking."""

    def __init__(self):
        self._queue = _deque()

    def put(self, item, block=True, timeout=None):
        self._queue.append(item)

    def put_nowait(self, item):
        self.put(item, block=False)

    def get(self, block=True, timeout=None):
        if timeout is not None and timeout < 0:
            raise ValueError("'timeout' must be a non-negative number")
        if not self._queue:
            raise Empty
        return self._queue.popleft()

    def get_nowait(self):
        return self.get(False)

    def empty(self):
        return len(self._queue) == 0

    def qsize(self):
        return len(self._queue)

    __class_getitem__ = classmethod(lambda cls, item: cls)
