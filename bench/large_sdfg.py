#!/usr/bin/env python3
"""Writes an SDFG of about NODES dataflow nodes (default 1,000,000) in DaCe's JSON format,
for the load/validate resource figure of docs/reliability.md.

Usage: large_sdfg.py OUT.sdfg [NODES]. States of 999 nodes each (333 units: access node
A -> tasklet -> access node A, reading A[k] and writing A[k + 1] of a 1000-element array),
chained by unconditional interstate edges."""
import json
import sys

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


def main():
    out = sys.argv[1]
    total = int(sys.argv[2]) if len(sys.argv) > 2 else 1_000_000
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
    print(f"{out}: {sum(len(s['nodes']) for s in states)} nodes in {len(states)} states")


if __name__ == "__main__":
    main()
