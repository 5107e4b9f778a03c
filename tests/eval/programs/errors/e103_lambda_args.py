# expect-error
print('start lambda_args')
f = lambda x: x
f()
print('not reached')
