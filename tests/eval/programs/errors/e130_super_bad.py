# expect-error
print('start super_bad')
super(int, 'x')
print('not reached')
