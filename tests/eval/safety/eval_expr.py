x = eval("1 + 2")
print(x)
