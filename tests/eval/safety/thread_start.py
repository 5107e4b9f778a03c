# One thread only: a Thread object can be made, starting it is an unknown value (nothing runs).
import threading

results = []
t = threading.Thread(target=lambda: results.append(1))
started = t.start()
if started is None:
    print("started")
