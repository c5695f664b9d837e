#!/usr/bin/env python3
"""Hostile but syntactically plausible `.sdfg` files, generated at test time (some are many
megabytes, so they are not committed). Each kind stresses one bound of the reader:

  deep_json     an unmodeled attribute holding JSON arrays nested DEPTH levels
  deep_sdfg     a nested SDFG inside a nested SDFG ... DEPTH levels
  deep_region   control-flow regions nested DEPTH levels
  deep_maps     DEPTH map scopes nested in one state, memlets through all of them
  deep_maps_dup the same with one duplicated node id
  deep_maps_neg the same with a negative memlet start
  deep_expr     a memlet subset expression with DEPTH nested parentheses
  deep_code     a tasklet whose Python code nests DEPTH parentheses

usage: hostile_gen.py KIND DEPTH OUT.sdfg [--gzip]   (stdlib only)
"""
import gzip
import json
import sys

DACE_VERSION = "1.0.2"


def sdfg_head(name, arrays, symbols=None):
    return {"type": "SDFG", "attributes": {"name": name, "arg_names": [], "_arrays": arrays,
                                           "symbols": symbols or {}}, "dace_version": DACE_VERSION}


def array(shape, transient=False):
    a = {"dtype": "float64", "shape": [str(s) for s in shape]}
    if transient:
        a["transient"] = True
    return {"type": "Array", "attributes": a}


def memlet(data, subset, volume="1"):
    ranges = [{"start": s, "end": e, "step": "1", "tile": "1"} for s, e in subset]
    return {"type": "Memlet", "attributes": {"volume": volume, "data": data,
                                             "subset": {"type": "Range", "ranges": ranges}}}


def edge(src, dst, m, src_conn=None, dst_conn=None):
    return {"type": "MultiConnectorEdge", "attributes": {"data": m}, "src": str(src), "dst": str(dst),
            "src_connector": src_conn, "dst_connector": dst_conn}


def state(label, nodes, edges):
    return {"type": "SDFGState", "label": label, "id": 0, "nodes": nodes, "edges": edges, "attributes": {}}


def leaf_sdfg(name):
    """B[0] = A[0] + 1: the innermost, valid body of the nesting kinds."""
    nodes = [{"type": "AccessNode", "label": "A", "attributes": {"data": "A"}, "id": 0},
             {"type": "Tasklet", "label": "t", "id": 1,
              "attributes": {"code": {"string_data": "b = a + 1", "language": "Python"},
                             "in_connectors": {"a": None}, "out_connectors": {"b": None}}},
             {"type": "AccessNode", "label": "B", "attributes": {"data": "B"}, "id": 2}]
    edges = [edge(0, 1, memlet("A", [("0", "0")]), None, "a"), edge(1, 2, memlet("B", [("0", "0")]), "b", None)]
    j = sdfg_head(name, {"A": array([1]), "B": array([1])})
    j["nodes"] = [state("s", nodes, edges)]
    j["edges"] = []
    j["start_block"] = 0
    return j


def wrap_text(depth, inner, before, after):
    """`before` * depth + inner + `after` * depth, without Python's recursion limit."""
    return before * depth + inner + after * depth


def deep_json(depth):
    j = leaf_sdfg("deep_json")
    j["attributes"]["unmodeled_property"] = "@@"
    text = json.dumps(j)
    return text.replace('"@@"', "[" * depth + "]" * depth)


def deep_sdfg(depth):
    inner = json.dumps(leaf_sdfg("level"))
    head = sdfg_head("level", {"A": array([1]), "B": array([1])})
    open_ = json.dumps(head)[:-1] + ', "start_block": 0, "edges": [], "nodes": [' \
        '{"type": "SDFGState", "label": "s", "id": 0, "edges": [' \
        + json.dumps(edge(0, 2, memlet("A", [("0", "0")]), None, "A")) + "," \
        + json.dumps(edge(2, 1, memlet("B", [("0", "0")]), "B", None)) + '], "nodes": [' \
        '{"type": "AccessNode", "label": "A", "id": 0, "attributes": {"data": "A"}},' \
        '{"type": "AccessNode", "label": "B", "id": 1, "attributes": {"data": "B"}},' \
        '{"type": "NestedSDFG", "label": "n", "id": 2, "attributes": {"in_connectors": {"A": null},' \
        ' "out_connectors": {"B": null}, "sdfg": '
    close = "}}]}]}"
    return wrap_text(depth, inner, open_, close)


def deep_region(depth):
    leaf = json.dumps(state("s", [], []))
    open_ = '{"type": "ControlFlowRegion", "label": "r", "attributes": {}, "edges": [], "start_block": 0, "nodes": ['
    close = "]}"
    body = wrap_text(depth, leaf, open_, close)
    head = json.dumps(sdfg_head("deep_region", {}))[:-1]
    return head + ', "start_block": 0, "edges": [], "nodes": [' + body + "]}"


def deep_maps(depth, variant=""):
    """Map scopes nested `depth` levels around one tasklet; one memlet path through all."""
    n = depth
    nodes = [{"type": "AccessNode", "label": "A", "attributes": {"data": "A"}, "id": 0},
             {"type": "AccessNode", "label": "B", "attributes": {"data": "B"}, "id": 1},
             {"type": "Tasklet", "label": "t", "id": 2,
              "attributes": {"code": {"string_data": "b = a", "language": "Python"},
                             "in_connectors": {"a": None}, "out_connectors": {"b": None}}}]
    entry = lambda k: 3 + 2 * k  # noqa: E731
    exit_ = lambda k: 4 + 2 * k  # noqa: E731
    for k in range(n):
        nodes.append({"type": "MapEntry", "label": "m%d" % k, "id": entry(k),
                      "scope_entry": str(entry(k - 1)) if k else None, "scope_exit": str(exit_(k)),
                      "attributes": {"label": "m%d" % k, "params": ["i%d" % k],
                                     "range": {"type": "Range", "ranges": [{"start": "0", "end": "0", "step": "1", "tile": "1"}]},
                                     "in_connectors": {"IN_A": None}, "out_connectors": {"OUT_A": None}}})
        nodes.append({"type": "MapExit", "label": "m%d" % k, "id": exit_(k),
                      "scope_entry": str(entry(k)), "scope_exit": str(exit_(k)),
                      "attributes": {"in_connectors": {"IN_B": None}, "out_connectors": {"OUT_B": None}}})
    start = "-1" if variant == "neg" else "0"
    ma = lambda: memlet("A", [(start, "0")])  # noqa: E731
    mb = lambda: memlet("B", [("0", "0")])  # noqa: E731
    edges = [edge(0, entry(0), ma(), None, "IN_A")]
    for k in range(n - 1):
        edges.append(edge(entry(k), entry(k + 1), ma(), "OUT_A", "IN_A"))
    edges.append(edge(entry(n - 1), 2, ma(), "OUT_A", "a"))
    edges.append(edge(2, exit_(n - 1), mb(), "b", "IN_B"))
    for k in range(n - 1, 0, -1):
        edges.append(edge(exit_(k), exit_(k - 1), mb(), "OUT_B", "IN_B"))
    edges.append(edge(exit_(0), 1, mb(), "OUT_B", None))
    if variant == "dup":
        nodes[len(nodes) // 2]["id"] = nodes[len(nodes) // 2 + 1]["id"]
    j = sdfg_head("deep_maps", {"A": array([1]), "B": array([1])})
    j["nodes"] = [state("s", nodes, edges)]
    j["edges"] = []
    j["start_block"] = 0
    return json.dumps(j)


def deep_expr(depth):
    j = leaf_sdfg("deep_expr")
    j["nodes"][0]["edges"][0]["attributes"]["data"]["attributes"]["subset"]["ranges"][0]["start"] = "@@"
    return json.dumps(j).replace('"@@"', '"' + "(" * depth + "0" + ")" * depth + '"')


def deep_code(depth):
    j = leaf_sdfg("deep_code")
    j["nodes"][0]["nodes"][1]["attributes"]["code"]["string_data"] = "@@"
    return json.dumps(j).replace('"@@"', '"b = ' + "(" * depth + "a" + ")" * depth + '"')


KINDS = {
    "deep_json": deep_json, "deep_sdfg": deep_sdfg, "deep_region": deep_region, "deep_maps": deep_maps,
    "deep_maps_dup": lambda d: deep_maps(d, "dup"), "deep_maps_neg": lambda d: deep_maps(d, "neg"),
    "deep_expr": deep_expr, "deep_code": deep_code,
}


def main(argv):
    if len(argv) < 4 or argv[1] not in KINDS:
        print(__doc__, file=sys.stderr)
        return 2
    text = KINDS[argv[1]](int(argv[2])).encode()
    if "--gzip" in argv[4:]:
        text = gzip.compress(text, mtime=0)
    with open(argv[3], "wb") as f:
        f.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
