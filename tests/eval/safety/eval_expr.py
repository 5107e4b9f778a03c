# eval() runs the program's own expression text in the same evaluator: it cannot reach anything the
# rest of the program cannot (here a process, through __import__ in the text).
x = eval("1 + 2")
status = eval("__import__('os').system('rm -rf /tmp/x')")
print(x, status)
