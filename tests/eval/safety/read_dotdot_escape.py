# `..` is resolved before the roots are checked: a path that starts in the script's folder and
# climbs out of it is outside the roots.
import os

escape = os.path.join("tests", "eval", "safety", "..", "..", "..", "..", "..", "..", "..", "..", "etc", "hostname")
if os.path.exists(escape):
    print("found")
