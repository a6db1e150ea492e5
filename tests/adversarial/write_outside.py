# Writes a file outside its job directory (somewhere the guard does not watch: the sandbox's
# filesystem rules must stop it).
open("/tmp/kbx-outside-5b1f", "w").write("escaped")


def relu(input, inplace=False):
    return input
