# An honest GELU whose wrapper moves data the way LLM kernels often do, each of which the op
# monitor or the interpreter's rules once refused:
# - the flat input padded to a whole number of blocks with F.pad (constant), so the kernel needs
#   no mask, and the padding sliced off afterwards;
# - the work split into chunks, a launch per chunk, and the pieces joined with torch.cat;
# - the launches labelled with torch.profiler.record_function (torch.optim.Optimizer puts such a
#   label around every step);
# - a constexpr argument whose default is a plain module global (compiled Triton reads defaults
#   with any global).
import torch
import torch.nn.functional as F
import triton
import triton.language as tl

DEFAULT_BLOCK = 512
CHUNK = 1 << 16


@triton.jit
def _gelu_block(x_ptr, y_ptr, USE_TANH: tl.constexpr, BLOCK: tl.constexpr = DEFAULT_BLOCK):
    offsets = tl.program_id(0).to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offsets).to(tl.float32)  # padded to whole blocks: no mask
    if USE_TANH:
        inner = 0.7978845608028654 * (x + 0.044715 * x * x * x)
        y = 0.5 * x * (1.0 + (2.0 * tl.sigmoid(2.0 * inner) - 1.0))
    else:
        y = 0.5 * x * (1.0 + tl.math.erf(x * 0.7071067811865476))
    tl.store(y_ptr + offsets, y.to(y_ptr.dtype.element_ty))


def _gelu_chunk(chunk: torch.Tensor, tanh: bool) -> torch.Tensor:
    n = chunk.numel()
    padded = F.pad(chunk, (0, (-n) % DEFAULT_BLOCK))
    out = torch.empty_like(padded)
    _gelu_block[(padded.numel() // DEFAULT_BLOCK,)](padded, out, USE_TANH=tanh)
    return out[:n]


def gelu(input: torch.Tensor, approximate: str = "none") -> torch.Tensor:
    if approximate not in ("none", "tanh"):
        raise ValueError(f"approximate must be 'none' or 'tanh', got {approximate!r}")
    flat = input.reshape(-1)
    if flat.numel() == 0:
        return torch.empty_like(input)
    with torch.profiler.record_function("triton_gelu"):
        pieces = [_gelu_chunk(chunk, approximate == "tanh") for chunk in flat.split(CHUNK)]
    return torch.cat(pieces).view(input.shape)
