# Repeats of a fixed-width body on long strings (no recursion per character): transformers'
# docstring patterns run on texts of thousands of characters.
import re

text = ("word " * 3000) + "\nArgs:\n" + ("    x (int): a value\n" * 200) + "Returns:\n  y\n"
m = re.search(r"(?:(?!Returns:).)*", text, re.DOTALL)
print(len(m.group(0)))
print(len(re.findall(r"(?:ab)+", "ab" * 5000 + "x" + "ab" * 3)))
print(re.match(r"(?:[a-z] )*", "a " * 8000).end())
m = re.search(r"(?:Args:)(\n.*)?(\n)?$", text, re.DOTALL)
print(m.start(), len(m.group(1)))
print(re.sub(r"(?:x.){2}", "-", "xaxbxcxd" * 3000)[:10])
