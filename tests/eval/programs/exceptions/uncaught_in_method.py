# expect-error
class Stack:
    def __init__(self): self.items = []
    def pop(self):
        return self.items.pop()
s = Stack()
s.items.append(1)
print(s.pop())
s.pop()
