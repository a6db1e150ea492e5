# Claims a finished run and leaves a FIFO where the parent reads the outputs: a reader that opens it
# blocks for ever.
import os
import sys

os.mkfifo("outputs.pt")
os.write(int(sys.argv[2]), b'{"event": "stage", "stage": "call"}\n{"event": "stage", "stage": "exe"}\n'
         b'{"event": "report", "stage": "exe", "status": "ran", "configs": [""]}\n')
os._exit(0)


def relu(input, inplace=False):
    return input
