# expect-error
class Model:
    def __init__(self):
        self.layers = []
m = Model()
print(len(m.layers))
print(m.layer)
