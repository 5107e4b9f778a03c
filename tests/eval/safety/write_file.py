# Writing stays unavailable, inside the roots too: open(..., "w") is an unknown value.
import os

here = os.path.dirname(os.path.abspath(__file__))
with open(os.path.join(here, "written.txt"), "w") as f:
    n = f.write("data")
print(n)
