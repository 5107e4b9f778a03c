# expect-error
print('start int_too_big_for_chr')
print(chr(0x110000))
print('not reached')
