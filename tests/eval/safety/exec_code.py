# exec would define names at run time: skipping it would silently change the program, so the
# call itself is the error.
code = "import os"
exec(code)
