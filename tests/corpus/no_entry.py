import torch
import triton
import triton.language as tl

def gelu_kernel_wrapper(input, approximate="none"):
    return input
