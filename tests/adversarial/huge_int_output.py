# Returns a Python integer too large for any tensor dtype.
def relu(input, inplace=False):
    return 2 ** 70
