"""Writes SDFGs whose map body is a multistate nested SDFG that simplify must clean up inside,
together with what DaCe 1.0.2's simplify makes of them.

Run with DaCe 1.0.2 (scripts/setup.sh puts it in .venv-dace):
    .venv-dace/bin/python tests/data/nested_simplify/generate.py
Each case <case>.sdfgz (built with DaCe's API, validated by DaCe) gets <case>.dace.sdfgz, the
result of DaCe's `SDFG.simplify()` on it. In both, the body is
start (empty) -> s1 (t = 2 a; a dead write of a transient) -> s2 -> ... with a state behind a
False edge and, in `branchy`, an unused symbol:
  - fusable:  s2 writes b = t + 1; DaCe fuses the states, removes the dead ones and inlines
              the then single-state body;
  - branchy:  s2 branches on N to b = t + 1 (N > 5) or b = t - 1, which keeps the body a
              multistate nested SDFG inside the map: DaCe simplifies it where it is.
tests/unit/transform_nested_simplify_test.cpp runs libdace's simplify on each input and compares
the structure (per SDFG: states, nodes, interstate edges, containers, symbols) with DaCe's.
"""
import gzip
import json
import os

import dace

HERE = os.path.dirname(os.path.abspath(__file__))


def body(branchy):
    inner = dace.SDFG('body')
    inner.add_array('a', [1], dace.float64)
    inner.add_array('b', [1], dace.float64)
    inner.add_scalar('t', dace.float64, transient=True)
    inner.add_array('junk', [4], dace.float64, transient=True)
    s0 = inner.add_state('start', is_start_block=True)
    s1 = inner.add_state('s1')
    s2 = inner.add_state('s2')
    dead = inner.add_state('dead')
    inner.add_edge(s0, s1, dace.InterstateEdge())
    inner.add_edge(s1, s2, dace.InterstateEdge())
    t1 = s1.add_tasklet('dbl', {'x'}, {'y'}, 'y = x * 2')
    s1.add_edge(s1.add_read('a'), None, t1, 'x', dace.Memlet('a[0]'))
    s1.add_edge(t1, 'y', s1.add_write('t'), None, dace.Memlet('t[0]'))
    tj = s1.add_tasklet('junkw', {}, {'y'}, 'y = 7')
    s1.add_edge(tj, 'y', s1.add_write('junk'), None, dace.Memlet('junk[1]'))
    updates = [(s2, 'y = x + 1')]
    last = s2
    if branchy:
        inner.add_symbol('N', dace.int64)
        inner.add_symbol('unused_sym', dace.int64)
        big, small, end = inner.add_state('big'), inner.add_state('small'), inner.add_state('end')
        inner.add_edge(s2, big, dace.InterstateEdge('N > 5'))
        inner.add_edge(s2, small, dace.InterstateEdge('N <= 5'))
        inner.add_edge(big, end, dace.InterstateEdge())
        inner.add_edge(small, end, dace.InterstateEdge())
        updates = [(big, 'y = x + 1'), (small, 'y = x - 1')]
        last = end
    inner.add_edge(last, dead, dace.InterstateEdge('False'))
    for st, code in updates:
        tt = st.add_tasklet('upd', {'x'}, {'y'}, code)
        st.add_edge(st.add_read('t'), None, tt, 'x', dace.Memlet('t[0]'))
        st.add_edge(tt, 'y', st.add_write('b'), None, dace.Memlet('b[0]'))
    t3 = dead.add_tasklet('zero', {}, {'y'}, 'y = 0')
    dead.add_edge(t3, 'y', dead.add_write('b'), None, dace.Memlet('b[0]'))
    return inner


def case(name, branchy):
    N = dace.symbol('N')
    sdfg = dace.SDFG(name)
    sdfg.add_array('A', [N], dace.float64)
    sdfg.add_array('B', [N], dace.float64)
    st = sdfg.add_state('main')
    me, mx = st.add_map('m', {'i': '0:N'})
    mapping = {'N': 'N', 'unused_sym': '0'} if branchy else {}
    ns = st.add_nested_sdfg(body(branchy), sdfg, {'a'}, {'b'}, symbol_mapping=mapping)
    st.add_memlet_path(st.add_read('A'), me, ns, dst_conn='a', memlet=dace.Memlet('A[i]'))
    st.add_memlet_path(ns, mx, st.add_write('B'), src_conn='b', memlet=dace.Memlet('B[i]'))
    sdfg.validate()
    return sdfg


def write(sdfg, path):
    with gzip.open(path, 'wt') as f:
        json.dump(sdfg.to_json(), f)


for name, branchy in (('fusable', False), ('branchy', True)):
    g = case(name, branchy)
    write(g, os.path.join(HERE, name + '.sdfgz'))
    g.simplify()
    g.validate()
    write(g, os.path.join(HERE, name + '.dace.sdfgz'))
