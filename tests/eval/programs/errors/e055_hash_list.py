# expect-error
print('start hash_list')
print(hash([1]))
print('not reached')
