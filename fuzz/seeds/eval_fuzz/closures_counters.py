def make_counter(start=0):
    count = start
    def inc(step=1):
        nonlocal count
        count += step
        return count
    def get():
        return count
    return inc, get
inc, get = make_counter(10)
inc(); inc(5)
print(get(), inc.__closure__ is not None, len(inc.__closure__))
inc2, get2 = make_counter()
print(inc2(), get(), get2())
def outer():
    x = "outer"
    def middle():
        def inner():
            return x
        return inner
    x = "changed"
    return middle()
print(outer()())
