# Writing stays unavailable, inside the roots too: open(..., "w") raises OSError, as on a read-only file
# system, so code that catches it goes on; uncaught, it is the user's error at the open.
import errno
import os

here = os.path.dirname(os.path.abspath(__file__))
try:
    open(os.path.join(here, "written.txt"), "w")
except OSError as e:
    print("caught", e.errno == errno.EROFS)
with open("written.txt", "a") as f:
    n = f.write("data")
print(n)
