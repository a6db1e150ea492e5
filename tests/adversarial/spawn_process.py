# Starts a helper process at import.
import subprocess

subprocess.run(["true"], check=False)


def relu(input, inplace=False):
    return input
