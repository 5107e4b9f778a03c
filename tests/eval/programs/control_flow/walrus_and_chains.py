data = [1, 5, 12, 7, 20]
if (n := len(data)) > 3:
    print("long", n)
print([y for x in data if (y := x * 2) > 10], y)
vals = iter([3, 2, 1, 0, 5])
out = []
while (v := next(vals)) != 0:
    out.append(v)
print(out)
a = 5
print(1 < a < 10, 1 < a > 10, a == 5 == 5.0, 1 < 2 < 3 < 2, "a" < "b" <= "b" != "c", 0 <= a <= 4 or a)
def side(v, log):
    log.append(v); return v
log = []
print(side(1, log) < side(2, log) < side(0, log) < side(5, log), log)
print((lambda: (z := 3) + z)())
