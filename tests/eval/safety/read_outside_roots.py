# Reading is allowed only under the import roots (here: this script's folder). A folder outside
# them is not listed: os.listdir gives an unknown value, an error where the names are needed.
import os

names = os.listdir("/etc")
print(len(names))
