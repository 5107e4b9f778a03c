# expect-error
print('start set_changed_size')
s = {1, 2}
for x in s:
    s.add(x + 10)
print('not reached')
