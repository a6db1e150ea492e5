"""The worker sandbox and the interpreter fixes, tested directly."""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import textwrap
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
import torch

from conftest import ROOT
from harness.run.environment import worker_env
from harness.sandbox.confine import landlock_abi
from harness.sandbox.interpreter_compat import bf16_bits_to_f32, f32_to_bf16_bits, fma_float32

CONFINED_WRITE = textwrap.dedent("""
    import sys
    from pathlib import Path
    from harness.sandbox.confine import confine
    job, outside = Path(sys.argv[1]), Path(sys.argv[2])
    print(confine(job))
    (job / "inside.txt").write_text("ok")
    try:
        outside.write_text("tampered")
    except PermissionError:
        print("denied")
""")


@pytest.mark.parametrize("level", ["default", "audit"])
def test_confined_process_cannot_write_outside_its_dir(tmp_path, level):
    if level == "default" and landlock_abi() == 0:
        pytest.skip("kernel without Landlock: the audit-hook level is tested instead")
    job, outside = tmp_path / "job", tmp_path / "harness_file.py"
    job.mkdir()
    outside.write_text("original")
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    if level == "audit":
        env["KERNELBENCHX_SANDBOX"] = "audit"
    proc = subprocess.run([sys.executable, "-c", CONFINED_WRITE, str(job), str(outside)], env=env,
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    applied, verdict = proc.stdout.split()
    assert applied.startswith("landlock") if level == "default" else applied == "audit-hook"
    assert verdict == "denied"
    assert outside.read_text() == "original" and (job / "inside.txt").read_text() == "ok"


CONFINED_PRIVILEGES = textwrap.dedent("""
    import os, sys
    from pathlib import Path
    from harness.sandbox.confine import confine
    job = Path(sys.argv[1])
    print(confine(job))
    status = dict(line.split(":", 1) for line in open("/proc/self/status") if line.startswith("Cap"))
    print(" ".join(f"{k}={int(v, 16)}" for k, v in sorted(status.items()) if k in ("CapBnd", "CapEff", "CapPrm")))
    made = []
    for name, make in (("fifo", lambda: os.mkfifo(job / "fifo")), ("dir", lambda: os.mkdir(job / "dir")),
                       ("file", lambda: (job / "file").write_text("x"))):
        try:
            make()
            made.append(name + "=made")
        except PermissionError:
            made.append(name + "=denied")
    print(" ".join(made))
""")


def test_a_confined_worker_holds_no_capability_and_makes_only_folders_and_files(tmp_path):
    """A worker run as root kept root's capabilities: it set the immutable flag on files of its job
    directory (which then outlived the run) and made device nodes there. Confinement drops every
    capability, and Landlock lets the job directory take folders and regular files only (a FIFO's
    buffer is memory no limit counts)."""
    job = tmp_path / "job"
    job.mkdir()
    proc = subprocess.run([sys.executable, "-c", CONFINED_PRIVILEGES, str(job)], capture_output=True, text=True,
                          timeout=120, env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert proc.returncode == 0, proc.stderr
    level, caps, made = proc.stdout.strip().splitlines()
    assert caps == "CapBnd=0 CapEff=0 CapPrm=0", caps
    expected = "fifo=denied dir=made file=made" if level.startswith("landlock") else "fifo=made dir=made file=made"
    assert made == expected, (level, made)  # without Landlock (the audit-hook level) FIFOs are not refused


CONFINED_READ = textwrap.dedent("""
    import os, sys
    from pathlib import Path
    from harness.sandbox.confine import confine
    job, other, secret, public = (Path(a) for a in sys.argv[1:5])
    print(confine(job, hidden=[job.parent, secret.parent]))
    (job / "mine.txt").write_text("mine")
    seen = []
    for name, path in (("own", job / "mine.txt"), ("other", other / "answers.pt"), ("secret", secret),
                       ("public", public)):
        try:
            fd = os.open(path, os.O_RDONLY)  # the system call itself: what native code would do too
            os.close(fd)
            seen.append(name + "=read")
        except PermissionError:
            seen.append(name + "=denied")
    try:
        seen.append("listdir=" + ",".join(os.listdir(other)))  # names only: the file stays unreadable
    except PermissionError:
        seen.append("listdir=denied")
    import wave  # a module first imported after confinement still loads
    import beside_the_secret  # ...also from the sys.path directory that holds a hidden one
    print(" ".join(seen))
""")


@pytest.mark.parametrize("pipe_beside", [False, True], ids=["plain", "pipe-link-beside-the-scratch"])
def test_confined_process_cannot_read_hidden_files(tmp_path, pipe_beside):
    """With Landlock the worker's hidden paths (other jobs, the solutions, the dataset, ...) cannot
    be opened at all, by Python or native code, even inside a directory on ``sys.path`` (which
    stays listable for imports); its own dir and everything else stay readable. Also when the
    scratch lies beside a link to a pipe (a scratch under /dev/shm: /dev/stdin), which Landlock
    cannot take a rule for."""
    if landlock_abi() == 0:
        pytest.skip("kernel without Landlock: reads are refused by the guard only (tests/adversarial)")
    scratch = tmp_path / "scratch"
    job, other = scratch / "job-a", scratch / "job-b"
    data = tmp_path / "data"
    for folder in (job, other, data / "solutions"):
        folder.mkdir(parents=True)
    (other / "answers.pt").write_text("another job's outputs")
    secret = data / "solutions" / "relu.py"
    secret.write_text("a solution")
    public = tmp_path / "public.txt"
    public.write_text("anything else")
    (data / "beside_the_secret.py").write_text("")
    if pipe_beside:
        (tmp_path / "stdin").symlink_to("/proc/self/fd/0")
    proc = subprocess.run([sys.executable, "-c", CONFINED_READ, str(job), str(other), str(secret), str(public)],
                          env={**os.environ, "PYTHONPATH": f"{ROOT}:{data}"}, capture_output=True, text=True,
                          timeout=120, stdin=subprocess.PIPE)
    assert proc.returncode == 0, proc.stderr
    level, seen = proc.stdout.split("\n", 1)
    assert level.endswith("+reads"), level
    assert seen.split() == ["own=read", "other=denied", "secret=denied", "public=read", "listdir=answers.pt"]


def _nested_tree(root: Path) -> dict[str, Path]:
    """hidden ``a`` > visible ``a/b`` > hidden ``a/b/c`` > visible ``a/b/c/d``, a file at each level,
    a file beside them all, and links from the readable part into the hidden one and back."""
    a = root / "a"
    d = a / "b" / "c" / "d"
    d.mkdir(parents=True)
    files = {"a": a / "x.txt", "b": a / "b" / "y.txt", "c": a / "b" / "c" / "z.txt", "d": d / "w.txt",
             "b_sibling": a / "b" / "e" / "s.txt", "outside": root / "outside.txt"}
    for path in files.values():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("x")
    (a / "b" / "to_c").symlink_to(a / "b" / "c" / "z.txt")  # readable folder, hidden target
    (root / "to_d").symlink_to(d / "w.txt")  # readable folder, readable target in a hidden one
    return files | {"link_to_hidden": a / "b" / "to_c", "link_to_visible": root / "to_d"}


def _granted(path: Path, roots: list[Path]) -> bool:
    """Whether Landlock would let ``path`` be read under ``roots`` (a rule covers what lies beneath
    the object it was made for: a link's target)."""
    real = path.resolve()
    return any(real == r.resolve() or r.resolve() in real.parents for r in roots)


def test_readable_roots_the_deepest_entry_decides(tmp_path):
    """Hidden and visible entries nest either way (a checkout on sys.path inside the hidden temp
    dir, its task folder hidden inside it, a job directory inside that): the deepest entry that
    holds a path decides; a path in no entry is readable, one entry in both lists is hidden."""
    from harness.sandbox.confine import readable_roots
    files = _nested_tree(tmp_path)
    a = tmp_path / "a"
    roots, listable = readable_roots([a, a / "b" / "c"], [a / "b", a / "b" / "c" / "d"], top=tmp_path)
    readable = {name for name, path in files.items() if _granted(path, roots)}
    assert readable == {"b", "d", "b_sibling", "outside", "link_to_visible"}, readable
    # opened entry by entry: the folders holding both kinds, and no other
    assert set(listable) == {tmp_path, a, a / "b", a / "b" / "c"}, listable
    # a path in both lists is hidden (an output folder that is also a sys.path entry)
    roots, _ = readable_roots([a / "b"], [a / "b"], top=tmp_path)
    assert not _granted(files["b"], roots) and _granted(files["a"], roots)


CONFINED_NESTED = textwrap.dedent("""
    import os, sys
    from pathlib import Path
    from harness.sandbox.confine import confine
    root, job = Path(sys.argv[1]), Path(sys.argv[2])
    a = root / "a"
    print(confine(job, hidden=[a, a / "b" / "c"], visible=[a / "b", a / "b" / "c" / "d"]))
    seen = []
    for name in sys.argv[3:]:
        try:
            os.close(os.open(root / name, os.O_RDONLY))
            seen.append("read")
        except PermissionError:
            seen.append("denied")
    print(" ".join(seen))
""")


def test_confined_process_reads_by_the_deepest_entry(tmp_path):
    """The same nesting enforced by Landlock, for native code too."""
    if landlock_abi() == 0:
        pytest.skip("kernel without Landlock: reads are not restricted at the system level")
    files = _nested_tree(tmp_path / "tree")
    job = tmp_path / "job"
    job.mkdir()
    names = sorted(files)
    proc = subprocess.run([sys.executable, "-c", CONFINED_NESTED, str(tmp_path / "tree"), str(job),
                           *(str(files[n].relative_to(tmp_path / "tree")) for n in names)],
                          env={**os.environ, "PYTHONPATH": str(ROOT)}, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    level, seen = proc.stdout.splitlines()
    assert level.endswith("+reads"), level
    assert dict(zip(names, seen.split())) == {
        "a": "denied", "b": "read", "c": "denied", "d": "read", "b_sibling": "read", "outside": "read",
        "link_to_hidden": "denied", "link_to_visible": "read"}


def test_a_worker_hides_the_users_folders_but_not_its_imports():
    """The parent's list of the user's and other runs' folders (temp dir, home, ...) never holds a
    folder the system needs; the worker's import folders include every sys.path entry and the
    folder of an imported package, and leave out what lies in a protected folder."""
    from harness.run.environment import private_dirs
    from harness.sandbox.confine import needed_folders
    private = [Path(p) for p in private_dirs()]
    assert Path(tempfile.gettempdir()).resolve() in private
    assert not [p for p in private if p in Path("/usr/lib").parents], private  # "/" as a home is not hidden
    folders = needed_folders()
    assert Path(sys.prefix).resolve() in folders
    numpy_file = Path(np.__file__).resolve()
    assert any(f in numpy_file.parents for f in folders), folders
    torch_dir = Path(torch.__file__).resolve().parent
    assert not [f for f in needed_folders(outside=[torch_dir]) if f == torch_dir or torch_dir in f.parents]


def test_worker_env_drops_secrets(tmp_path, monkeypatch):
    monkeypatch.setenv("HF_TOKEN", "secret")
    monkeypatch.setenv("AWS_SECRET_ACCESS_KEY", "secret")
    env = worker_env(tmp_path, interpret=True, visible_device=None, pythonpath=str(ROOT))
    assert "HF_TOKEN" not in env and "AWS_SECRET_ACCESS_KEY" not in env
    assert env["TRITON_INTERPRET"] == "1" and env["HOME"].startswith(str(tmp_path))


def test_bf16_round_trip_is_round_to_nearest_even():
    values = torch.randn(1000, dtype=torch.float32) * 100
    ours = bf16_bits_to_f32(f32_to_bf16_bits(values.numpy()))
    assert np.array_equal(ours, values.to(torch.bfloat16).float().numpy())


BF16_KERNEL = textwrap.dedent("""
    import torch, triton, triton.language as tl
    from harness.sandbox.interpreter_compat import install
    install()

    @triton.jit
    def k(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
        offs = tl.arange(0, BLOCK)
        m = offs < n
        x = tl.load(x_ptr + offs, mask=m)          # bf16 arithmetic, no upcast
        y = tl.where(x > 0, x * 0.5 + x, -x)
        tl.store(y_ptr + offs, y, mask=m)

    @triton.jit
    def t(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
        offs = tl.arange(0, BLOCK)
        m = offs < n
        x = tl.load(x_ptr + offs, mask=m)
        tl.store(y_ptr + offs, tl.extra.cuda.libdevice.tanh(x), mask=m)

    @triton.jit
    def down(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
        offs = tl.arange(0, BLOCK)
        m = offs < n
        tl.store(y_ptr + offs, tl.load(x_ptr + offs, mask=m).to(tl.bfloat16), mask=m)

    @triton.jit
    def mm(a_ptr, b_ptr, c_ptr, N: tl.constexpr):
        i = tl.arange(0, N)
        a = tl.load(a_ptr + i[:, None] * N + i[None, :])    # bf16 operands straight into tl.dot
        b = tl.load(b_ptr + i[:, None] * N + i[None, :])
        tl.store(c_ptr + i[:, None] * N + i[None, :], tl.dot(a, b))

    x = torch.randn(100, dtype=torch.bfloat16)
    y = torch.empty_like(x)
    k[(1,)](x, y, 100, BLOCK=128)
    xf = torch.randn(1000) * 100
    yb = torch.empty(1000, dtype=torch.bfloat16)
    down[(1,)](xf, yb, 1000, BLOCK=1024)   # float32 -> bf16 rounds to nearest-even, as on a GPU
    assert torch.equal(yb, xf.to(torch.bfloat16)), (yb - xf.to(torch.bfloat16)).abs().max()
    a, b = torch.randn(16, 16, dtype=torch.bfloat16), torch.randn(16, 16, dtype=torch.bfloat16)
    c = torch.empty(16, 16)
    mm[(1,)](a, b, c, N=16)
    torch.testing.assert_close(c, a.double().matmul(b.double()).float(), rtol=1e-6, atol=1e-6)
    assert torch.equal(y, torch.where(x > 0, x * 0.5 + x, -x)), (y, x)
    xf = torch.randn(100)
    yf = torch.empty_like(xf)
    t[(1,)](xf, yf, 100, BLOCK=128)
    torch.testing.assert_close(yf, torch.tanh(xf))
    print("ok")
""")


def test_interpreter_bf16_arithmetic_and_libdevice():
    env = {**os.environ, "PYTHONPATH": str(ROOT), "TRITON_INTERPRET": "1"}
    proc = subprocess.run([sys.executable, "-c", BF16_KERNEL], env=env, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0 and proc.stdout.strip() == "ok", proc.stderr[-3000:]


def test_libdevice_functions_torch_names_otherwise_are_evaluated_as_cuda_defines_them():
    """libdevice functions with no torch function of their name, or with other rounding, are
    evaluated in CPU mode as CUDA defines them: round takes halves away from zero (torch.round
    to even, which rint and float2int_rn do), remainder is IEEE's, the Bessel functions, normcdf
    and the explicitly rounded conversions are found under their libdevice names."""
    import math

    from harness.sandbox.interpreter_compat import libdevice_torch_function as fn
    halves = torch.tensor([-2.5, -1.5, -0.5, 0.5, 1.5, 2.5, 0.4999, float("nan"), float("inf")])
    assert torch.equal(fn("__nv_roundf")(halves)[:7], torch.tensor([-3.0, -2.0, -1.0, 1.0, 2.0, 3.0, 0.0]))
    assert torch.equal(fn("__nv_rintf")(halves)[:7], torch.tensor([-2.0, -2.0, -0.0, 0.0, 2.0, 2.0, 0.0]))
    assert torch.equal(fn("__nv_float2int_rn")(halves)[:6], torch.tensor([-2.0, -2.0, -0.0, 0.0, 2.0, 2.0]))
    assert torch.equal(fn("__nv_float2int_rz")(halves)[:6], torch.tensor([-2.0, -1.0, -0.0, 0.0, 1.0, 2.0]))
    rounded = fn("__nv_roundf")(halves)
    assert math.isnan(rounded[7]) and rounded[8] == float("inf")
    x, y = torch.tensor([5.0, 7.0, -7.0]), torch.tensor([3.0, 2.0, 2.0])
    assert fn("__nv_remainderf")(x, y).tolist() == [math.remainder(a, b) for a, b in zip(x.tolist(), y.tolist())]
    t = torch.linspace(-3, 3, 13, dtype=torch.float64)
    assert torch.allclose(fn("__nv_normcdf")(t), torch.special.ndtr(t))
    assert torch.allclose(fn("__nv_j1f")(t), torch.special.bessel_j1(t))
    assert torch.allclose(fn("__nv_cyl_bessel_i0f")(t), torch.special.i0(t))
    assert torch.allclose(fn("__nv_erfcinvf")(torch.special.erfc(t)), t)
    # C's fmod exactly, for 16 values and more too (torch's vectorised CPU fmod gave NaN for these)
    big, tiny = torch.full((32,), 3e38), torch.full((32,), 1e-38)
    assert torch.equal(fn("__nv_fmodf")(big, tiny), torch.from_numpy(np.fmod(big.numpy(), tiny.numpy())))
    assert fn("__nv_frsqrt_rn")(torch.tensor([4.0])).item() == 0.5
    assert fn("__nv_finitef")(torch.tensor([1.0, float("inf"), float("nan")])).tolist() == [True, False, False]
    assert fn("__nv_logbf")(torch.tensor([8.0, 0.75, 0.0])).tolist() == [3.0, -1.0, -math.inf]
    assert fn("__nv_ilogbf")(torch.tensor([8.0, 0.75])).tolist() == [3, -1]
    assert fn("__nv_scalbnf")(torch.tensor([1.5]), torch.tensor([3])).tolist() == [12.0]
    assert fn("__nv_popc")(torch.tensor([0, 7, -1], dtype=torch.int32)).tolist() == [0, 3, 32]
    assert fn("__nv_not_a_libdevice_function") is None


def _float32_rounding_of(exact: Fraction) -> np.float32:
    """The float32 nearest to ``exact`` (ties to even), found by comparing exact distances."""
    guess = np.float32(float(exact))
    candidates = [guess, np.nextafter(guess, np.float32(np.inf)), np.nextafter(guess, np.float32(-np.inf))]
    return min(candidates, key=lambda v: (abs(Fraction(float(v)) - exact), int(v.view(np.uint32)) & 1))


def test_fma_float32_rounds_once():
    rng = np.random.default_rng(0)
    x = rng.standard_normal(3000).astype(np.float32)
    y = rng.standard_normal(3000).astype(np.float32)
    # z close to -x*y: the cancellation makes the product's low bits decide the result
    z = (-(x.astype(np.float64) * y)).astype(np.float32) * np.float32(1 + 2 ** -20)
    got = fma_float32(x, y, z)
    want = [_float32_rounding_of(Fraction(float(a)) * Fraction(float(b)) + Fraction(float(c))) for a, b, c in zip(x, y, z)]
    assert np.array_equal(got, np.array(want, dtype=np.float32))
    # The sum's float64 rounding lands exactly halfway between two float32 values, the exact sum
    # just below it: ties-to-even on the float64 value would round up, the fma rounds down.
    a, b, c = np.float32((1 + 2 ** -23) * 2 ** -12), np.float32((1 - 2 ** -23) * 2 ** -12), np.float32(1 + 2 ** -23)
    assert fma_float32(a, b, c) == np.float32(1 + 2 ** -23)
    assert np.float32(np.float64(a) * np.float64(b) + np.float64(c)) != np.float32(1 + 2 ** -23)


FMA_KERNEL = textwrap.dedent("""
    import torch, triton, triton.language as tl
    from harness.sandbox.interpreter_compat import install
    install()

    @triton.jit
    def k(x_ptr, y_ptr, z_ptr, out_ptr, n, BLOCK: tl.constexpr):
        offs = tl.arange(0, BLOCK)
        m = offs < n
        x = tl.load(x_ptr + offs, mask=m)
        y = tl.load(y_ptr + offs, mask=m)
        z = tl.load(z_ptr + offs, mask=m)
        tl.store(out_ptr + offs, tl.fma(x, y, z), mask=m)

    x = torch.tensor([1 + 2 ** -12, 3.0], dtype=torch.float32)
    z = torch.tensor([-(1 + 2 ** -11), -9.0], dtype=torch.float32)
    out = torch.empty_like(x)
    k[(1,)](x, x, z, out, 2, BLOCK=2)
    # fused: (1 + 2^-12)^2 - (1 + 2^-11) = 2^-24 exactly; two roundings give 0
    assert out.tolist() == [2 ** -24, 0.0], out.tolist()
    print("ok")
""")


def test_interpreter_fma_is_fused():
    env = {**os.environ, "PYTHONPATH": str(ROOT), "TRITON_INTERPRET": "1"}
    proc = subprocess.run([sys.executable, "-c", FMA_KERNEL], env=env, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0 and proc.stdout.strip() == "ok", proc.stderr[-3000:]


# Every spelling of libdevice a Triton 3.x kernel may use, in a module imported after install() (as
# the worker imports a submission after installing the fixes): a stub imported by name is bound then.
LIBDEVICE_MODULE = textwrap.dedent("""
    import triton
    import triton.language as tl
    from triton.language.extra import libdevice
    from triton.language.extra.libdevice import tanh as stub_tanh
    from triton.language.extra.cuda import libdevice as cuda_libdevice
    from triton.language.extra.cuda.libdevice import tanh as cuda_tanh
    try:
        from triton.language.extra.hip.libdevice import tanh as hip_tanh
    except ImportError:  # a Triton built without the AMD backend
        hip_tanh = cuda_tanh


    @triton.jit
    def kernel(x_ptr, y_ptr, SPELLING: tl.constexpr, BLOCK: tl.constexpr):
        offs = tl.arange(0, BLOCK)
        x = tl.load(x_ptr + offs)
        if SPELLING == 0:
            y = libdevice.tanh(x)
        elif SPELLING == 1:
            y = stub_tanh(x)
        elif SPELLING == 2:
            y = tl.extra.libdevice.tanh(x)
        elif SPELLING == 3:
            y = cuda_libdevice.tanh(x)
        elif SPELLING == 4:
            y = cuda_tanh(x)
        elif SPELLING == 5:
            y = tl.extra.cuda.libdevice.tanh(x)
        else:
            y = hip_tanh(x)
        tl.store(y_ptr + offs, y)


    @triton.jit
    def missing(x_ptr, BLOCK: tl.constexpr):
        x = tl.load(x_ptr + tl.arange(0, BLOCK))
        tl.store(x_ptr + tl.arange(0, BLOCK), libdevice.fast_tanhf(x))  # HIP's only: no CUDA function
""")
LIBDEVICE_SPELLINGS = textwrap.dedent("""
    import importlib.util, sys
    import torch
    from triton.runtime.errors import InterpreterError
    from harness.sandbox.interpreter_compat import install
    install()
    spec = importlib.util.spec_from_file_location("spellings", sys.argv[1])
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    x = torch.randn(1024) * 4
    for spelling in range(7):
        y = torch.empty_like(x)
        module.kernel[(1,)](x, y, SPELLING=spelling, BLOCK=1024)
        assert torch.equal(y, torch.tanh(x)), spelling   # the same numerics on every path
    try:
        module.missing[(1,)](x, BLOCK=1024)
    except InterpreterError as exc:   # as the GPU's compiler, which looks the name up in CUDA's module
        assert "has no attribute 'fast_tanhf'" in str(exc), exc
    else:
        raise AssertionError("a stub with no CUDA function ran")
    print("ok")
""")


def test_interpreter_libdevice_every_spelling(tmp_path):
    source = tmp_path / "spellings.py"
    source.write_text(LIBDEVICE_MODULE)
    env = {**os.environ, "PYTHONPATH": str(ROOT), "TRITON_INTERPRET": "1"}
    proc = subprocess.run([sys.executable, "-c", LIBDEVICE_SPELLINGS, str(source)], env=env, capture_output=True,
                          text=True, timeout=300)
    assert proc.returncode == 0 and proc.stdout.strip() == "ok", proc.stderr[-3000:]


def test_libdevice_symbols_of_both_backends_map_to_torch():
    from harness.sandbox.interpreter_compat import libdevice_torch_function
    assert libdevice_torch_function("__nv_tanhf") is libdevice_torch_function("__ocml_tanh_f32") is torch.tanh
    assert libdevice_torch_function("__nv_erf") is libdevice_torch_function("__ocml_erf_f64") is torch.special.erf
    assert libdevice_torch_function("__triton_hip_fast_expf") is torch.exp
    assert libdevice_torch_function("__triton_hip_iabs") is torch.abs


# The Triton tutorials' device query at import: with no GPU Triton finds no driver ("0 active
# drivers"); in interpreter mode the answer is the CPU, and every other query fails as before.
DRIVER_QUERIES = textwrap.dedent("""
    import torch, triton
    from harness.sandbox.interpreter_compat import install
    install()
    assert triton.runtime.driver.active.get_active_torch_device() == torch.device("cpu")
    try:
        triton.runtime.driver.active.get_current_target()
    except RuntimeError as exc:
        assert "active drivers" in str(exc), exc
    else:
        raise AssertionError("the interpreter was given a GPU target")
    print("ok")
""")


@pytest.mark.skipif(torch.cuda.is_available(), reason="with a GPU, Triton's own driver answers")
def test_interpreter_answers_the_active_torch_device():
    env = {**os.environ, "PYTHONPATH": str(ROOT), "TRITON_INTERPRET": "1"}
    proc = subprocess.run([sys.executable, "-c", DRIVER_QUERIES], env=env, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0 and proc.stdout.strip() == "ok", proc.stderr[-3000:]


RELU_SOURCE = (ROOT / "solutions" / "Activation" / "relu.py").read_text()
KERNEL_SELECT = "    y = tl.where(x < 0.0, 0.0, x)\n"
# The select moves into a @jit helper that reads a module-level ZERO: the kernel's own line and the
# helper's both take part in the error, as in a real compile failure.
WITH_GLOBAL = RELU_SOURCE.replace(KERNEL_SELECT, "    y = _clamp(x)\n").replace("\n\n@triton.jit\ndef _relu_kernel", """
ZERO = {zero}


@triton.jit
def _clamp(x):
    return tl.where(x < ZERO, ZERO, x)


@triton.jit
def _relu_kernel""", 1)


@pytest.mark.skipif(torch.cuda.is_available(), reason="the interpreter's rule; a GPU's compiler applies its own")
def test_interpreter_refuses_non_constexpr_globals_as_the_compiler_does(tmp_path):
    from conftest import load_metrics, run_cli, write_jsonl
    assert KERNEL_SELECT in RELU_SOURCE and "ZERO = {zero}" in WITH_GLOBAL, "the relu solution changed"
    rows = [{"file": "Activation/relu.py", "predict": WITH_GLOBAL.format(zero=z), "sample_id": i}
            for i, z in enumerate(["0.0", "tl.constexpr(0.0)"])]
    out = tmp_path / "out"
    run_cli("eval", str(write_jsonl(tmp_path / "p.jsonl", rows)), "--out", str(out), "-q")
    plain, constexpr = sorted(load_metrics(out), key=lambda m: m["sample_id"])
    assert constexpr["exe_ok"], constexpr["exe"]
    assert not plain["exe_ok"]
    failed = plain["exe"]["detail"] if plain["call_ok"] else plain["call"]["detail"]
    # the reason (the helper's global), not only the kernel line that called the helper
    assert "reads the global ZERO = 0.0" in failed and "tl.constexpr" in failed, failed


def test_an_error_report_keeps_the_innermost_reason():
    """A compiler error raised at a kernel's call of a failing helper names only the call site; the
    helper's own error, at the end of the chain, is what the author needs."""
    from harness.sandbox.worker import format_error
    try:
        try:
            raise NameError("helper reads a non-constexpr global")
        except NameError as inner:
            raise RuntimeError("at 3:8: y = helper(x)") from inner
    except RuntimeError as exc:
        text = format_error(exc, "<none>")
    assert "RuntimeError: at 3:8" in text and "caused by: NameError: helper reads a non-constexpr global" in text


def test_a_saved_call_with_far_more_tensors_than_the_reference_is_not_loaded(tmp_path):
    """The parent bounds what it rebuilds from a worker's file by the reference's tensor count:
    separate storages are counted before the archive is parsed, views of one buffer by the size of
    the pickled structure; an honest file loads."""
    from harness.bounded_io import UntrustedFileError, load_tensors
    from harness.invoke import CallRecord, saved_tensor_limit
    reference = CallRecord(torch.zeros(4), [torch.zeros(4)], {}, [None])
    limit = saved_tensor_limit(reference)
    base = torch.zeros(20_000)
    torch.save({"output": tuple(torch.tensor(1.0) for _ in range(2_000))}, tmp_path / "storages.pt")
    torch.save({"output": tuple(base[i] for i in range(20_000))}, tmp_path / "views.pt")
    torch.save({"output": torch.ones(4), "args_after": (torch.zeros(4),), "kwargs_after": {}, "aliases": [None]},
               tmp_path / "honest.pt")
    for name in ("storages.pt", "views.pt"):
        with pytest.raises(UntrustedFileError):
            load_tensors(tmp_path / name, 1 << 30, max_tensors=limit)
    assert load_tensors(tmp_path / "honest.pt", 1 << 30, max_tensors=limit)["output"].sum() == 4


def test_results_are_written_without_checksums_and_read_back_exactly(tmp_path):
    """The worker's writer skips torch.save's CRC-32 per record (a second per 512 MB of perf-size
    results), leaves the caller's CRC setting as it was, and the parent's bounded reader takes
    its archives: the values come back bit for bit."""
    from harness.bounded_io import load_tensors, save_tensors
    payload = {"output": torch.randn(1000), "args_after": (torch.arange(7),), "kwargs_after": {}, "aliases": [None]}
    before = torch.serialization.get_crc32_options()
    save_tensors(payload, tmp_path / "fast.pt")
    assert torch.serialization.get_crc32_options() == before
    import zipfile
    assert all(e.CRC == 0 for e in zipfile.ZipFile(tmp_path / "fast.pt").infolist() if "/data/" in e.filename)
    loaded = load_tensors(tmp_path / "fast.pt", 1 << 20, max_tensors=8)
    assert torch.equal(loaded["output"], payload["output"]) and torch.equal(loaded["args_after"][0], torch.arange(7))


def test_perf_results_are_mapped_from_the_opened_file_and_refused_like_any_worker_file(tmp_path):
    """The perf stage's results (no digest, no tensor cap) are mapped, not read twice, yet the same
    refusals hold: a symlink, a FIFO, a file over the cap, compressed entries, a pickle that claims
    more bytes than its storage has; an honest archive maps back bit for bit."""
    import os
    import zipfile
    from harness.bounded_io import UntrustedFileError, load_tensors, save_tensors
    honest = tmp_path / "honest.pt"
    save_tensors({"output": torch.arange(1000, dtype=torch.float32)}, honest)
    assert torch.equal(load_tensors(honest, 1 << 20)["output"], torch.arange(1000, dtype=torch.float32))
    (tmp_path / "link.pt").symlink_to(honest)
    os.mkfifo(tmp_path / "fifo.pt")
    torch.save({"output": torch.arange(1000, dtype=torch.float32)}, tmp_path / "checked.pt")  # CRCs: zipfile reads it
    with zipfile.ZipFile(tmp_path / "checked.pt") as src, zipfile.ZipFile(tmp_path / "deflated.pt", "w", zipfile.ZIP_DEFLATED) as dst:
        for info in src.infolist():
            dst.writestr(info.filename, src.read(info.filename))
    lying = tmp_path / "lying.pt"  # the pickle names a 1000-element tensor; its storage holds 300
    pickles = {}
    for n in (300, 1000):
        torch.save({"output": torch.zeros(n)}, tmp_path / f"{n}.pt")
        with zipfile.ZipFile(tmp_path / f"{n}.pt") as z:
            pickles[n] = z.read(next(name for name in z.namelist() if name.endswith("data.pkl")))
    assert len(pickles[300]) == len(pickles[1000])  # only the element count differs: patched in place
    save_tensors({"output": torch.zeros(300)}, tmp_path / "300.pt")  # no CRC to betray the patch
    data = bytearray((tmp_path / "300.pt").read_bytes())
    at = bytes(data).index(pickles[300])
    data[at:at + len(pickles[300])] = pickles[1000]
    lying.write_bytes(bytes(data))
    for name, limit in (("link.pt", 1 << 20), ("fifo.pt", 1 << 20), ("honest.pt", 100), ("deflated.pt", 1 << 20)):
        with pytest.raises(UntrustedFileError):
            load_tensors(tmp_path / name, limit)
    with pytest.raises(RuntimeError):  # torch refuses it; the judge turns that into the job's verdict
        load_tensors(lying, 1 << 20)["output"].sum()


def test_a_result_with_a_digest_is_loaded_from_a_private_copy_of_the_bytes_it_hashed(tmp_path, monkeypatch):
    """A file whose writer lives on (the perf judge's) is copied into memory of the reader's own and
    hashed as it is read: a wrong digest is refused, and rewriting the worker's file after the load
    changes nothing the judge holds. Where no memory-backed file can be made, the heap path gives
    the same answers."""
    import hashlib
    import os
    from harness import bounded_io
    from harness.bounded_io import UntrustedFileError, load_tensors, save_tensors
    path = tmp_path / "result.pt"
    values = torch.randn(3 * (1 << 20) + 5)  # spans several of the reader's pieces
    save_tensors({"output": values}, path)
    digest = hashlib.sha256(path.read_bytes()).hexdigest()
    for private_copies in (True, False):
        if not private_copies:
            monkeypatch.setattr(os, "memfd_create", lambda *a, **k: (_ for _ in ()).throw(OSError(38, "no memfd")))
        loaded = load_tensors(path, 1 << 26, sha256=digest)["output"]
        save_tensors({"output": torch.zeros_like(values)}, path)  # the worker rewrites its file
        assert torch.equal(loaded, values), private_copies
        with pytest.raises(UntrustedFileError, match="SHA-256 differs"):
            load_tensors(path, 1 << 26, sha256=digest)
        save_tensors({"output": values}, path)
    with pytest.raises(UntrustedFileError):
        load_tensors(path, 1 << 10, sha256=digest)  # over the cap
    assert bounded_io._count(b"xPKPK\x01\x02PK\x01\x02", b"PK\x01\x02") == 2


def test_a_record_is_read_without_running_code_of_the_values_it_holds():
    """Saving a call's record reads exact built-in types only: a tensor subclass is refused before
    any of its methods runs, containers are read with the built-in iterators, other objects become
    placeholders (subclasses of lists too: neither their iterators nor their repr is called), a
    tuple of any class (a namedtuple result, like torch.min's) is read as a tuple with tuple's own
    iterator, and a result with too many values is an error."""
    from collections import namedtuple
    from harness.invoke import CallRecord, ForeignValue, TooManyValues
    ran = []

    class Sub(torch.Tensor):
        def detach(self):
            ran.append("detach")
            return super().detach()

    class Liar(list):
        def __iter__(self):
            ran.append("iter")
            return iter([])

    class Loud:
        def __repr__(self):
            ran.append("repr")
            return "loud"

    class MinResult(namedtuple("MinResult", ["values", "indices"])):
        def __iter__(self):
            ran.append("namedtuple iter")
            return iter(())

    record = CallRecord((torch.ones(2), [torch.zeros(1)], Liar([torch.zeros(1)]), Loud(),
                         MinResult(torch.ones(3), torch.zeros(3, dtype=torch.long))), [], {}, [])
    payload = record.to_payload()
    assert payload["output"][1][0].shape == (1,)
    assert payload["output"][2:4] == ("<a value of type Liar>", "<a value of type Loud>")
    values, indices = payload["output"][4]
    assert type(payload["output"][4]) is tuple and values.shape == (3,) and indices.dtype == torch.long
    with pytest.raises(ForeignValue):
        CallRecord(torch.ones(2).as_subclass(Sub), [], {}, []).to_payload()
    with pytest.raises(TooManyValues):
        CallRecord(tuple(range(20_000)), [], {}, []).to_payload()
    assert ran == []


def test_globals_named_only_in_a_kernels_decorators_or_defaults_are_not_kernel_globals():
    """``@triton.autotune(configs=CONFIGS)`` names a module global outside the kernel's body: the
    compiler never sees it; an argument's default (``BLOCK: tl.constexpr = DEFAULT_BLOCK``) may be
    any global (the compiler reads defaults with that rule off). The interpreter's rule must not
    refuse either."""
    import triton
    import triton.language as tl

    from harness.sandbox.native_rules import non_constexpr_globals
    namespace: dict = {}
    source = textwrap.dedent("""
        import triton
        import triton.language as tl
        CONFIGS = [triton.Config({"BLOCK": 64})]
        SCALE = 2.0
        DEFAULT_WIDTH = 16
        @triton.autotune(configs=CONFIGS, key=[])
        @triton.jit
        def kernel(x_ptr, BLOCK: tl.constexpr, WIDTH: tl.constexpr = DEFAULT_WIDTH):
            tl.store(x_ptr + tl.arange(0, BLOCK), SCALE)
    """)
    path = Path(tempfile.mkdtemp()) / "decorated.py"  # inspect.getsource reads the file
    path.write_text(source)
    exec(compile(source, str(path), "exec"), namespace)
    fn = namespace["kernel"].fn.fn  # Autotuner -> JITFunction -> the Python function
    names = [name for name, _ in non_constexpr_globals(fn, tl, (triton.runtime.jit.JITFunction,))]
    assert names == ["SCALE"]  # the body's global only


def test_no_verdict_is_given_about_code_the_worker_did_not_import(monkeypatch):
    """Each worker reports the SHA-256 of the submission file it is about to import; a job whose
    worker imported other bytes than the job's code (here: the spawn is handed a wrong variant)
    gets a harness error naming that, not the other code's verdict, and an honest job is judged."""
    import dataclasses

    from harness.api import evaluate_code
    from harness.run.runner import Evaluator
    relu = (ROOT / "solutions" / "Activation" / "relu.py").read_text()
    wrong = relu.replace("mask = offsets < n_elements", "mask = offsets < n_elements - 1")
    spawn = Evaluator._spawn_worker

    def other_code(self, job, *args, **kwargs):
        return spawn(self, dataclasses.replace(job, code=wrong), *args, **kwargs)

    monkeypatch.setattr(Evaluator, "_spawn_worker", other_code)
    _, results = evaluate_code([relu], ["Activation/relu.py"], mode="interpreter", perf=False, workers=1)
    swapped = results[0][0]
    assert swapped.call.status == "harness_error" and "other code than the job's" in swapped.call.detail
    monkeypatch.undo()
    _, results = evaluate_code([relu], ["Activation/relu.py"], mode="interpreter", perf=False, workers=1)
    assert results[0][0].correct


def test_on_a_gpu_a_kernel_may_take_device_tensors_only(tmp_path):
    """A pinned host tensor is addressable from a GPU kernel: copy kernels around host code would
    do the work on the host, seen by no monitor. So on a GPU every tensor argument must be a device
    tensor; in the interpreter (CPU mode) tensors live on the host and are all allowed."""
    from harness.sandbox.launch_check import LaunchCheck, LaunchRefused
    submission = tmp_path / "submission.py"
    submission.write_text("")
    host = torch.zeros(4)
    LaunchCheck(str(submission))._argument(host)  # CPU mode
    on_gpu = LaunchCheck(str(submission), device_tensors_only=True)
    on_gpu._argument(3)
    with pytest.raises(LaunchRefused, match="tensor in host memory"):
        on_gpu._argument(host)
    with pytest.raises(LaunchRefused, match="tensor in host memory"):
        on_gpu._argument([1, (2, host)])  # inside a tuple argument too
    if torch.cuda.is_available():
        on_gpu._argument(torch.zeros(4, device="cuda"))


def test_launches_facts_are_recorded_for_the_op_monitor_when_asked(tmp_path):
    """In a task whose outputs copies alone could make, the launch check counts, from the start of
    a watched call until the op monitor takes them, the bytes of the storages its launches take
    that the monitor does not know as the call's (judged at the launch, each storage once), and
    the numbers the launches pass (in tuples and lists too, a string's characters eight to a
    number): past MAX_KERNEL_ARGUMENT_NUMBERS a launch is refused (logspace_tuple_args.py).
    Between watched calls (timed repetitions) and in other tasks nothing is recorded."""
    import numpy

    from harness.sandbox.launch_check import LaunchCheck, LaunchRefused
    submission = tmp_path / "submission.py"
    submission.write_text("")
    x, y = torch.zeros(8), torch.zeros(16)
    known_storage = x.untyped_storage()._cdata
    recording = LaunchCheck(str(submission), record_launches=True)
    arguments = (x, 3, 2.5, (1, 2, [3, y[4:]]), "abcdefghij", numpy.int64(7))  # with the kwargs: 10 numbers
    recording.start_recording(lambda storage: storage == known_storage)
    recording.check(None, arguments, {"BLOCK": 64, "grid": (4,)})
    recording.check(None, arguments, {"BLOCK": 64, "grid": (4,)})
    assert recording.take_launch_facts() == 64  # y's storage, counted once; x's known
    for _ in range(LaunchCheck.MAX_KERNEL_ARGUMENT_NUMBERS):  # not watched (timed): not recorded
        recording.check(None, arguments, {"BLOCK": 64, "grid": (4,)})
    assert recording.take_launch_facts() == 0
    recording.start_recording(lambda storage: True)
    for _ in range(LaunchCheck.MAX_KERNEL_ARGUMENT_NUMBERS // 10):
        recording.check(None, arguments, {"BLOCK": 64, "grid": (4,)})
    with pytest.raises(LaunchRefused, match="numbers passed to kernels in one call"):
        recording.check(None, arguments, {"BLOCK": 64, "grid": (4,)})
    recording.start_recording(lambda storage: True)
    recording.check(None, arguments, {"BLOCK": 64, "grid": (4,)})  # counted afresh in the next call
    quiet = LaunchCheck(str(submission))
    quiet.start_recording(lambda storage: False)
    for _ in range(LaunchCheck.MAX_KERNEL_ARGUMENT_NUMBERS):
        quiet.check(None, (x, 3, 4), {})
    assert quiet.take_launch_facts() == 0


def test_autotuners_are_found_wherever_the_module_keeps_them_and_the_walk_is_bounded():
    """find_autotuners walks the module's own objects (containers, closures, defaults, classes and
    their instances, partials), not a library's (torch's module graph would take seconds), and a
    graph of the submission's larger than the walk's bound costs only the bound."""
    import functools
    import time
    import types

    import triton
    import triton.language as tl

    from harness.sandbox.autotune import find_autotuners

    @triton.jit
    def kernel(x_ptr, BLOCK: tl.constexpr):
        pass

    def tuned():
        return triton.autotune(configs=[triton.Config({"BLOCK": 64}), triton.Config({"BLOCK": 128})], key=[])(kernel)

    module = types.ModuleType("submission_under_test")
    hidden = {name: tuned() for name in ("list", "closure", "default", "class", "instance", "partial", "global")}

    def in_closure():
        return hidden["closure"]
    in_closure = types.FunctionType(in_closure.__code__, {}, "in_closure", None, in_closure.__closure__)

    def with_default(k=hidden["default"]):
        return k
    for f in (in_closure, with_default):
        f.__module__ = module.__name__
    holder = type("Holder", (), {"__module__": module.__name__, "kept": {"deep": [(hidden["class"],)]}})
    instance = holder()
    instance.own = hidden["instance"]
    module.__dict__.update(
        listed=[[hidden["list"]]], in_closure=in_closure, with_default=with_default, Holder=holder, obj=instance,
        bound=functools.partial(print, hidden["partial"]), direct=triton.heuristics({"BLOCK": lambda a: 64})(hidden["global"]),
        torch=torch, big=[list(range(1000)) for _ in range(1000)])
    started = time.perf_counter()
    found = find_autotuners(module)
    took = time.perf_counter() - started
    assert {id(a) for a in found} == {id(a) for a in hidden.values()}, sorted(k for k, a in hidden.items() if a not in found)
    assert took < 2.0, took


def test_an_autotuner_first_launched_in_a_pass_is_pinned_then_and_restored_after():
    """AutotunePins: one the walk did not find is pinned at its first launch in a pass (and from the
    start of every later pass), adds its configs' passes, and tunes freely again after the pass;
    outside a pass, or when it is not Triton's own class holding plain configs, nothing is pinned
    (pinning it would run the submission's code inside the guard's hook)."""
    import triton
    import triton.language as tl

    from harness.sandbox.autotune import AutotunePins

    @triton.jit
    def kernel(x_ptr, BLOCK: tl.constexpr):
        pass

    configs = [triton.Config({"BLOCK": b}) for b in (32, 64, 128)]
    found, built = (triton.autotune(configs=list(configs[:2]), key=[])(kernel) for _ in range(2))
    built.configs = list(configs)
    pins = AutotunePins()
    pins.add([found])
    pins.launched(built)                       # outside a pass: left alone
    assert pins.config_count() == 2 and len(built.configs) == 3
    with pins.pinned(1) as pinned:
        assert [c.kwargs for c in found.configs] == [{"BLOCK": 64}] and len(built.configs) == 3
        pinned.launched(built)
        assert [c.kwargs for c in built.configs] == [{"BLOCK": 64}]
        assert "kernel[BLOCK=64" in pinned.describe() and pins.config_count() == 3
    assert len(found.configs) == 2 and len(built.configs) == 3   # restored
    with pins.pinned(2):                       # known now: pinned from the pass's start
        assert [c.kwargs for c in built.configs] == [{"BLOCK": 128}]

    class Own(type(built)):
        pass
    odd = triton.autotune(configs=list(configs), key=[])(kernel)
    odd.__class__ = Own
    shaped = triton.autotune(configs=list(configs), key=[])(kernel)
    shaped.configs = [triton.Config(_Mapping({"BLOCK": 8}))] * 2
    with pins.pinned(1) as pinned:
        pinned.launched(odd)
        pinned.launched(shaped)
    assert len(odd.configs) == 3 and pins.config_count() == 3


class _Mapping(dict):
    """A config's kwargs of the submission's own type: reading them would run its code."""


GRIDS = """
import triton


def blocks(count, meta):
    return (triton.cdiv(count, meta["BLOCK"]),)


class Blocks:
    def __init__(self, count):
        self.count = count

    def __call__(self, meta):
        return (triton.cdiv(self.count, meta["BLOCK"]),)
"""


def test_a_partial_or_an_instance_as_grid_is_called_as_it_was_judged(tmp_path):
    """A functools.partial of the submission's function, or an instance of its class, may be the
    grid (Triton calls it back, and it runs the submission's own frame); Triton is handed what was
    judged, so a pre-run hook that changes the partial (``__setstate__``) or the class's ``__call__``
    after the check changes nothing Triton calls. A partial of a builtin stays refused."""
    import functools
    import importlib.util
    from harness.sandbox.launch_check import LaunchCheck, LaunchRefused
    submission = tmp_path / "submission.py"
    submission.write_text(GRIDS)
    spec = importlib.util.spec_from_file_location("grids_under_test", submission)
    grids = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(grids)
    check = LaunchCheck(str(submission))

    given = functools.partial(grids.blocks, 8)
    kwargs = {"grid": given}
    check.check(None, (), kwargs)
    judged = kwargs["grid"]
    given.__setstate__((len, ("swapped",), {}, None))
    assert judged is not given and judged({"BLOCK": 4}) == (2,)

    instance = grids.Blocks(8)
    kwargs = {"grid": instance}
    check.check(None, (), kwargs)
    judged = kwargs["grid"]
    grids.Blocks.__call__ = lambda self, meta: (99,)
    assert judged({"BLOCK": 4}) == (2,) and instance({"BLOCK": 4}) == (99,)

    for builtin in (functools.partial(len), functools.partial(functools.partial(print))):
        with pytest.raises(LaunchRefused, match="not a Python function of the submission's file"):
            check.check(None, (), {"grid": builtin})


def test_a_stage_output_taken_from_a_file_is_refused(tmp_path):
    """Triton's ``ir_override`` replaces a compile stage's output with a file's (IR, PTX, a cubin):
    the kernel would run code not compiled from its Triton source. Refused as a launch keyword, as a
    config's attribute, and on a compiled kernel whose options carried it; so is a compiled kernel
    made from IR rather than a Triton function (``triton.compile("kernel.ptx")``)."""
    from collections import namedtuple

    import triton
    from harness.sandbox.integrity import _not_from_triton_source
    from harness.sandbox.launch_check import LaunchCheck, LaunchRefused
    submission = tmp_path / "submission.py"
    submission.write_text("")
    check = LaunchCheck(str(submission))
    check.check(None, (), {"grid": (1,)})
    with pytest.raises(LaunchRefused, match="ir_override"):
        check.check(None, (), {"grid": (1,), "ir_override": "kernel.cubin"})

    class Tuned:  # what the check reads of an autotuner: its configs
        configs = None

    tuned = Tuned()
    tuned.configs = [triton.Config({"BLOCK": 64})]
    check.check(tuned, (), {"grid": (1,)})
    tuned.configs = [triton.Config({"BLOCK": 64}, ir_override="kernel.ptx")]
    with pytest.raises(LaunchRefused, match="ir_override"):
        check.check(tuned, (), {"grid": (1,)})

    # a compiled kernel (triton.compile's): from a Triton function, not from IR or with a stage overridden
    from triton.compiler import ASTSource
    Metadata = namedtuple("Metadata", ["name", "ir_override"])
    compiled = Tuned()
    compiled.src = ASTSource.__new__(ASTSource)
    compiled.metadata = Metadata("k", None)
    assert _not_from_triton_source(compiled, ASTSource) is None
    compiled.metadata = Metadata("k", "kernel.cubin")
    assert "ir_override" in _not_from_triton_source(compiled, ASTSource)
    compiled.src, compiled.metadata = "kernel.ptx", Metadata("k", None)
    assert "compiled from IR" in _not_from_triton_source(compiled, ASTSource)
