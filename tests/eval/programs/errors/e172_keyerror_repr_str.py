# expect-error
print('start keyerror_repr_str')
d = {}
d['quoted \'key\'']
print('not reached')
