"""The linear-algebra checks' singular values: the same values wherever they are computed, and
computed on the host for what cuSOLVER does slowly (harness/linalg_checks.py HOST_SVD_MAX_N), on one
thread (HOST_SVD_THREADS)."""

import threading

import pytest
import torch

from harness import linalg_checks
from harness.linalg_checks import (HOST_SVD_BATCHED_MIN_N, HOST_SVD_MAX_N, HOST_SVD_THREADS, backward_bound, cond2,
                                   host_svd_shape, singular_values, svd_on_host)


def test_singular_values_are_float64_svdvals_of_each_matrix():
    g = torch.Generator().manual_seed(0)
    a = torch.randn(3, 5, 4, generator=g)
    s = singular_values(a)
    assert s.dtype == torch.float64 and s.shape == (3, 4)
    assert torch.equal(s, torch.linalg.svdvals(a.double()))
    z = torch.randn(6, 6, generator=g, dtype=torch.complex64)
    assert torch.equal(singular_values(z), torch.linalg.svdvals(z.to(torch.complex128)))


def test_batches_and_small_matrices_have_the_host_shape_large_single_matrices_and_tiny_batches_not():
    n, m = HOST_SVD_MAX_N, HOST_SVD_BATCHED_MIN_N
    assert host_svd_shape((2, n + 1, n + 1)) and host_svd_shape((4, 1, m, 8)) and host_svd_shape((2, 8, m))
    assert host_svd_shape((n, n)) and host_svd_shape((1, n, 16)) and host_svd_shape((4, 4))
    assert not host_svd_shape((n + 1, n + 1)) and not host_svd_shape((1, 1, 8, n + 1))
    assert not host_svd_shape((16384, 16, 16)) and not host_svd_shape((2, m - 1, m - 1))


def test_tensors_off_the_gpu_stay_where_they_are():
    assert not svd_on_host(torch.empty(8, 4, 4)) and not svd_on_host(torch.empty(3, 3, device="meta"))


def test_the_host_svd_runs_on_its_own_thread_count_one_at_a_time_and_gives_the_threads_back(monkeypatch):
    # Concurrent judges each running LAPACK on every core waited minutes at OpenMP barriers on the
    # H200 (benchmarks/results/2026-12-04-h200-host-svd): the host SVD must run on HOST_SVD_THREADS,
    # never two at once in a process, and leave the process's thread count as it found it.
    seen, active, overlap = [], [0], []
    real = torch.linalg.svdvals

    def recording(w):
        active[0] += 1
        overlap.append(active[0])
        seen.append(torch.get_num_threads())
        threading.Event().wait(0.05)  # long enough for the other thread to arrive if it is not held
        active[0] -= 1
        if w.shape[-1] == 3:
            raise RuntimeError("LAPACK failed")
        return real(w)

    monkeypatch.setattr(torch.linalg, "svdvals", recording)
    before = torch.get_num_threads()
    torch.set_num_threads(HOST_SVD_THREADS + 1)
    try:
        a = torch.randn(4, 40, 40, dtype=torch.float64)
        workers = [threading.Thread(target=linalg_checks._host_svdvals, args=(a,)) for _ in range(2)]
        for t in workers:
            t.start()
        for t in workers:
            t.join()
        with pytest.raises(RuntimeError, match="LAPACK failed"):
            linalg_checks._host_svdvals(torch.eye(3, dtype=torch.float64))
        assert torch.get_num_threads() == HOST_SVD_THREADS + 1
    finally:
        torch.set_num_threads(before)
    assert seen == [HOST_SVD_THREADS] * 3 and max(overlap) == 1


@pytest.mark.gpu
def test_on_a_gpu_batches_and_small_matrices_go_to_the_host_with_the_same_values():
    g = torch.Generator(device="cuda").manual_seed(0)
    small = torch.randn(256, 64, 64, generator=g, device="cuda", dtype=torch.float64)
    one = torch.randn(HOST_SVD_MAX_N, HOST_SVD_MAX_N, generator=g, device="cuda", dtype=torch.float64)
    big = torch.empty(1, HOST_SVD_MAX_N + 1, HOST_SVD_MAX_N + 1, device="cuda")
    tiny = torch.empty(64, 16, 16, device="cuda")
    assert svd_on_host(small) and svd_on_host(one) and not svd_on_host(big) and not svd_on_host(tiny)
    assert not svd_on_host(torch.empty(1, 1, HOST_SVD_MAX_N + 1, 8, device="cuda"))  # a batch of one
    for a in (small, one[:512, :512]):
        s = singular_values(a)
        assert s.is_cuda and s.dtype == torch.float64
        device_s = torch.linalg.svdvals(a)
        # both backward stable, so each value is within the checks' own backward bound (16 max(n, 16) u)
        # of sigma_max from the other's (measured on the H200: 0.02 of it at n = 512)
        err = ((s - device_s).abs() / device_s[..., :1]).max().item()
        assert err <= backward_bound(a.shape[-1], torch.float64), err
    assert torch.allclose(cond2(small), torch.linalg.cond(small), rtol=1e-9)
