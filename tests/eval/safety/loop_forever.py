# args: --max-steps 100000
n = 0
while True:
    n += 1
