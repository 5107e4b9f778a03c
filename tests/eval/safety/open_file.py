# Reading a file is not allowed: `open` is poison, an error once its result is used.
f = open("/etc/passwd")
print(f.read())
