# expect-error
print('start chr_range')
print(chr(-5))
print('not reached')
