# expect-error
print('start setitem_on_str_dict_view')
d = {'a': 1}
d.keys()[0]
print('not reached')
