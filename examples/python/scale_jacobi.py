#!/usr/bin/env python3
"""The common libdace example, in Python: B = A * 2 + 1 over a parallel map, then a 2-D Jacobi
time loop, both built with the builder API, run with NumPy arrays and checked against NumPy.
Exit status 0 = both results match."""

import sys

import numpy as np

import libdace
from libdace import Memlet


def build_scale():
    sdfg = libdace.SDFG("scale")
    sdfg.add_symbol("N")
    sdfg.add_array("A", ["N"], libdace.float64)
    sdfg.add_array("B", ["N"], libdace.float64)
    state = sdfg.add_state("scale")
    state.add_mapped_tasklet("scale", {"i": "0:N"}, {"a": Memlet("A[i]")}, "b = a * 2 + 1",
                             {"b": Memlet("B[i]")}, external_edges=True,
                             schedule=libdace.ScheduleType.CPU_Multicore)
    return sdfg


def add_sweep(state, src, dst):
    """dst[1:N-1, 1:N-1] = 0.2 * (5-point neighbourhood of src), node by node."""
    read, write = state.add_read(src), state.add_write(dst)
    entry, exit_ = state.add_map("sweep", {"i": "1:N-1", "j": "1:N-1"},
                                 schedule=libdace.ScheduleType.CPU_Multicore)
    tasklet = state.add_tasklet("stencil", {"c", "n", "s", "w", "e"}, {"o"}, "o = 0.2 * (c + n + s + w + e)")
    state.add_edge(read, None, entry, "IN_1", Memlet(f"{src}[0:N, 0:N]"))
    for conn, offset in [("c", "i, j"), ("n", "i - 1, j"), ("s", "i + 1, j"), ("w", "i, j - 1"), ("e", "i, j + 1")]:
        state.add_edge(entry, "OUT_1", tasklet, conn, Memlet(f"{src}[{offset}]"))
    state.add_edge(tasklet, "o", exit_, "IN_1", Memlet(f"{dst}[i, j]"))
    state.add_edge(exit_, "OUT_1", write, None, Memlet(f"{dst}[1:N-1, 1:N-1]"))


def build_jacobi():
    sdfg = libdace.SDFG("jacobi_2d")
    sdfg.add_symbol("N")
    sdfg.add_symbol("TSTEPS")
    sdfg.add_array("A", ["N", "N"], libdace.float64)
    sdfg.add_array("B", ["N", "N"], libdace.float64)
    time_loop = sdfg.add_for("t", 0, "TSTEPS", label="time")
    a_to_b = time_loop.add_state("a_to_b")
    b_to_a = time_loop.add_state("b_to_a")
    time_loop.add_edge(a_to_b, b_to_a)
    add_sweep(a_to_b, "A", "B")
    add_sweep(b_to_a, "B", "A")
    return sdfg


def jacobi_reference(a, b, steps):
    a, b = a.copy(), b.copy()
    for _ in range(steps):
        b[1:-1, 1:-1] = 0.2 * (a[1:-1, 1:-1] + a[:-2, 1:-1] + a[2:, 1:-1] + a[1:-1, :-2] + a[1:-1, 2:])
        a[1:-1, 1:-1] = 0.2 * (b[1:-1, 1:-1] + b[:-2, 1:-1] + b[2:, 1:-1] + b[1:-1, :-2] + b[1:-1, 2:])
    return a, b


def main():
    ok = True
    with build_scale() as sdfg, sdfg.compile() as scale:
        a = np.linspace(-1.0, 1.0, 1000)
        b = np.empty_like(a)
        scale(A=a, B=b)
        good = np.allclose(b, a * 2 + 1, rtol=0, atol=1e-12)
        print(f"scale: {'ok' if good else 'MISMATCH'}")
        ok &= good

    n, steps = 40, 25
    i, j = np.meshgrid(np.arange(n), np.arange(n), indexing="ij")
    a0 = (i * (j + 2) + 2) / n
    b0 = (i * (j + 3) + 3) / n
    with build_jacobi() as sdfg:
        sdfg.validate()
        with sdfg.compile() as jacobi:
            a, b = a0.copy(), b0.copy()
            jacobi(A=a, B=b, TSTEPS=steps)
            ra, rb = jacobi_reference(a0, b0, steps)
            good = np.allclose(a, ra, rtol=1e-12, atol=1e-12) and np.allclose(b, rb, rtol=1e-12, atol=1e-12)
            print(f"jacobi_2d: {'ok' if good else 'MISMATCH'} (N={n}, TSTEPS={steps})")
            ok &= good
            # The same program on Fortran-order arrays (one specialized compile, no copies).
            af, bf = np.asfortranarray(a0), np.asfortranarray(b0)
            jacobi(A=af, B=bf, TSTEPS=steps)
            good = np.allclose(af, ra, rtol=1e-12, atol=1e-12)
            print(f"jacobi_2d Fortran order: {'ok' if good else 'MISMATCH'}")
            ok &= good
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
