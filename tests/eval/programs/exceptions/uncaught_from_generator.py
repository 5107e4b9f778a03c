# expect-error
def batches(n):
    for i in range(n):
        if i == 2:
            raise RuntimeError(f"batch {i} is corrupt")
        yield i
for b in batches(5):
    print("batch", b)
