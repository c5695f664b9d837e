# CuPy reference timings of the jacobi_2d / heat_3d stencils (NPBench's CuPy versions) on device-resident
# arrays, next to bench/cuda/stencil_ptx_harness.cpp: python3 cupy_stencils.py jacobi_2d 2800 1000 5
import sys, time, numpy as np, cupy as cp
def jacobi_2d(T, A, B):
    for t in range(1, T):
        B[1:-1, 1:-1] = 0.2 * (A[1:-1, 1:-1] + A[1:-1, :-2] + A[1:-1, 2:] + A[2:, 1:-1] + A[:-2, 1:-1])
        A[1:-1, 1:-1] = 0.2 * (B[1:-1, 1:-1] + B[1:-1, :-2] + B[1:-1, 2:] + B[2:, 1:-1] + B[:-2, 1:-1])
def heat_3d(T, A, B):
    for t in range(1, T):
        B[1:-1, 1:-1, 1:-1] = (0.125 * (A[2:, 1:-1, 1:-1] - 2.0 * A[1:-1, 1:-1, 1:-1] + A[:-2, 1:-1, 1:-1]) +
                               0.125 * (A[1:-1, 2:, 1:-1] - 2.0 * A[1:-1, 1:-1, 1:-1] + A[1:-1, :-2, 1:-1]) +
                               0.125 * (A[1:-1, 1:-1, 2:] - 2.0 * A[1:-1, 1:-1, 1:-1] + A[1:-1, 1:-1, :-2]) + A[1:-1, 1:-1, 1:-1])
        A[1:-1, 1:-1, 1:-1] = (0.125 * (B[2:, 1:-1, 1:-1] - 2.0 * B[1:-1, 1:-1, 1:-1] + B[:-2, 1:-1, 1:-1]) +
                               0.125 * (B[1:-1, 2:, 1:-1] - 2.0 * B[1:-1, 1:-1, 1:-1] + B[1:-1, :-2, 1:-1]) +
                               0.125 * (B[1:-1, 1:-1, 2:] - 2.0 * B[1:-1, 1:-1, 1:-1] + B[1:-1, 1:-1, :-2]) + B[1:-1, 1:-1, 1:-1])
name, N, T, reps = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
f = jacobi_2d if name == 'jacobi_2d' else heat_3d
shape = (N, N) if name == 'jacobi_2d' else (N, N, N)
n = int(np.prod(shape)); i = np.arange(n)
A = cp.asarray(((7 * i + 3) % 17 / 17).reshape(shape)); B = A.copy()
f(3, A, B); cp.cuda.Device().synchronize()
ms = []
for _ in range(reps):
    t0 = time.perf_counter(); f(T, A, B); cp.cuda.Device().synchronize(); ms.append((time.perf_counter() - t0) * 1e3)
ms.sort()
print(f"CUPY {name} N={N} TSTEPS={T}: median {ms[len(ms)//2]:.3f} ms (min {ms[0]:.3f}, {reps} reps)")
