import sys
print("before exit")
sys.exit(0)
print("never")
