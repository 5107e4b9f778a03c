for i in range(3):
    if i == 5: break
else:
    print("for-else ran", i)
for i in range(10):
    if i == 2: break
else:
    print("not printed")
n = 0
while n < 3:
    n += 1
else:
    print("while-else", n)
while True:
    n -= 1
    if n == 0: break
print(n)
for x in []:
    pass
else:
    print("empty else")
total = 0
for i in range(5):
    if i % 2: continue
    total += i
print(total)
for i, j in [(1, 2), (3, 4)]:
    print(i * j, end=" ")
print()
