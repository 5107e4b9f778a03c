# Writing stays unavailable, inside the roots too: open(..., "w") raises OSError, as on a read-only file
# system (code that catches it goes on).
import os

here = os.path.dirname(os.path.abspath(__file__))
with open(os.path.join(here, "written.txt"), "w") as f:
    n = f.write("data")
print(n)
