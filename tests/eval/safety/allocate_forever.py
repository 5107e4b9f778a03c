# args: --max-memory 64
chunks = []
while True:
    chunks.append([0] * 100000)
