"""Plausible wrong versions of solutions/Optimizer/SGD.py: each must fail exe."""

VARIANTS = {
    "Nesterov look-ahead with the buffer before this step": [
        ("            buf = momentum * tl.load(buf_ptr + offs, mask=mask) + one_minus_dampening * g\n",
         "            old = tl.load(buf_ptr + offs, mask=mask)\n"
         "            buf = momentum * old + one_minus_dampening * g\n"),
        ("            buf = one_minus_dampening * g\n",
         "            old = g * 0.0\n            buf = one_minus_dampening * g\n"),
        ("            d = g + momentum * buf\n", "            d = g + momentum * old\n")],
    # torch.optim.SGD's convention, not this task's: the first buffer is the undamped gradient.
    "first step ignores dampening": ("            buf = one_minus_dampening * g\n", "            buf = g\n"),
    "weight decay applied to param, not to the gradient": [
        ("        g = g + weight_decay * p\n", "        p = p - lr * weight_decay * p\n")],
    "buffer not written back (stale state)": ("        tl.store(buf_ptr + offs, buf, mask=mask)\n", ""),
    "new buffer returned as the gradient tensor": (
        "buf = torch.empty_like(param, memory_format=torch.contiguous_format) if momentum_buffer is None",
        "buf = grad if momentum_buffer is None"),
    "momentum 0 still returns the given buffer": ("    buf = None\n    if use_momentum:",
                                                  "    buf = momentum_buffer\n    if use_momentum:"),
}
