# Leaves a chain of 1,500 folders in its job directory, with data at the bottom, then raises. The
# parent's cleanup (shutil.rmtree, recursive on Python 3.11) raised RecursionError on it: the job's
# verdict became harness_error, and the CLI died without reports with the scratch left on disk.
# The chain is built as 30 short pieces (each within the disk watch's depth limit) and linked only
# as the call starts, so the watch rarely ends the job before its own error is reported.
import os

PIECES, DEPTH = 30, 50
CHAIN = "/".join(["d"] * DEPTH)
for k in range(PIECES):
    os.makedirs(f"p{k}/{CHAIN}")
with open(f"p{PIECES - 1}/{CHAIN}/data", "wb") as f:
    f.write(b"\xab" * (4 << 20))


def relu(input, inplace=False):
    for k in range(PIECES - 1, 0, -1):  # each piece into the bottom of the one before
        os.rename(f"p{k}", f"p{k - 1}/{CHAIN}/p{k}")
    raise RuntimeError("deep folder chain built: its own error")
