import subprocess

out = subprocess.check_output(["ls", "/"])
print(out)
