# native LU diagnostics: reconstruction error by size, and where pivots first diverge from LAPACK's
import importlib.util, sys, torch
spec = importlib.util.spec_from_file_location("lu", "solutions/LinearAlgebra/lu.py")
m = importlib.util.module_from_spec(spec); spec.loader.exec_module(m)
for dt in (torch.float64, torch.float32):
    for n in (48, 64, 96, 128, 192, 256, 512, 1024):
        torch.manual_seed(0)
        A = torch.randn(n, n, dtype=dt, device="cuda")
        P, L, U = m.lu(A)
        err = ((P @ L @ U - A).norm() / A.norm()).item()
        W, piv = m._lu_factor(A, True)
        LUr, pivr = torch.linalg.lu_factor(A.cpu().double())
        d = (piv.cpu()[0].long() + 1 != pivr.long()).nonzero()
        first = int(d[0]) if len(d) else -1
        # no-pivot path on a diagonally dominant matrix
        B = A + n * torch.eye(n, dtype=dt, device="cuda")
        P2, L2, U2 = m.lu(B, pivot=False)
        err2 = ((L2 @ U2 - B).norm() / B.norm()).item()
        Wd = (W[0].double().cpu() - LUr).abs()
        bad = (Wd > 1e-3 * LUr.abs().max()).nonzero()
        print(dt, n, f"err {err:.2e}", "first pivot diff", first, f"nopivot err {err2:.2e}",
              "first W diff", bad[0].tolist() if len(bad) else None, flush=True)
