# Integer loops and arithmetic.
def work(n):
    total = 0
    for i in range(n):
        if i % 3 == 0:
            total += i * 2
        elif i % 3 == 1:
            total -= i // 2
        else:
            total ^= i
    j = 0
    while j < n:
        j += 1
        total += j & 7
    return total
print(work(3_000_000))
