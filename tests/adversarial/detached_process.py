# Starts a detached process (new session, double fork) that outlives its job and tries to leave a
# file in /dev/shm. The marker in its command line lets the test look for it after the run.
import os
import sys

MARKER = "kbx-escape-3f9c2a"
if os.fork() == 0:
    os.setsid()
    if os.fork() == 0:
        code = ("import time\n"
                "for _ in range(300):\n"
                "    try:\n"
                "        open('/dev/shm/" + MARKER + "', 'w').write('escaped')\n"
                "    except OSError:\n"
                "        pass\n"
                "    time.sleep(0.1)\n")
        os.execv(sys.executable, [sys.executable, "-c", code, MARKER])
    os._exit(0)


def relu(input, inplace=False):
    import time
    time.sleep(2)  # the job is still running while the detached process tries its write
    raise RuntimeError("done")
