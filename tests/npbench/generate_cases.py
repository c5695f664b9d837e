"""Writes DaCe-written SDFGs of every NPBench kernel, with NumPy's outputs, as test cases.

    python generate_cases.py NPBENCH_DIR OUT_DIR [KERNEL ...]

Run with DaCe 1.0.2 (.venv-dace). NPBench is read at run time from NPBENCH_DIR (nothing of it is
copied into the project). For each kernel with a DaCe implementation: OUT_DIR/<kernel>/ gets
<kernel>.raw.sdfg (DaCe's frontend), .simp.sdfg (DaCe's simplify) and .opt.sdfg (DaCe's
auto_optimize for CPU), inputs from NPBench's own `initialize` at small sizes (the S problem
size scaled so the largest parameter is about 24), the outputs of NPBench's NumPy
implementation, and a case.json in the corpus format for `dace run --case`. One line per
kernel on stdout: `OK name`, or `SKIP name: reason` when DaCe or NumPy cannot produce it.
"""
import contextlib
import copy
import importlib.util
import io
import json
import os
import sys
import warnings

import numpy as np

warnings.filterwarnings('ignore')
import dace  # noqa: E402
from dace.transformation.auto.auto_optimize import auto_optimize  # noqa: E402


def load_module(path, name):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def small_sizes(params, scalable):
    """NPBench's S sizes scaled down so the largest is about 24 (each at least 2). Only the
    names in `scalable` change: a parameter the program neither takes nor has as a symbol is
    a size its DaCe version hard-codes (coninteg's 32 integration points), so it keeps its value."""
    largest = max(v for v in params.values() if isinstance(v, (int, float)))
    scale = max(1.0, largest / 24.0)
    out = {}
    for k, v in params.items():
        out[k] = max(2, int(round(v / scale))) if isinstance(v, int) and v > 24 and k in scalable else v
    return out


# Kernels whose outputs amplify rounding far beyond float64's epsilon, so that any other
# summation order (libdace's loops, another machine's BLAS in NumPy) moves them more than the
# default rtol. nbody: 40 leapfrog steps of 24 bodies; one ulp added to the input velocities
# moves NumPy's own output velocities by 7.4e-8 relative (measured), so 1e-7 sits at the
# kernel's conditioning, not at libdace's accuracy.
ILL_CONDITIONED_RTOL = {'nbody': 1e-5}


def tolerance(name, arrays):
    """float32 data gets float32 tolerances; ill-conditioned kernels their measured bound."""
    single = any(isinstance(a, np.ndarray) and a.dtype in (np.float32, np.complex64) for a in arrays)
    rtol, atol = (1e-4, 1e-5) if single else (1e-7, 1e-9)
    return max(rtol, ILL_CONDITIONED_RTOL.get(name, 0.0)), atol


def write_case(npbench, info, root):
    name = info['short_name']
    folder = os.path.join(npbench, 'benchmarks', info['relative_path'])
    module = info['module_name']
    if not os.path.exists(os.path.join(folder, module + '_dace.py')):
        return 'SKIP %s: no DaCe implementation in NPBench' % name
    sys.path.insert(0, folder)
    try:
        base = load_module(os.path.join(folder, module + '.py'), module)
        reference = load_module(os.path.join(folder, module + '_numpy.py'), module + '_numpy')
        program_module = load_module(os.path.join(folder, module + '_dace.py'), module + '_dace')
    finally:
        sys.path.pop(0)
    if 'init' not in info:
        return 'SKIP %s: no initialize function in its bench_info' % name
    program = getattr(program_module, info['func_name'])
    raw = program.to_sdfg(simplify=False)
    sizes = small_sizes(info['parameters']['S'], set(map(str, raw.free_symbols)) | set(info['input_args']))
    init = info['init']
    values = getattr(base, init['func_name'])(*[sizes[a] for a in init['input_args']])
    if len(init['output_args']) == 1:
        values = (values, )
    env = dict(sizes)
    env.update(zip(init['output_args'], values))
    args = {a: env[a] for a in info['input_args']}

    numpy_args = copy.deepcopy(args)
    returned = getattr(reference, info['func_name'])(**numpy_args)

    # Arrays passed with another shape of the same size (NPBench's harness reshapes them).
    for k, v in args.items():
        desc = raw.arrays.get(k)
        if isinstance(v, np.ndarray) and desc is not None and len(desc.shape) != v.ndim:
            shape = tuple(int(dace.symbolic.evaluate(s, sizes)) for s in desc.shape)
            if int(np.prod(shape)) == v.size:
                args[k] = v.reshape(shape)
                numpy_args[k] = numpy_args[k].reshape(shape)

    out = os.path.join(root, name)
    os.makedirs(os.path.join(out, 'in'), exist_ok=True)
    os.makedirs(os.path.join(out, 'out'), exist_ok=True)
    raw.save(os.path.join(out, name + '.raw.sdfg'))
    simp = copy.deepcopy(raw)
    simp.simplify()
    simp.save(os.path.join(out, name + '.simp.sdfg'))
    opt = copy.deepcopy(simp)
    auto_optimize(opt, dace.DeviceType.CPU)
    opt.save(os.path.join(out, name + '.opt.sdfg'))

    free = set(map(str, raw.free_symbols))
    inputs, expected = {}, {}
    symbols = {s: env[s] for s in sorted(free) if s in env and not isinstance(env[s], np.ndarray)}
    for k, v in args.items():
        if isinstance(v, (int, np.integer)) and not isinstance(v, bool):
            # Integer sizes go with the symbols: they fill a symbol or a scalar argument of that
            # name, and simplify may have removed the argument (e.g. a size it could compute).
            symbols[k] = int(v)
            continue
        np.save(os.path.join(out, 'in', k + '.npy'), np.asarray(v))
        inputs[k] = 'in/%s.npy' % k
        if isinstance(v, np.ndarray):  # arrays the kernel may update in place
            np.save(os.path.join(out, 'out', k + '.npy'), numpy_args[k])
            expected[k] = 'out/%s.npy' % k
    returns = sorted(n for n in raw.arrays if n.startswith('__return'))
    if returns:
        values = returned if isinstance(returned, tuple) else (returned, )
        if len(values) != len(returns):
            return 'SKIP %s: NumPy returns %d values, the SDFG %d' % (name, len(values), len(returns))
        for n, v in zip(returns, values):
            np.save(os.path.join(out, 'out', n + '.npy'), np.asarray(v))
            expected[n] = 'out/%s.npy' % n
    rtol, atol = tolerance(name, list(args.values()))
    case = dict(kernel=name, dace_version=dace.__version__, symbols=symbols, inputs=inputs,
                expected_outputs=expected, rtol=rtol, atol=atol)
    with open(os.path.join(out, 'case.json'), 'w') as fh:
        json.dump(case, fh, indent=1, sort_keys=True)
        fh.write('\n')
    return 'OK %s' % name


def main():
    npbench, root = sys.argv[1], sys.argv[2]
    only = set(sys.argv[3:])
    info_dir = os.path.join(npbench, 'bench_info')
    for f in sorted(os.listdir(info_dir)):
        info = json.load(open(os.path.join(info_dir, f)))['benchmark']
        if only and info['short_name'] not in only:
            continue
        try:
            with contextlib.redirect_stdout(io.StringIO()):  # DaCe reports its transformations on stdout
                line = write_case(npbench, info, root)
        except Exception as e:  # a kernel DaCe or NumPy cannot handle here is reported, not fatal
            line = 'SKIP %s: %s: %s' % (info['short_name'], type(e).__name__, str(e).splitlines()[0][:200] if str(e) else '')
        print(line, flush=True)


if __name__ == '__main__':
    main()
