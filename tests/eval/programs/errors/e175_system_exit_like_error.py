# expect-error
print('start system_exit_like_error')
raise SystemError('sys')
print('not reached')
