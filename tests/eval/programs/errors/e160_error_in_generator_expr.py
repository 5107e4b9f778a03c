# expect-error
print('start error_in_generator_expr')
print(sum(1 // x for x in [2, 0]))
print('not reached')
