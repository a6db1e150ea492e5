"""The worker sandbox and the interpreter fixes, tested directly."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from fractions import Fraction

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
        os.listdir(other)
        seen.append("listdir=read")
    except PermissionError:
        seen.append("listdir=denied")
    import wave  # a module first imported after confinement still loads
    print(" ".join(seen))
""")


def test_confined_process_cannot_read_hidden_files(tmp_path):
    """With Landlock the worker's hidden paths (other jobs, the solutions, the dataset, ...) cannot
    be opened at all, by Python or native code; its own dir and everything else stay readable."""
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
    proc = subprocess.run([sys.executable, "-c", CONFINED_READ, str(job), str(other), str(secret), str(public)],
                          env={**os.environ, "PYTHONPATH": str(ROOT)}, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    level, seen = proc.stdout.split("\n", 1)
    assert level.endswith("+reads"), level
    assert seen.split() == ["own=read", "other=denied", "secret=denied", "public=read", "listdir=denied"]


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

    x = torch.randn(100, dtype=torch.bfloat16)
    y = torch.empty_like(x)
    k[(1,)](x, y, 100, BLOCK=128)
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
