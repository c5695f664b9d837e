"""10,000 compile-free calls must not grow the resident set (ctypes buffers, plans, return
arrays and error records are all reused or freed)."""

import gc

import numpy as np

import libdace
from helpers import axpb_sdfg, returning_sdfg


def _rss_kib():
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


def _flat(fn, calls=10_000, limit_kib=4096):
    for _ in range(500):  # warm-up: plans, specializations, allocator pools
        fn()
    gc.collect()
    before = _rss_kib()
    for _ in range(calls):
        fn()
    gc.collect()
    grown = _rss_kib() - before
    assert grown < limit_kib, f"RSS grew by {grown} KiB over {calls} calls"


def test_no_leak_plain_calls():
    with axpb_sdfg("leak") as sdfg, sdfg.compile() as prog:
        a, b = np.ones(16), np.zeros(16)
        fort = np.asfortranarray(np.ones((4, 4)))[:, 0]
        _flat(lambda: prog(A=a, B=b, s=2.0))
        _flat(lambda: prog(fort, b[::4], 2))


def test_no_leak_returns_and_errors():
    with returning_sdfg() as sdfg, sdfg.compile() as prog:
        a = np.ones(32)
        _flat(lambda: prog(A=a))

        def failing():
            try:
                prog(A=np.zeros(3, dtype=np.int32))
            except libdace.InvalidArgumentError:
                pass

        _flat(failing)
