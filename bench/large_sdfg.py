#!/usr/bin/env python3
"""Writes an SDFG of about NODES dataflow nodes (default 1,000,000) in DaCe's JSON format,
for the load/validate resource figure of docs/reliability.md, and measures `dace validate` on
such files.

Usage:
  large_sdfg.py OUT.sdfg [NODES]
  large_sdfg.py --bench [--nodes 100000,1000000] [--dir DIR] [--repeat K] DACE_CLI [DACE_CLI ...]

The first form writes one file. States of 999 nodes each (333 units: access node A -> tasklet ->
access node A, reading A[k] and writing A[k + 1] of a 1000-element array), chained by
unconditional interstate edges.

--bench writes one file per node count (into DIR, default a temporary folder, reused when it
is there) and runs `DACE_CLI validate FILE` for every given CLI binary (e.g. main's build and
a branch's), interleaved, K times each (default 1), in the same run so the figures compare:
user + system CPU seconds and peak RSS (ru_maxrss of the child, as `/usr/bin/time -v` reports
it), best of K. The CPU time is the comparable figure on a loaded machine; wall time is
printed too. Exit 1 when a run does not say "valid"."""
import json
import os
import subprocess
import sys
import tempfile
import time

PER_STATE_UNITS = 333


def memlet(index, src):
    rng = {"type": "Range", "ranges": [{"start": str(index), "end": str(index), "step": "1", "tile": "1"}]}
    return {"type": "Memlet", "attributes": {"volume": "1", "subset": rng, "data": "A", "debuginfo": None,
                                             "src_subset": rng if src else None, "dst_subset": None if src else rng,
                                             "is_data_src": src, "num_accesses": "1"}}


def access(nid):
    return {"type": "AccessNode", "label": "A", "attributes": {"debuginfo": None, "data": "A"}, "id": nid,
            "scope_entry": None, "scope_exit": None}


def tasklet(nid):
    return {"type": "Tasklet", "label": f"t{nid}",
            "attributes": {"code": {"string_data": "y = x + 1", "language": "Python"}, "debuginfo": None,
                           "label": f"t{nid}", "in_connectors": {"x": None}, "out_connectors": {"y": None}},
            "id": nid, "scope_entry": None, "scope_exit": None}


def state(sid, units):
    nodes, edges = [], []
    for u in range(units):
        a, t, b = 3 * u, 3 * u + 1, 3 * u + 2
        k = u % 999
        nodes += [access(a), tasklet(t), access(b)]
        edges.append({"type": "MultiConnectorEdge", "attributes": {"data": memlet(k, True)}, "src": str(a),
                      "dst": str(t), "dst_connector": "x", "src_connector": None})
        edges.append({"type": "MultiConnectorEdge", "attributes": {"data": memlet(k + 1, False)}, "src": str(t),
                      "dst": str(b), "dst_connector": None, "src_connector": "y"})
    return {"type": "SDFGState", "label": f"s{sid}", "id": sid, "collapsed": False,
            "scope_dict": {"-1": list(range(3 * units))}, "nodes": nodes, "edges": edges, "attributes": {}}


def write_file(out, total):
    units = (total + 2) // 3
    states = []
    sid = 0
    while units > 0:
        n = min(PER_STATE_UNITS, units)
        states.append(state(sid, n))
        units -= n
        sid += 1
    cond = {"string_data": "1", "language": "Python"}
    iedges = [{"type": "Edge", "attributes": {"data": {"type": "InterstateEdge", "attributes": {
        "assignments": {}, "condition": cond}, "label": ""}}, "src": str(i), "dst": str(i + 1)}
        for i in range(len(states) - 1)]
    arr = {"type": "Array", "attributes": {"strides": ["1"], "total_size": "1000", "offset": ["0"],
                                           "optional": False, "dtype": "float64", "shape": ["1000"],
                                           "debuginfo": None}}
    sdfg = {"type": "SDFG", "attributes": {"name": "large", "_arrays": {"A": arr}, "debuginfo": None},
            "nodes": states, "edges": iedges, "collapsed": False, "label": "", "id": None, "cfg_list_id": 0,
            "start_block": 0, "dace_version": "1.0.2"}
    with open(out, "w", encoding="utf-8") as fh:
        json.dump(sdfg, fh, separators=(",", ":"))
    return sum(len(s['nodes']) for s in states), len(states)


def measure(cli, path):
    """(cpu seconds, peak RSS in MB, wall seconds, ok) of `cli validate path`."""
    start = time.monotonic()
    proc = subprocess.Popen([cli, "validate", path], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.monotonic() - start
    out = proc.stdout.read().decode(errors="replace")
    proc.stdout.close()
    proc.stderr.close()
    proc.returncode = os.waitstatus_to_exitcode(status)
    ok = proc.returncode == 0 and out.strip().endswith(": valid")
    return usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024.0, wall, ok


def bench(argv):
    counts, folder, repeat, clis = [100_000, 1_000_000], None, 1, []
    i = 0
    while i < len(argv):
        if argv[i] == "--nodes":
            counts = [int(x) for x in argv[i + 1].split(",")]
            i += 2
        elif argv[i] == "--dir":
            folder = argv[i + 1]
            i += 2
        elif argv[i] == "--repeat":
            repeat = int(argv[i + 1])
            i += 2
        else:
            clis.append(argv[i])
            i += 1
    if not clis:
        sys.exit("usage: large_sdfg.py --bench [--nodes N1,N2] [--dir DIR] [--repeat K] DACE_CLI [DACE_CLI ...]")
    folder = folder or tempfile.mkdtemp(prefix="large_sdfg_")
    os.makedirs(folder, exist_ok=True)
    failed = False
    print("| nodes | file MB | dace CLI | CPU s (user+sys) | peak RSS MB | wall s |")
    print("|---|---|---|---|---|---|")
    for total in counts:
        path = os.path.join(folder, f"large_{total}.sdfg")
        if not os.path.exists(path):
            # In a child process: building the file takes gigabytes here, and a child forked
            # from a big process reports the parent's size as its own peak (ru_maxrss counts
            # the memory it had before exec), which would be every measurement's figure.
            subprocess.run([sys.executable, os.path.abspath(__file__), path, str(total)], check=True,
                           stdout=subprocess.DEVNULL)
        size_mb = os.path.getsize(path) / 1e6
        best = {cli: None for cli in clis}
        for _ in range(repeat):
            for cli in clis:  # interleaved, so a noisy neighbour hurts every contender
                cpu, rss, wall, ok = measure(cli, path)
                failed = failed or not ok
                if best[cli] is None or cpu < best[cli][0]:
                    best[cli] = (cpu, rss, wall, ok)
        for cli in clis:
            cpu, rss, wall, ok = best[cli]
            note = "" if ok else " (FAILED)"
            print(f"| {total:,} | {size_mb:.0f} | {cli}{note} | {cpu:.2f} | {rss:.0f} | {wall:.2f} |", flush=True)
    return 1 if failed else 0


def main():
    if len(sys.argv) > 1 and sys.argv[1] == "--bench":
        sys.exit(bench(sys.argv[2:]))
    out = sys.argv[1]
    total = int(sys.argv[2]) if len(sys.argv) > 2 else 1_000_000
    nodes, states = write_file(out, total)
    print(f"{out}: {nodes} nodes in {states} states")


if __name__ == "__main__":
    main()
