# Never returns, but keeps announcing stages, each of which used to restart the time limit.
import itertools
import os
import sys
import time

FD = int(sys.argv[2])


def relu(input, inplace=False):
    for stage in itertools.cycle(["exe", "call", "load", "setup", "exe"]):
        os.write(FD, b'{"event": "stage", "stage": "%s"}\n' % stage.encode())
        time.sleep(0.5)
