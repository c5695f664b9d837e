"""Writes small DaCe-written SDFGs, one per class of construct that libdace's validation once
rejected although DaCe accepts it, or that compilation must refuse with a clear status.

Run with DaCe 1.0.2 (scripts/setup.sh puts it in .venv-dace):
    .venv-dace/bin/python tests/data/dace_written/generate.py
Writes <program>.<variant>.sdfgz (gzip) next to this script: raw (frontend output), simp (DaCe's
simplify) and, where listed, opt (DaCe's auto_optimize for CPU). Every file must load, validate
and round-trip in libdace (tests/unit/validate_dace_written_test.cpp); DaCe validates each one
here before it is written, so the files are exactly what DaCe accepts.
"""
import os
import sys

import numpy as np

import dace
from dace.transformation.auto.auto_optimize import auto_optimize

HERE = os.path.dirname(os.path.abspath(__file__))
N = dace.symbol('N')
M = dace.symbol('M')
PROGRAMS = []


def program(variants):
    """Registers a program with the SDFG variants to write."""

    def register(p):
        PROGRAMS.append((p, variants))
        return p

    return register


# Struct element type: DaCe lowers argmax/argmin to a reduction over `_val_and_idx` structs,
# built with a keyword constructor, read by attribute (`__inp.idx`) and combined by a WCR
# lambda that returns a struct.
@program(('raw', 'simp', 'opt'))
@dace.program
def argmax_struct(A: dace.float64[N, M], imax: dace.int64[N], imin: dace.int64[M]):
    imax[:] = np.argmax(A, axis=1)
    imin[:] = np.argmin(A, axis=0)


# Python callback: DaCe has no replacement for np.any and falls back to the interpreter; the
# call is a side-effect tasklet and `numpy_any` a symbol of type "callback".
@program(('raw', 'simp'))
@dace.program
def callback_any(A: dace.float64[N], out: dace.bool_[1]):
    out[0] = np.any(A > 0.5)


# Reductions to size-1 results: after auto_optimize the Reduce expansion maps a one-point
# range (`__i = 0:0`) over the size-1 output dimension; the reshape adds a size-1 axis.
@program(('raw', 'simp', 'opt'))
@dace.program
def reduce_unit_axis(A: dace.float64[N, M], B: dace.float64[N, 1], C: dace.float64[1]):
    B[:] = np.reshape(np.sum(A, axis=1), (N, 1))
    C[0] = np.sum(A)


# Nested SDFG from a nested program call; the callee's containers are declared in the nested
# SDFG and connected from outside, and its loop reads them on interstate edges.
@dace.program
def scale_until(x: dace.float64[N], lim: dace.float64[1]):
    while x[0] < lim[0]:
        x[:] = x * 2.0


@program(('raw', 'simp'))
@dace.program
def nested_interstate(A: dace.float64[N], lim: dace.float64[1]):
    scale_until(A, lim)


def write(p, variants):
    sdfg = p.to_sdfg(simplify=False)
    sdfg.validate()
    out = {'raw': sdfg}
    if 'simp' in variants or 'opt' in variants:
        simp = p.to_sdfg(simplify=True)
        simp.validate()
        out['simp'] = simp
    if 'opt' in variants:
        opt = auto_optimize(p.to_sdfg(simplify=True), dace.DeviceType.CPU)
        opt.validate()
        out['opt'] = opt
    for v in variants:
        path = os.path.join(HERE, f'{p.name}.{v}.sdfgz')
        out[v].save(path, compress=True)
        print('wrote', os.path.relpath(path, HERE))


def main():
    if dace.__version__ != '1.0.2':
        sys.exit(f'needs DaCe 1.0.2, found {dace.__version__}')
    dace.Config.set('compiler', 'default_data_types', value='Python')
    for p, variants in PROGRAMS:
        write(p, variants)


if __name__ == '__main__':
    main()
