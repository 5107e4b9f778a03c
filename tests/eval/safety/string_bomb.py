# args: --max-memory 64
s = "x"
while True:
    s = s + s
