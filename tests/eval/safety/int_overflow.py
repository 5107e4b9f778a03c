x = 2 ** 62
print(x * 4)
