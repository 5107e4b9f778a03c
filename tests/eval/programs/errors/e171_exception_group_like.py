# expect-error
print('start exception_group_like')
e = ExceptionGroup if False else ValueError
raise e('plain')
print('not reached')
