# expect-error
print('start hash_dict_key')
d = {[1]: 2}
print('not reached')
