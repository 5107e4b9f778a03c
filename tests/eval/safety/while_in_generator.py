# args: --max-steps 50000
def forever():
    while True:
        yield 1


print(sum(forever()))
