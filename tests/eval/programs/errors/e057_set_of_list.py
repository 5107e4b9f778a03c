# expect-error
print('start set_of_list')
s = {[]}
print('not reached')
