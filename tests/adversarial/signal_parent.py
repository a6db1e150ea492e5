# Signals its parent process (to stop the fork server or the CLI).
import os
import signal

os.kill(os.getppid(), signal.SIGSTOP)


def relu(input, inplace=False):
    return input
