def f(x):
    log = []
    try:
        log.append("try")
        if x == 0:
            raise ValueError("zero")
        if x == 1:
            return log + ["returned"]
    except ValueError as e:
        log.append(f"except {e}")
    else:
        log.append("else")
    finally:
        log.append("finally")
    return log
print(f(0), f(1), f(2))
def g():
    try:
        return "try"
    finally:
        print("finally runs before return")
print(g())
def h():
    for i in range(3):
        try:
            if i == 1:
                continue
            if i == 2:
                break
        finally:
            print("fin", i)
    return i
print(h())
def override():
    try:
        return 1
    finally:
        return 2
print(override())
