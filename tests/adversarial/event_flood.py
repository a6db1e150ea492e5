# Floods the event pipe: 384 MiB of well-formed events the parent would otherwise keep in memory.
import os
import sys

line = b'{"event": "noise", "pad": "' + b"x" * 4000 + b'"}\n'
chunk = line * 256
fd = int(sys.argv[2])
for _ in range(384):
    os.write(fd, chunk)


def relu(input, inplace=False):
    return input
