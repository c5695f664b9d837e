"""Writes SDFGs in which a single-state nested SDFG sits in a map of one schedule and has a
schedule of its own, together with what DaCe's InlineSDFG makes of them.

Run with DaCe 1.0.2 (scripts/setup.sh puts it in .venv-dace):
    .venv-dace/bin/python tests/data/inline_schedules/generate.py
For each case a folder <case>/ gets <case>.sdfgz (the input, built with DaCe's API and
validated by DaCe) and <case>.dace.sdfgz (DaCe 1.0.2's InlineSDFG applied to it: DaCe first
re-defaults the nested SDFG's Default schedules and storages from the node's schedule,
set_default_schedule_and_storage_types). CPU cases also get inputs in in/, NumPy's outputs in
out/ and a case.json in the corpus format (B = 2 A + 1). tests/unit/transform_inline_schedules_test.cpp
applies libdace's InlineSDFG to each input and compares every schedule and storage with DaCe's.
"""
import gzip
import json
import os
import shutil

import numpy as np

import dace
from dace import dtypes
from dace.transformation.interstate import InlineSDFG

HERE = os.path.dirname(os.path.abspath(__file__))
S = dtypes.ScheduleType
ST = dtypes.StorageType
NVAL, MVAL = 5, 7


def leaf_sdfg():
    """y[0] = x + 1 through a transient scalar and a one-iteration map (Default schedule)."""
    g = dace.SDFG('leaf')
    g.add_scalar('x', dace.float64)
    g.add_array('y', [1], dace.float64)
    g.add_scalar('w', dace.float64, transient=True)
    st = g.add_state('leaf_state')
    t = st.add_tasklet('plus', {'p'}, {'q'}, 'q = p + 1')
    st.add_edge(st.add_read('x'), None, t, 'p', dace.Memlet('x[0]'))
    w = st.add_access('w')
    st.add_edge(t, 'q', w, None, dace.Memlet('w[0]'))
    me, mx = st.add_map('leafmap', {'l': '0:1'})
    store = st.add_tasklet('store', {'p'}, {'q'}, 'q = p')
    st.add_memlet_path(w, me, store, dst_conn='p', memlet=dace.Memlet('w[0]'))
    st.add_memlet_path(store, mx, st.add_write('y'), src_conn='q', memlet=dace.Memlet('y[l]'))
    return g


def body_sdfg(first, second, deep):
    """b = 2 a + 1 over M elements: map `first` writes the transient tmp = 2 a, map `second`
    reads it into the transient scalar u (inside its scope) and writes b = u + 1 (through the
    nested SDFG `leaf` when `deep`)."""
    g = dace.SDFG('body')
    g.add_symbol('M', dace.int64)
    g.add_array('a', ['M'], dace.float64)
    g.add_array('b', ['M'], dace.float64)
    g.add_array('tmp', ['M'], dace.float64, transient=True)
    g.add_scalar('u', dace.float64, transient=True)
    st = g.add_state('body_state')
    me1, mx1 = st.add_map('first', {'j': '0:M'}, schedule=first)
    t1 = st.add_tasklet('double', {'p'}, {'q'}, 'q = p * 2')
    st.add_memlet_path(st.add_read('a'), me1, t1, dst_conn='p', memlet=dace.Memlet('a[j]'))
    tmp = st.add_access('tmp')
    st.add_memlet_path(t1, mx1, tmp, src_conn='q', memlet=dace.Memlet('tmp[j]'))
    me2, mx2 = st.add_map('second', {'k': '0:M'}, schedule=second)
    t2 = st.add_tasklet('load', {'p'}, {'q'}, 'q = p')
    st.add_memlet_path(tmp, me2, t2, dst_conn='p', memlet=dace.Memlet('tmp[k]'))
    u = st.add_access('u')
    st.add_edge(t2, 'q', u, None, dace.Memlet('u[0]'))
    wb = st.add_write('b')
    if deep:
        leaf = st.add_nested_sdfg(leaf_sdfg(), g, {'x'}, {'y'}, name='leaf')
        st.add_edge(u, None, leaf, 'x', dace.Memlet('u[0]'))
        st.add_memlet_path(leaf, mx2, wb, src_conn='y', memlet=dace.Memlet('b[k]'))
    else:
        t3 = st.add_tasklet('inc', {'p'}, {'q'}, 'q = p + 1')
        st.add_edge(u, None, t3, 'p', dace.Memlet('u[0]'))
        st.add_memlet_path(t3, mx2, wb, src_conn='q', memlet=dace.Memlet('b[k]'))
    return g


def outer_sdfg(name, outer_schedule, node_schedule, first, second, deep, gpu):
    g = dace.SDFG(name)
    storage = ST.GPU_Global if gpu else ST.Default
    g.add_array('A', ['N', 'M'], dace.float64, storage=storage)
    g.add_array('B', ['N', 'M'], dace.float64, storage=storage)
    st = g.add_state('main')
    me, mx = st.add_map('outer', {'i': '0:N'}, schedule=outer_schedule)
    node = st.add_nested_sdfg(body_sdfg(first, second, deep), g, {'a'}, {'b'}, {'M': 'M'}, name='body',
                              schedule=node_schedule)
    st.add_memlet_path(st.add_read('A'), me, node, dst_conn='a', memlet=dace.Memlet('A[i, 0:M]'))
    st.add_memlet_path(node, mx, st.add_write('B'), src_conn='b', memlet=dace.Memlet('B[i, 0:M]'))
    return g


D = S.Default
# (case, outer map schedule, node schedule, first map, second map, nested leaf SDFG, GPU)
CASES = [
    ('multicore', S.CPU_Multicore, S.Sequential, D, D, False, False),
    ('multicore_node', S.CPU_Multicore, S.CPU_Multicore, D, D, False, False),
    ('multicore_deep', S.CPU_Multicore, S.CPU_Multicore, D, D, True, False),
    ('sequential', S.Sequential, S.Sequential, D, D, True, False),
    ('gpu_threadblock', S.GPU_Device, S.GPU_ThreadBlock, D, D, True, True),
    ('gpu_device', S.GPU_Device, S.GPU_Device, D, D, True, True),
    ('gpu_device_sequential', S.GPU_Device, S.GPU_Device, S.Sequential, S.Sequential, True, True),
    ('gpu_device_dynamic', S.GPU_Device, S.GPU_Device, D, S.GPU_ThreadBlock_Dynamic, False, True),
    ('gpu_default', S.GPU_Device, S.GPU_Default, D, S.Sequential, True, True),
]


def write_sdfgz(sdfg, path):
    with gzip.open(path, 'wt') as f:
        json.dump(sdfg.to_json(), f, indent=1)


def main():
    for name, outer, node, first, second, deep, gpu in CASES:
        folder = os.path.join(HERE, name)
        shutil.rmtree(folder, ignore_errors=True)
        os.makedirs(folder)
        g = outer_sdfg(name, outer, node, first, second, deep, gpu)
        g.validate()
        write_sdfgz(g, os.path.join(folder, name + '.sdfgz'))
        # DaCe's transformation on a fresh copy read back from the file (fresh scope caches).
        d = dace.SDFG.from_json(json.loads(json.dumps(g.to_json())))
        applied = d.apply_transformations(InlineSDFG, validate=not gpu)
        assert applied == 1, (name, applied)
        write_sdfgz(d, os.path.join(folder, name + '.dace.sdfgz'))
        if gpu:
            continue
        rng = np.random.default_rng(11)
        a = rng.random((NVAL, MVAL))
        os.makedirs(os.path.join(folder, 'in'))
        os.makedirs(os.path.join(folder, 'out'))
        np.save(os.path.join(folder, 'in', 'A.npy'), a)
        np.save(os.path.join(folder, 'in', 'B.npy'), np.zeros((NVAL, MVAL)))
        np.save(os.path.join(folder, 'out', 'B.npy'), 2 * a + 1)
        case = {'kernel': name, 'dace_version': dace.__version__, 'symbols': {'N': NVAL, 'M': MVAL},
                'inputs': {'A': 'in/A.npy', 'B': 'in/B.npy'}, 'expected_outputs': {'B': 'out/B.npy'},
                'rtol': 1e-12, 'atol': 1e-12}
        with open(os.path.join(folder, 'case.json'), 'w') as f:
            json.dump(case, f, indent=1, sort_keys=True)
            f.write('\n')
        print('wrote', name)


if __name__ == '__main__':
    main()
