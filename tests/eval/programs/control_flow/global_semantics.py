counter = 0
items = []
def add(v):
    global counter
    counter += 1
    items.append(v)
def reset():
    global counter, items
    counter, items = 0, []
add(1); add(2); print(counter, items); reset(); print(counter, items)
def make_global():
    global created_later
    created_later = "made"
make_global(); print(created_later)
def shadow():
    counter = 100
    return counter
print(shadow(), counter)
def reads_global():
    return counter + len(items)
add(9); print(reads_global())
x = "module"
def outer():
    x = "enclosing"
    def inner():
        global x
        return x
    return inner()
print(outer())
