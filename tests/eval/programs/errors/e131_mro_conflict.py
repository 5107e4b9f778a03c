# expect-error
print('start mro_conflict')
class A: pass
class B(A): pass
class C(A, B): pass
print('not reached')
