"""Writes DaCe-written SDFGs of small NumPy programs, one folder per frontend feature family.

Run with DaCe 1.0.2 (scripts/setup.sh puts it in .venv-dace):
    .venv-dace/bin/python tests/data/frontend/generate.py
Each folder gets <name>.raw.sdfgz (frontend output), <name>.simp.sdfgz (DaCe's simplify) and
<name>.opt.sdfgz (DaCe's auto_optimize for CPU), inputs in in/, NumPy's outputs in out/ and a
case.json in the corpus format that `dace run --case` checks. Expected outputs come from NumPy
running the same computation, never from libdace.
"""
import json
import linecache
import os
import sys

import numpy as np

import dace
from dace.transformation.auto.auto_optimize import auto_optimize

HERE = os.path.dirname(os.path.abspath(__file__))
N = dace.symbol('N')
M = dace.symbol('M')
CASES = []


def case(symbols, make_inputs, reference, rtol=1e-12, atol=1e-12):
    """Registers a program with its symbol values, input maker and NumPy reference."""

    def register(program):
        CASES.append(dict(program=program, symbols=symbols, make_inputs=make_inputs, reference=reference,
                          rtol=rtol, atol=atol))
        return program

    return register


# Python operators with Python semantics, on ints and floats; zero divisors and MIN // -1
# follow NumPy (0, and wrap-around) instead of trapping.
def pyops_inputs(rng):
    a = rng.integers(-20, 20, 12).astype(np.int64)
    b = (rng.integers(1, 7, 12) * rng.choice([-1, 1], 12)).astype(np.int64)
    b[3] = 0
    a[5], b[5] = np.iinfo(np.int64).min, -1
    f = rng.uniform(-3, 3, 12)
    z = np.zeros(12, np.int64)
    return dict(A=a, B=b, F=f, O1=z.copy(), O2=z.copy(), O3=np.zeros(12), O4=np.zeros(12), O5=z.copy())


def pyops_reference(i):
    with np.errstate(all='ignore'):
        return dict(O1=i['A'] % i['B'], O2=i['A'] // i['B'], O3=i['F'] % 0.7, O4=i['F'] // 0.3, O5=i['B']**2)


@case({'N': 12}, pyops_inputs, pyops_reference)
@dace.program
def pyops(A: dace.int64[N], B: dace.int64[N], F: dace.float64[N], O1: dace.int64[N], O2: dace.int64[N],
          O3: dace.float64[N], O4: dace.float64[N], O5: dace.int64[N]):
    O1[:] = A % B
    O2[:] = A // B
    O3[:] = F % 0.7
    O4[:] = F // 0.3
    O5[:] = B**2


# Transposes: 2-D (Transpose node; cblas_domatcopy tasklet after auto_optimize) and N-D
# (TensorTranspose with a permutation).
@case({'N': 9}, lambda r: dict(A=r.random((9, 7)), B=np.zeros((7, 9))), lambda i: dict(B=i['A'].T))
@dace.program
def transpose2d(A: dace.float64[N, 7], B: dace.float64[7, N]):
    B[:] = A.T


@case({}, lambda r: dict(A=r.random((4, 5, 6)), B=np.zeros((6, 4, 5))),
      lambda i: dict(B=np.transpose(i['A'], (2, 0, 1))))
@dace.program
def transpose3d(A: dace.float64[4, 5, 6], B: dace.float64[6, 4, 5]):
    B[:] = np.transpose(A, (2, 0, 1))


@case({'N': 3}, lambda r: dict(A=r.random((3, 1, 5, 2)), B=np.zeros((2, 3, 5, 1))),
      lambda i: dict(B=np.transpose(i['A'], (3, 0, 2, 1))))
@dace.program
def transpose_unit_axis(A: dace.float64[N, 1, 5, 2], B: dace.float64[2, N, 5, 1]):
    B[:] = np.transpose(A, (3, 0, 2, 1))


# einsum (the frontend turns it into maps and reductions).
@case({'N': 8}, lambda r: dict(A=r.random((8, 5)), B=r.random((5, 6)), C=np.zeros((8, 6))),
      lambda i: dict(C=np.einsum('ik,kj->ij', i['A'], i['B'])))
@dace.program
def einsum_matmul(A: dace.float64[N, 5], B: dace.float64[5, 6], C: dace.float64[N, 6]):
    C[:] = np.einsum('ik,kj->ij', A, B)


# Indirect accesses and data-dependent loop bounds.
@case({'N': 10}, lambda r: dict(A=r.random(10), idx=r.integers(0, 10, 10), B=np.zeros(10)),
      lambda i: dict(B=i['A'][i['idx']]))
@dace.program
def indirect_read(A: dace.float64[N], idx: dace.int64[N], B: dace.float64[N]):
    for i in range(N):
        B[i] = A[idx[i]]


@case({'N': 10}, lambda r: dict(A=r.random(10), lens=r.integers(0, 10, 10), B=np.zeros(10)),
      lambda i: dict(B=np.array([i['A'][:n].sum() for n in i['lens']])))
@dace.program
def data_dependent_range(A: dace.float64[N], lens: dace.int64[N], B: dace.float64[N]):
    for i in range(N):
        s = 0.0
        for j in range(lens[i]):
            s = s + A[j]
        B[i] = s


# Reshapes (views with other shapes) and writes through a view.
@case({'N': 8}, lambda r: dict(A=r.random((8, 6)), B=np.zeros((8, 6))), lambda i: dict(B=i['A'] * 2.0))
@dace.program
def reshape_roundtrip(A: dace.float64[N, 6], B: dace.float64[N, 6]):
    t = np.reshape(A, (N, 2, 3))
    B[:] = np.reshape(t * 2.0, (N, 6))


def view_write_reference(i):
    a = i['A'].copy()
    a[1:, :] += 1.0
    return dict(A=a)


@case({'N': 7}, lambda r: dict(A=r.random((7, 7))), view_write_reference)
@dace.program
def view_write(A: dace.float64[N, N]):
    v = A[1:, :]
    v[:] = v + 1.0


# Array creation: np.ones_like, np.zeros, np.arange (its tasklet holds `decltype(__out)(0)`).
@case({'N': 6}, lambda r: dict(A=r.random(6), B=np.zeros(6)), lambda i: dict(B=1.0 + 3.0 + np.arange(6)))
@dace.program
def array_creation(A: dace.float64[N], B: dace.float64[N]):
    t = np.ones_like(A)
    z = np.zeros((N, ), dtype=np.float64)
    z[:] = 3.0
    B[:] = t + z + np.arange(N)


# Reductions over axes and over everything; a scalar return value.
def reductions_reference(i):
    a = i['A']
    return dict(s0=a.sum(axis=0), s1=a.mean(axis=1), mx=np.array([a.max()]), mn=a.min(axis=1))


@case({'N': 6, 'M': 5}, lambda r: dict(A=r.random((6, 5)), s0=np.zeros(5), s1=np.zeros(6), mx=np.zeros(1),
                                       mn=np.zeros(6)), reductions_reference)
@dace.program
def reductions(A: dace.float64[N, M], s0: dace.float64[M], s1: dace.float64[N], mx: dace.float64[1],
               mn: dace.float64[N]):
    s0[:] = np.sum(A, axis=0)
    s1[:] = np.mean(A, axis=1)
    mx[0] = np.max(A)
    mn[:] = np.min(A, axis=1)


@case({'N': 9}, lambda r: dict(A=r.random(9)), lambda i: dict(__return=np.array([np.sum(i['A'] * i['A'])])))
@dace.program
def return_scalar(A: dace.float64[N]):
    return np.sum(A * A)


@case({'N': 4, 'M': 3}, lambda r: dict(A=r.random((4, 3))), lambda i: dict(__return=i['A'].T + 1.0))
@dace.program
def return_transposed(A: dace.float64[N, M]):
    return A.T + 1.0


# Element-wise functions, selections and logical operators.
def elementwise_reference(i):
    a = i['A']
    return dict(B=np.exp(a) + np.sqrt(a) * np.sin(a) - np.log1p(a) + np.abs(a - 0.5) + np.tanh(a) + np.arctan2(a, 1.5),
                C=np.where(a > 0.5, a, 0.0), D=np.minimum(np.maximum(a, 0.2), 0.8),
                E=np.logical_and(a > 0.2, a < 0.7), F=np.logical_not(np.logical_and(a > 0.2, a < 0.7)) * a)


@case({'N': 11}, lambda r: dict(A=r.random(11), B=np.zeros(11), C=np.zeros(11), D=np.zeros(11),
                                E=np.zeros(11, np.bool_), F=np.zeros(11)), elementwise_reference)
@dace.program
def elementwise(A: dace.float64[N], B: dace.float64[N], C: dace.float64[N], D: dace.float64[N], E: dace.bool_[N],
                F: dace.float64[N]):
    B[:] = np.exp(A) + np.sqrt(A) * np.sin(A) - np.log1p(A) + np.abs(A - 0.5) + np.tanh(A) + np.arctan2(A, 1.5)
    C[:] = np.where(A > 0.5, A, 0.0)
    D[:] = np.minimum(np.maximum(A, 0.2), 0.8)
    E[:] = np.logical_and(A > 0.2, A < 0.7)
    F[:] = np.logical_not(E) * A


# Complex numbers and mixed integer/float widths.
def complex_inputs(r):
    return dict(A=r.random(7) + 1j * r.random(7), B=np.zeros(7, np.complex128))


@case({'N': 7}, complex_inputs, lambda i: dict(B=i['A'] * np.conj(i['A']) + np.exp(i['A'])))
@dace.program
def complex_math(A: dace.complex128[N], B: dace.complex128[N]):
    B[:] = A * np.conj(A) + np.exp(A)


def widths_inputs(r):
    return dict(A=r.integers(-50, 50, 8).astype(np.int32), B=np.zeros(8, np.float32), C=np.zeros(8, np.int16),
                D=np.zeros(8, np.uint8))


@case({'N': 8}, widths_inputs,
      lambda i: dict(B=(i['A'] * 0.5).astype(np.float32), C=(i['A'] + 1).astype(np.int16),
                     D=(i['A'] & 7).astype(np.uint8)))
@dace.program
def integer_widths(A: dace.int32[N], B: dace.float32[N], C: dace.int16[N], D: dace.uint8[N]):
    B[:] = A * 0.5
    C[:] = A + 1
    D[:] = A & 7


# Stencil slices, a loop-carried scan, and matrix products.
def slices_reference(i):
    a = i['A']
    b = np.zeros_like(a)
    b[1:-1, 1:-1] = a[2:, 1:-1] + a[:-2, 1:-1] + a[1:-1, 2:]
    return dict(B=b)


@case({'N': 8}, lambda r: dict(A=r.random((8, 8)), B=np.zeros((8, 8))), slices_reference)
@dace.program
def stencil_slices(A: dace.float64[N, N], B: dace.float64[N, N]):
    B[1:-1, 1:-1] = A[2:, 1:-1] + A[:-2, 1:-1] + A[1:-1, 2:]


@case({'N': 10}, lambda r: dict(A=r.random(10), B=np.zeros(10)), lambda i: dict(B=np.cumsum(i['A'])))
@dace.program
def prefix_sum(A: dace.float64[N], B: dace.float64[N]):
    B[0] = A[0]
    for i in range(1, N):
        B[i] = B[i - 1] + A[i]


@case({'N': 6, 'M': 4}, lambda r: dict(A=r.random((6, 4)), B=r.random((4, 6)), C=np.zeros((6, 6)), v=r.random(4),
                                       w=np.zeros(6)), lambda i: dict(C=i['A'] @ i['B'], w=i['A'] @ i['v']))
@dace.program
def matrix_products(A: dace.float64[N, M], B: dace.float64[M, N], C: dace.float64[N, N], v: dace.float64[M],
                    w: dace.float64[N]):
    C[:] = A @ B
    w[:] = A @ v


# Control flow: while, if/elif/else on data, a stepped range with continue and break.
def control_flow_reference(i):
    a = i['A']
    b = np.where(a > 0.5, a * 2, np.where(a > 0.2, -a, 0.0))
    for j in range(0, len(a), 3):
        if b[j] < 0:
            continue
        b[j] += 10.0
        if j > 6:
            break
    return dict(B=b)


@case({'N': 13}, lambda r: dict(A=r.random(13), B=np.zeros(13)), control_flow_reference)
@dace.program
def control_flow(A: dace.float64[N], B: dace.float64[N]):
    i = 0
    while i < N:
        if A[i] > 0.5:
            B[i] = A[i] * 2
        elif A[i] > 0.2:
            B[i] = -A[i]
        else:
            B[i] = 0.0
        i += 1
    for j in range(0, N, 3):
        if B[j] < 0:
            continue
        B[j] += 10.0
        if j > 6:
            break


# A program calling another (nested SDFGs).
@dace.program
def scale_shift(x: dace.float64[N], y: dace.float64[N]):
    y[:] = x * 3.0 + 1.0


@case({'N': 8}, lambda r: dict(A=r.random(8), B=np.zeros(8), C=np.zeros(8)),
      lambda i: dict(B=i['A'] * 3.0 + 1.0, C=(i['A'] * 3.0 + 1.0) * 3.0 + 1.0))
@dace.program
def nested_calls(A: dace.float64[N], B: dace.float64[N], C: dace.float64[N]):
    scale_shift(A, B)
    scale_shift(B, C)


# A multi-state call (a loop) between maps that feed it and read its output, and an
# unrelated write: once states are fused, the call shares its state with all of them, and
# DaCe's InlineMultistateSDFG splits that state around it.
@dace.program
def running_scale(x: dace.float64[N], y: dace.float64[N]):
    for i in range(N):
        y[i] = x[i] * 2 + i


def call_between_maps_reference(i):
    a = i['X'] + 1
    b = a * 2 + np.arange(8)
    return dict(B=b, C=b * 3 + i['X'], D=np.array([7.0]))


@case({'N': 8}, lambda r: dict(X=r.random(8), B=np.zeros(8), C=np.zeros(8), D=np.zeros(1)),
      call_between_maps_reference)
@dace.program
def call_between_maps(X: dace.float64[N], B: dace.float64[N], C: dace.float64[N], D: dace.float64[1]):
    A = X + 1
    running_scale(A, B)
    C[:] = B * 3 + X
    D[0] = 7


# Explicit dace.map with a tasklet and a write-conflict resolution (DaCe's auto_optimize tiles
# it; its tiles end at SymExpr bounds such as {"main": "Min(N - 1, tile_i + 127)", ...}).
@case({'N': 9}, lambda r: dict(A=r.random((9, 9)), s=np.zeros(1), B=np.zeros((9, 9))),
      lambda i: dict(B=i['A'] * i['A'], s=np.array([i['A'].sum()])))
@dace.program
def explicit_map_wcr(A: dace.float64[N, N], s: dace.float64[1], B: dace.float64[N, N]):
    for i, j in dace.map[0:N, 0:N]:
        with dace.tasklet:
            a << A[i, j]
            b >> B[i, j]
            acc >> s(1, lambda x, y: x + y)[0]
            b = a * a
            acc = a


# Conflicting writes through data-dependent indices (a histogram).
def histogram_inputs(r):
    return dict(idx=r.integers(0, 5, 20).astype(np.int64), H=np.zeros(5, np.int64))


@case({'N': 20}, histogram_inputs, lambda i: dict(H=np.bincount(i['idx'], minlength=5).astype(np.int64)))
@dace.program
def histogram(idx: dace.int64[N], H: dace.int64[5]):
    for i in dace.map[0:N]:
        H[idx[i]] += 1


# More array creation and copies; array methods; concatenation.
@case({'N': 6}, lambda r: dict(A=r.random(6), B=np.zeros((6, 6)), C=np.zeros(6), D=np.zeros(6)),
      lambda i: dict(B=np.eye(6) + np.full((6, 6), 2.0), C=i['A'].copy(), D=np.linspace(0.0, 1.0, 6)))
@dace.program
def creation_copies(A: dace.float64[N], B: dace.float64[N, N], C: dace.float64[N], D: dace.float64[N]):
    B[:] = np.eye(N) + np.full((N, N), 2.0)
    C[:] = np.copy(A)
    D[:] = np.linspace(0.0, 1.0, N)


@case({'N': 7}, lambda r: dict(A=r.random((7, 7)), r=np.zeros(3), B=np.zeros((7, 7))),
      lambda i: dict(r=np.array([i['A'].sum(), i['A'].max(), i['A'].mean()]), B=i['A'].T.copy()))
@dace.program
def array_methods(A: dace.float64[N, N], r: dace.float64[3], B: dace.float64[N, N]):
    r[0] = A.sum()
    r[1] = A.max()
    r[2] = np.mean(A)
    B[:] = A.T.copy()


@case({'N': 5}, lambda r: dict(A=r.random(5), B=r.random(5), C=np.zeros(10)),
      lambda i: dict(C=np.concatenate((i['A'], i['B']))))
@dace.program
def concatenation(A: dace.float64[N], B: dace.float64[N], C: dace.float64[2 * N]):
    C[:] = np.concatenate((A, B))


# Every NumPy ufunc DaCe's frontend maps to tasklet code, grouped by operand kinds: one
# output per ufunc, NumPy's own ufunc as the reference.
UNARY_FLOAT = ['negative', 'positive', 'absolute', 'fabs', 'rint', 'sign', 'exp', 'exp2', 'log', 'log2', 'log10',
               'expm1', 'log1p', 'sqrt', 'square', 'cbrt', 'reciprocal', 'sin', 'cos', 'tan', 'arcsin', 'arccos',
               'arctan', 'sinh', 'cosh', 'tanh', 'arcsinh', 'arctanh', 'degrees', 'rad2deg', 'radians', 'deg2rad',
               'isfinite', 'isinf', 'isnan', 'signbit', 'spacing', 'floor', 'ceil', 'trunc', 'logical_not']
BINARY_FLOAT = ['add', 'subtract', 'multiply', 'divide', 'true_divide', 'logaddexp', 'logaddexp2', 'floor_divide',
                'power', 'float_power', 'remainder', 'mod', 'fmod', 'heaviside', 'arctan2', 'hypot', 'greater',
                'greater_equal', 'less', 'less_equal', 'equal', 'not_equal', 'logical_and', 'logical_or',
                'logical_xor', 'maximum', 'fmax', 'minimum', 'fmin', 'copysign', 'nextafter']
BINARY_INT = ['add', 'subtract', 'multiply', 'floor_divide', 'remainder', 'fmod', 'gcd', 'lcm', 'bitwise_and',
              'bitwise_or', 'bitwise_xor', 'left_shift', 'right_shift', 'maximum', 'minimum', 'power']
UNARY_INT = ['negative', 'absolute', 'sign', 'invert', 'square']
TWO_OUTPUTS = ['divmod', 'modf', 'frexp']


def ufunc_program(name, ufuncs, operands, in_type, out_types):
    """A @dace.program applying each ufunc to `operands` (input names), one output each."""
    params = [f'{a}: dace.{in_type}[N]' for a in operands]
    body = []
    for k, u in enumerate(ufuncs):
        outs = out_types(u)
        names = [f'O{k}_{j}' for j in range(len(outs))]
        params += [f'{n}: dace.{t}[N]' for n, t in zip(names, outs)]
        args = ', '.join(a + (' + 1.0' if u == 'arccosh' else '') for a in operands)
        body.append(f'    {", ".join(n + "[:]" for n in names)} = np.{u}({args})')
    src = f'def {name}({", ".join(params)}):\n' + '\n'.join(body) + '\n'
    # DaCe reads a program's source through inspect, which finds generated code in linecache.
    filename = f'<generated {name}>'
    linecache.cache[filename] = (len(src), None, src.splitlines(True), filename)
    scope = dict(dace=dace, np=np, N=N)
    exec(compile(src, filename, 'exec'), scope)
    return dace.program(scope[name])


def numpy_type_name(dtype):
    return {'bool': 'bool_'}.get(dtype.name, dtype.name)


def ufunc_case(name, ufuncs, operands, in_type, make_operand):
    np_in = getattr(np, in_type)

    def result_types(u):
        probe = [np.ones(2, np_in) for _ in operands]
        r = getattr(np, u)(*probe)
        return [numpy_type_name(x.dtype) for x in (r if isinstance(r, tuple) else (r, ))]

    def make_inputs(rng):
        inputs = {a: make_operand(rng, j) for j, a in enumerate(operands)}
        for k, u in enumerate(ufuncs):
            for j, t in enumerate(result_types(u)):
                inputs[f'O{k}_{j}'] = np.zeros(9, getattr(np, t))
        return inputs

    def reference(i):
        out = {}
        with np.errstate(all='ignore'):
            for k, u in enumerate(ufuncs):
                args = [i[a] + (1.0 if u == 'arccosh' else 0) for a in operands]
                r = getattr(np, u)(*args)
                for j, x in enumerate(r if isinstance(r, tuple) else (r, )):
                    out[f'O{k}_{j}'] = x
        return out

    CASES.append(dict(program=ufunc_program(name, ufuncs, operands, in_type, result_types), symbols={'N': 9},
                      make_inputs=make_inputs, reference=reference, rtol=1e-12, atol=1e-14))


def signed_floats(rng, j):
    v = rng.uniform(-0.9, 0.9, 9)
    v[0], v[1] = 0.5 + j, -2.5 + j  # halfway values for rint, exact zeros and signs
    return v


def small_ints(rng, j):
    v = rng.integers(-9, 10, 9).astype(np.int64)
    v[0] = 0
    return v if j == 0 else np.where(v == 0, 3, np.abs(v) % 5 + 1)  # right operands: positive, for shifts and powers


ufunc_case('ufuncs_unary_float', UNARY_FLOAT, ['A'], 'float64', signed_floats)
ufunc_case('ufuncs_binary_float', BINARY_FLOAT, ['A', 'B'], 'float64', signed_floats)
ufunc_case('ufuncs_unary_int', UNARY_INT, ['A'], 'int64', small_ints)
ufunc_case('ufuncs_binary_int', BINARY_INT, ['A', 'B'], 'int64', small_ints)
ufunc_case('ufuncs_two_outputs', TWO_OUTPUTS[1:], ['A'], 'float64', signed_floats)
ufunc_case('ufuncs_divmod', TWO_OUTPUTS[:1], ['A', 'B'], 'int64', small_ints)


# Argument layouts DaCe's descriptors allow besides C order: reversed (negative stride),
# Fortran order and broadcast (zero stride). The inputs are the logical arrays; the runner lays
# them out as the descriptors say.
REVERSED = dace.data.Array(dace.float64, (N, ), strides=(-1, ))
FORTRAN = dace.data.Array(dace.float64, (N, M), strides=(1, N))
BROADCAST_ROWS = dace.data.Array(dace.float64, (N, M), strides=(0, 1))


def layouts_inputs(r):
    return dict(A=r.random(7), B=r.random((7, 4)), W=np.tile(r.random(4), (7, 1)), C=np.zeros((7, 4)), D=np.zeros(7))


@case({'N': 7, 'M': 4}, layouts_inputs,
      lambda i: dict(C=i['B'] * 2 + i['A'][:, None] + i['W'], D=i['A'] * 3))
@dace.program
def layouts(A: REVERSED, B: FORTRAN, W: BROADCAST_ROWS, C: dace.float64[N, M], D: REVERSED):
    for i, j in dace.map[0:N, 0:M]:
        C[i, j] = B[i, j] * 2 + A[i] + W[i, j]
    D[:] = A * 3

# Loops carrying a value, WCR of max/min and of sums into 1-D and 2-D targets, scatter through
# an index array, an in-place shift (overlapping read and write of one array), a while loop on
# a reduced value, branches in a map, a product in a loop, overlapping column slices.
@case({'N': 13}, lambda r: dict(A=r.random(13)), lambda i: dict(__return=np.cumsum(i['A'])))
@dace.program
def cumulative(A: dace.float64[N]):
    out = np.zeros_like(A)
    out[0] = A[0]
    for i in range(1, N):
        out[i] = out[i - 1] + A[i]
    return out


@case({'N': 13}, lambda r: dict(A=r.random(13) - 0.5, mx=np.array([-1e9]), mn=np.array([1e9])),
      lambda i: dict(mx=np.array([max(-1e9, i['A'].max())]), mn=np.array([min(1e9, i['A'].min())])))
@dace.program
def minmax_wcr(A: dace.float64[N], mx: dace.float64[1], mn: dace.float64[1]):
    for i in dace.map[0:N]:
        mx[0] = max(mx[0], A[i])
        mn[0] = min(mn[0], A[i])


def scatter_add_reference(i):
    out = i['out'].copy()
    np.add.at(out, i['idx'], i['vals'])
    return dict(out=out)


@case({'N': 13, 'M': 7}, lambda r: dict(idx=r.integers(0, 7, 13), vals=r.random(13), out=r.random(7)),
      scatter_add_reference)
@dace.program
def scatter_add(idx: dace.int64[N], vals: dace.float64[N], out: dace.float64[M]):
    for i in dace.map[0:N]:
        out[idx[i]] += vals[i]


@case({'N': 13}, lambda r: dict(A=r.random(13)), lambda i: dict(A=np.concatenate([i['A'][:1], i['A'][:-1] * 2.0])))
@dace.program
def shift_inplace(A: dace.float64[N]):
    A[1:] = A[:-1] * 2.0


def while_halving_reference(i):
    s, k = i['A'].sum(), 0
    while s > 1.0:
        s, k = s / 2.0, k + 1
    return dict(out=np.array([s + k]))


@case({'N': 13}, lambda r: dict(A=r.random(13) * 10, out=np.zeros(1)), while_halving_reference)
@dace.program
def while_halving(A: dace.float64[N], out: dace.float64[1]):
    s = np.sum(A)
    k = 0
    while s > 1.0:
        s = s / 2.0
        k = k + 1
    out[0] = s + k


@case({'N': 13, 'M': 7}, lambda r: dict(A=r.random((13, 7)), rows=np.ones(13), cols=np.zeros(7)),
      lambda i: dict(rows=i['rows'] + i['A'].sum(1), cols=i['cols'] + 2 * i['A'].sum(0)))
@dace.program
def wcr_2d(A: dace.float64[N, M], rows: dace.float64[N], cols: dace.float64[M]):
    for i, j in dace.map[0:N, 0:M]:
        rows[i] += A[i, j]
        cols[j] += A[i, j] * 2


@case({'N': 13}, lambda r: dict(A=r.random(13), B=np.zeros(13)),
      lambda i: dict(B=np.where(i['A'] > 0.5, i['A'] * i['A'], -i['A'])))
@dace.program
def cond_in_map(A: dace.float64[N], B: dace.float64[N]):
    for i in dace.map[0:N]:
        if A[i] > 0.5:
            B[i] = A[i] * A[i]
        else:
            B[i] = -A[i]


@case({'N': 13}, lambda r: dict(A=r.random((13, 13)) / 13, B=np.zeros((13, 13))),
      lambda i: dict(B=np.linalg.matrix_power(i['A'], 4)), rtol=1e-10)
@dace.program
def matpow(A: dace.float64[N, N], B: dace.float64[N, N]):
    B[:] = A
    for k in range(3):
        B[:] = B @ A


@case({'N': 13, 'M': 7}, lambda r: dict(A=r.random((13, 7)), B=np.zeros((13, 7))),
      lambda i: dict(B=np.concatenate([i['A'][:, :1], i['A'][:, :-1] + i['A'][:, 1:]], axis=1)))
@dace.program
def col_slices(A: dace.float64[N, M], B: dace.float64[N, M]):
    B[:, 1:] = A[:, :-1] + A[:, 1:]
    B[:, 0] = A[:, 0]


# Complex and mixed-precision arithmetic, integer floor division and remainder (Python's),
# np.where, reductions over several axes, broadcasting, a matrix inverse (LAPACK).
@case({'N': 13}, lambda r: dict(A=r.random(13) + 1j * r.random(13), B=r.random(13) - 1j * r.random(13)),
      lambda i: dict(__return=np.conj(i['A']) * i['B'] + np.abs(i['A'])))
@dace.program
def cplx_ops(A: dace.complex128[N], B: dace.complex128[N]):
    return np.conj(A) * B + np.abs(A)


@case({'N': 13}, lambda r: dict(A=r.random(13).astype(np.float32), B=r.random(13)),
      lambda i: dict(__return=i['A'] * i['B'] + np.float32(1.5)), rtol=1e-6)
@dace.program
def float32_mix(A: dace.float32[N], B: dace.float64[N]):
    return A * B + np.float32(1.5)


@case({'N': 13}, lambda r: dict(A=r.integers(-50, 50, 13), B=r.integers(0, 9, 13)),
      lambda i: dict(__return=i['A'] // (i['B'] + 3) + i['A'] % 5))
@dace.program
def int_div(A: dace.int64[N], B: dace.int64[N]):
    return A // (B + 3) + A % 5


@case({'N': 13, 'M': 7}, lambda r: dict(A=r.random((13, 7)), B=r.random((13, 7))),
      lambda i: dict(__return=np.where(i['A'] > 0.5, i['A'] * 2, i['B'] - 1)))
@dace.program
def masked_where(A: dace.float64[N, M], B: dace.float64[N, M]):
    return np.where(A > 0.5, A * 2, B - 1)


@case({'N': 13, 'M': 7}, lambda r: dict(A=r.random((13, 7, 4))),
      lambda i: dict(__return=np.sum(i['A'], axis=(0, 2)) + np.mean(i['A'])))
@dace.program
def reduce_axes(A: dace.float64[N, M, 4]):
    return np.sum(A, axis=(0, 2)) + np.mean(A)


@case({'N': 13, 'M': 7}, lambda r: dict(a=r.random(13), b=r.random(7)),
      lambda i: dict(__return=i['a'][:, None] + i['b'][None, :]))
@dace.program
def outer_add(a: dace.float64[N], b: dace.float64[M]):
    return a[:, np.newaxis] + b[np.newaxis, :]


@case({'N': 9, 'M': 4}, lambda r: dict(A=r.random((9, 9)) + 9 * np.eye(9), B=r.random((9, 4))),
      lambda i: dict(__return=np.linalg.inv(i['A']) @ i['B']), rtol=1e-10)
@dace.program
def inv_solve(A: dace.float64[N, N], B: dace.float64[N, M]):
    return np.linalg.inv(A) @ B

# Boolean-mask assignment, a vector product, a transposed matrix-vector product,
# reductions with sqrt and along one axis, a time loop over two stencils, a loop over columns,
# int32 wrap-around, clipping, a diagonal update reading its row, a triangular loop nest.
@case({'N': 9, 'M': 6}, lambda r: dict(A=r.random((9, 6))), lambda i: dict(A=np.where(i['A'] > 0.5, 0.0, i['A'])))
@dace.program
def mask_assign(A: dace.float64[N, M]):
    A[A > 0.5] = 0.0


@case({'N': 11}, lambda r: dict(a=r.random(11), b=r.random(11), out=np.zeros(1)),
      lambda i: dict(out=np.array([i['a'] @ i['b']])))
@dace.program
def vec_dot(a: dace.float64[N], b: dace.float64[N], out: dace.float64[1]):
    out[0] = a @ b


@case({'N': 9, 'M': 6}, lambda r: dict(A=r.random((9, 6)), x=r.random(9)), lambda i: dict(__return=i['A'].T @ i['x']))
@dace.program
def gemv_t(A: dace.float64[N, M], x: dace.float64[N]):
    return A.T @ x


@case({'N': 11}, lambda r: dict(A=r.random(11)), lambda i: dict(__return=np.array([np.sqrt(np.sum(i['A'] * i['A']))])))
@dace.program
def norm2(A: dace.float64[N]):
    return np.sqrt(np.sum(A * A))


@case({'N': 9, 'M': 6}, lambda r: dict(A=r.random((9, 6)) - 0.5),
      lambda i: dict(__return=np.max(i['A'], axis=0) + np.min(i['A'])))
@dace.program
def max_red(A: dace.float64[N, M]):
    return np.max(A, axis=0) + np.min(A)


def stencil_loop_reference(i):
    a, b = i['A'].copy(), i['B'].copy()
    for _ in range(4):
        b[1:-1] = 0.5 * (a[:-2] + a[2:])
        a[1:-1] = 0.5 * (b[:-2] + b[2:])
    return dict(A=a, B=b)


@case({'N': 17}, lambda r: dict(A=r.random(17), B=r.random(17)), stencil_loop_reference)
@dace.program
def stencil_loop(A: dace.float64[N], B: dace.float64[N]):
    for t in range(4):
        B[1:-1] = 0.5 * (A[:-2] + A[2:])
        A[1:-1] = 0.5 * (B[:-2] + B[2:])


@case({'N': 9, 'M': 6}, lambda r: dict(A=r.random((9, 6)), B=np.zeros((9, 6))), lambda i: dict(B=i['A'] * 2 + 1))
@dace.program
def column_loop(A: dace.float64[N, M], B: dace.float64[N, M]):
    for j in range(M):
        B[:, j] = A[:, j] * 2 + 1


@case({'N': 11}, lambda r: dict(A=r.integers(-30000, 30000, 11).astype(np.int32)),
      lambda i: dict(__return=i['A'] * np.int32(100000)))
@dace.program
def int_overflow(A: dace.int32[N]):
    return A * np.int32(100000)


@case({'N': 11}, lambda r: dict(A=r.random(11) - 0.5),
      lambda i: dict(__return=np.minimum(np.maximum(np.abs(i['A']), 0.2), 0.7)))
@dace.program
def clip_abs(A: dace.float64[N]):
    return np.minimum(np.maximum(np.abs(A), 0.2), 0.7)


def diag_update_reference(i):
    a = i['A'].copy()
    for k in range(a.shape[0]):
        a[k, k] = a[k, k] + np.sum(a[k, :])
    return dict(A=a)


@case({'N': 7}, lambda r: dict(A=r.random((7, 7))), diag_update_reference)
@dace.program
def diag_update(A: dace.float64[N, N]):
    for i in range(N):
        A[i, i] = A[i, i] + np.sum(A[i, :])


@case({'N': 7}, lambda r: dict(A=r.random((7, 7)), B=np.zeros((7, 7))),
      lambda i: dict(B=np.tril(i['A']) * 2))
@dace.program
def lower_tri(A: dace.float64[N, N], B: dace.float64[N, N]):
    for i in range(N):
        for j in range(i + 1):
            B[i, j] = A[i, j] * 2


def write(entry, root):
    program = entry['program']
    name = program.name
    folder = os.path.join(root, name)
    os.makedirs(os.path.join(folder, 'in'), exist_ok=True)
    os.makedirs(os.path.join(folder, 'out'), exist_ok=True)
    rng = np.random.default_rng(20261125)
    inputs = entry['make_inputs'](rng)
    expected = entry['reference']({k: v.copy() for k, v in inputs.items()})
    raw = program.to_sdfg(simplify=False)
    raw.save(os.path.join(folder, name + '.raw.sdfgz'), compress=True)
    simp = program.to_sdfg(simplify=True)
    simp.save(os.path.join(folder, name + '.simp.sdfgz'), compress=True)
    variants = ['raw', 'simp', 'opt']
    try:
        opt = program.to_sdfg(simplify=True)
        auto_optimize(opt, dace.DeviceType.CPU)
        opt.save(os.path.join(folder, name + '.opt.sdfgz'), compress=True)
    except Exception as e:  # DaCe's own auto_optimize fails on some programs (control_flow)
        print('  DaCe cannot auto-optimize %s: %s: %s' % (name, type(e).__name__, e))
        variants.remove('opt')
    for k, v in inputs.items():
        np.save(os.path.join(folder, 'in', k + '.npy'), v)
    for k, v in expected.items():
        np.save(os.path.join(folder, 'out', k + '.npy'), v)
    meta = {
        'kernel': name,
        'dace_version': dace.__version__,
        'symbols': entry['symbols'],
        'inputs': {k: 'in/' + k + '.npy' for k in sorted(inputs)},
        'expected_outputs': {k: 'out/' + k + '.npy' for k in sorted(expected)},
        'variants': variants,
        'rtol': entry['rtol'],
        'atol': entry['atol'],
    }
    with open(os.path.join(folder, 'case.json'), 'w') as fh:
        json.dump(meta, fh, indent=1, sort_keys=True)
        fh.write('\n')
    print('wrote', folder)


if __name__ == '__main__':
    only = set(sys.argv[1:])
    for entry in CASES:
        if not only or entry['program'].name in only:
            write(entry, HERE)
