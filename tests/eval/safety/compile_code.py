c = compile("1", "<s>", "eval")
if c:
    pass
