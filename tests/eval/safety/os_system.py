import os

status = os.system("rm -rf /tmp/x")
print(status)
