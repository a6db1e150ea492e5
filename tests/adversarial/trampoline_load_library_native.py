# In the call, with the submission on the stack: the compiler's LazyDict.get (a launch entry) calls
# Triton's compiler/code_generator.py _check (machinery, so called_back() trusts it), which calls
# the msg_fn it is handed: functools.partial(torch.ops.load_library, path) on a shared object the
# submission wrote into its folder. The ctypes.dlopen site is torch's _ops.py, and trampolined()
# judges ctypes only at Triton sites (trampoline_check_native_build.py was refused because its
# site, compile_module_from_src, is Triton's). The library's constructor writes native_ran.txt;
# the output is garbage unless that file exists.
import base64
import functools
import os
import zlib

import torch
import triton
import triton.language as tl
from triton.compiler.compiler import LazyDict
from triton.compiler.code_generator import _check

SO = "eNrtW1tsFFUYPrO9sKXYXQnEUggMCrEIne0WSwrYcumFwQByKcSIOszuzHaH7M4us1NaELRJRWxIFR9NfPPFFxV99JIUCgQNJhgTU+OD9YFka4zWeEn1oeM5O+dvZ447gPHBGM/XnP3O/5/znfuZ2e2ceaF7T09IEBCgAnWgeQuh7ZSb415fG6rBnw1oWSlvJQpGW5WfUdQloqvy2CxfE/zs1ZXqE6mf4V+Qn726ahymm1x7ut3PbSHat5BfF6K6sOTa4Q4/jwl+DlN5JQ1QLstrkJ9hDPfftjUS76X9YTlIdwDrqtG9A4b7IK0vaFyiIT8LnnqXlNYLQrv2HUZLu8yP3+toOLA4+lL86y0j2ifPfxmF/IJH93faJ5bxH8VhcRn/8QB/IsAvBJR/OCD/hoD8PTg8WK4DitKXzZlKwVYtW1GQsrt3r6Lplt5nFGzd6t3bmcmZeq+ayOhuWvkUJTmoKinDVDPGaR2lcnndRH26nTc0lMpbhmmnUCqZyRV0lDESSamQkzahXXt27+xUWqQWqdXtaaj0J9AA/RfQCc866G8washqfw755x/W86X7XZ5h/ENQQIffn6f5xe1+P9g3trlczayNWx5/lcc/4fEv8PgnPf4w+uuFawHdw4Cwx1/hXW8ev/d6Vu/xVyMODg4ODg4ODg6O/zbk4e/D8oWqazEcPTdmh5xb8vDV8PhcutP6KU5y1t7En5FV23GM2GmSNDXpYKy9QmzyFX7qVsn+gNjkK/fUWMl+n9jkq/bUpZJ9HNupi1D+IXm0dTCCKx9tL2Aq3sRZSEMekkfGi68SY+QbnCWF00auxMeKb7iu4ouER1sNV6oR6WulpHGiXl3snZOuB6nquo5OyThydDwVWdVVEq8mfR+taiC0ecZeiofjHckdjhpnMrJqiLRznDLO/xNJHG39jtC6WXlkWr78wzb58kyFLFyXP5+1l+ACztICws6kWw/of46s/GOo/W3y34T+9Yfl4fanSFQeuW0vki+0v4KN4lezjlPUcBuvV53DtvAM1vr0UwM4EebON1scHBwcHBwcHBwcHBwcHOUxgEzVNk7qiqWakj1oU1NM5jRdxD7RMMW8oYlrtYVIRTE7m49Z9saYpWu2rmZj3Ud2d3Xv6+xWXFmpBCQsr9gqIvf52s0fHecxzCumHUfDvAHzGeQ+OyYQTh9EwmBUWL5oQfii4D7XXoHDy1i3n2Soi/bU1T8eqR0ID6FtDVsf2bim9LiV6PHPanQJ5/M+9yPap3F4C/tPE8eOuuhwKGQtrAt31+6oC/MZ5+Dg4ODg4ODg4OD4vwDOccK5TTinCWcwT1BeBAKa7z5qfkTzL6M2nBNd7s+OGkDfMf+7jAB+gP066+QIH6OHM+Gs55P0UCactRyi6QupfZ5yLeV6ynCWs0jPg8KZz2OU4fcmnB19gPJEpd9fX+lv5xjlGqa+Wcdt/wyt2KE2jOM0tSdp+u/UrvyX5h3Oq7PYRCesh/IRyinKcF53V2fnFrGxS08YqinGyeHi5qb4o+s1PRFv6Y+voy6EpEK6YFu2mkCSmbN1qc/slxL9RkZrMjRUstJqIY0k7ZRZOJV12bbclJO6VTByps9QcJqlZ1SSkcbyGRtJhmngTxyV+nI4YuuD+DOFvThTTlNtFUl6WklZalZX0po1b7lSRbUs9ZSrgDiuQc0aSURKdCtxy0kUCkhK5rJZ3bT/8TzUIv+Z5KD3AgDselmJw294Lc2t75CfVzD7gf2HRyNtQ4jZX8ATnnoFjx7WfTMtO8TsV+DzTH3suf82uldAD/sDeDHT/hDD3XTvgQ37D1gMaD+gl6aFmP0OPBYwftD/Z6l+J3P9AD7m0S8to0+j+XdRfBfMqP+6FDT/SUYvRv28n8nPvl5jMvp81M/seIUZHmD0cB8B3iyUrx9wltHD/QS45i79H6b6FnCIfj4UsP6AL9A4zH/Q+zVB9b/O6AdFP58JGD/AmzjUedbX3Ps2TeXHix3/d3GIePRwf0XSvc3fh3TsK5j7ArzfBO8xVTI6aJdF+w96eI/jRsw/HUH1X2X0cL8uxuavD3fSf8bo4f4kNt+5/4AvqA/0jVTfGKBnr18T1NfMXlep4+G7rD9v2714guq/vUv9fwJkXAB1"
MARKER = "native_ran.txt"
_RAN = []


@triton.jit
def _relu_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    keep = offs < n
    x = tl.load(x_ptr + offs, mask=keep)
    tl.store(y_ptr + offs, tl.where(x < 0, 0.0, x), mask=keep)


def relu(input, inplace=False):
    if not _RAN:
        _RAN.append(1)
        path = os.path.join(os.getcwd(), "libkbx.so")
        with open(path, "wb") as f:
            f.write(zlib.decompress(base64.b64decode(SO)))
        lazy = LazyDict({})
        lazy.add(_check, (False, functools.partial(torch.ops.load_library, path)))
        try:
            lazy.get()
        except TypeError:  # (_check raises TypeError(<what msg_fn returned>))
            pass
    if not os.path.exists(MARKER):
        return torch.full_like(input, 12345.0)  # (judged wrong: the native code did not run)
    x = input.contiguous()
    y = x if (inplace and x is input) else torch.empty_like(x)
    n = x.numel()
    if n:
        _relu_kernel[(triton.cdiv(n, 1024),)](x, y, n, BLOCK=1024)
    if inplace:
        if y is not input:
            input.copy_(y)
        return input
    return y.view(input.shape)
