# Reads raw process memory with ctypes (a pointer read is all it takes to see anything).
import ctypes

secret = ctypes.string_at(id(object()), 16)


def relu(input, inplace=False):
    return input
