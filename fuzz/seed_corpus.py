#!/usr/bin/env python3
"""Seed corpora for the fuzz targets from DaCe-written SDFGs (scripts/fuzz.sh).

Usage: seed_corpus.py CORPUS_DIR OUT_DIR. Writes OUT_DIR/<target>/<n> files: whole .sdfg
files (sdfg_reader), symbolic expressions (shapes, strides, range bounds, interstate
conditions and assignments: symbolic), subsets and memlets as DaCe prints them (memlet),
and Python tasklet code (tasklet). Duplicates are dropped; at most 400 seeds per target."""
import hashlib
import json
import os
import sys


def walk(node, found):
    if isinstance(node, dict):
        t = node.get("type")
        if t == "Range" and isinstance(node.get("ranges"), list):
            dims = []
            for r in node["ranges"]:
                if isinstance(r, dict):
                    found["symbolic"].update(str(r.get(k, "")) for k in ("start", "end", "step"))
                    dims.append(f"{r.get('start')}:{r.get('end')} + 1:{r.get('step')}")
            found["memlet"].add(", ".join(dims))
        if t == "Memlet":
            a = node.get("attributes", {})
            sub = a.get("subset") or {}
            rs = sub.get("ranges") if isinstance(sub, dict) else None
            if a.get("data") and isinstance(rs, list):
                dims = ", ".join(f"{r.get('start')}:{r.get('end')} + 1" for r in rs if isinstance(r, dict))
                found["memlet"].add(f"{a['data']}[{dims}]")
        code = node.get("code")
        if isinstance(code, dict) and code.get("language") == "Python" and isinstance(code.get("string_data"), str):
            found["tasklet"].add(code["string_data"])
        for k in ("shape", "strides"):
            if isinstance(node.get(k), list):
                found["symbolic"].update(str(x) for x in node[k])
        for k in ("condition",):
            c = node.get(k)
            if isinstance(c, dict) and isinstance(c.get("string_data"), str):
                found["symbolic"].add(c["string_data"])
        if isinstance(node.get("assignments"), dict):
            found["symbolic"].update(str(v) for v in node["assignments"].values())
        for v in node.values():
            walk(v, found)
    elif isinstance(node, list):
        for v in node:
            walk(v, found)


def main():
    src, out = sys.argv[1], sys.argv[2]
    found = {"symbolic": set(), "memlet": set(), "tasklet": set()}
    sdfgs = []
    for root, _, files in os.walk(src):
        for f in sorted(files):
            if f.endswith(".sdfg"):
                path = os.path.join(root, f)
                sdfgs.append(path)
                try:
                    with open(path, encoding="utf-8") as fh:
                        walk(json.load(fh), found)
                except (OSError, ValueError):
                    pass
    if not sdfgs:
        print(f"seed_corpus: no .sdfg files under {src}", file=sys.stderr)
    seeds = {k: sorted(v - {""}) for k, v in found.items()}
    seeds["sdfg_reader"] = []
    for path in sorted(sdfgs):
        if os.path.getsize(path) <= 200_000:  # large seeds slow every execution down
            with open(path, encoding="utf-8", errors="replace") as fh:
                seeds["sdfg_reader"].append(fh.read())
    for target, items in seeds.items():
        d = os.path.join(out, target)
        os.makedirs(d, exist_ok=True)
        for text in items[:400]:
            name = hashlib.sha1(text.encode()).hexdigest()[:16]
            with open(os.path.join(d, name), "w", encoding="utf-8") as fh:
                fh.write(text)
    print("seeds: " + ", ".join(f"{k} {min(len(v), 400)}" for k, v in sorted(seeds.items())))


if __name__ == "__main__":
    main()
