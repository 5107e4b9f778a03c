# expect-error
registry = {"resnet": 1}
def get_model(name):
    return build(name)
def build(name):
    return registry[name]
print(get_model("resnet"))
get_model("vgg")
