#!/usr/bin/env python3
"""Instrumentation end to end (docs/instrumentation.md), through the `dace` CLI:

1. `dace report` on a hand-written report: count/min/median/mean/max/% of program equal the
   statistics computed by hand for that file.
2. heat_3d (simp), timed with `--instrument program,maps`: the outputs still match NumPy (the
   case's stored outputs), and the maps' times add up to the program's time within 10%
   (sum <= program, sum >= 90% of it; heat_3d's time is its stencil maps').
3. gemm (simp) with `--instrument all`: outputs match NumPy, the report names the program.
4. A DaCe-built SDFG whose state s0 is followed by a ReturnBlock and then a state s1, timed
   with `program,states`: the report holds exactly the program and s0 (s1 never runs), s0
   inside the program's span, and A[0] = 1 while A[1] keeps its value (hand-derived).
5. DaCe 1.0.2's own reader (dace.codegen.instrumentation.report.InstrumentationReport) loads
   every report and finds our elements under DaCe's (cfg_id, state_id, id) keys. Without the
   DaCe venv this part is skipped with a reason (exit 77 after the other checks passed).

usage: instrumentation_check.py DACE_CLI VENV_PYTHON CORPUS_DIR WORK_DIR FIXTURE_REPORT
"""
import glob
import json
import os
import shutil
import struct
import subprocess
import sys


def run(cmd, **kw):
    p = subprocess.run(cmd, capture_output=True, text=True, **kw)
    if p.returncode != 0:
        sys.exit(f"FAIL: {' '.join(cmd)} exited {p.returncode}\n{p.stdout}\n{p.stderr}")
    return p.stdout


def close(a, b, tol=1e-9):
    return abs(a - b) <= tol * max(1.0, abs(b))


def check_known_report(cli, fixture):
    rows = json.loads(run([cli, "report", fixture, "--json"]))
    by_name = {r["name"]: r for r in rows}
    assert set(by_name) == {"SDFG prog", "State s", "Map m"}, by_name.keys()  # the counter is no duration
    m = by_name["Map m"]
    # Durations 1, 3, 2, 6 ms: sorted 1 2 3 6 -> median (2 + 3) / 2; mean 12 / 4; total 12 of 20 ms.
    expected = {"count": 4, "min_ms": 1.0, "median_ms": 2.5, "mean_ms": 3.0, "max_ms": 6.0, "total_ms": 12.0,
                "percent_of_program": 60.0}
    for k, v in expected.items():
        assert close(m[k], v), f"Map m {k}: {m[k]} != {v}"
    assert (m["cfg_id"], m["state_id"], m["id"]) == (0, 0, 3)
    s = by_name["State s"]
    assert s["count"] == 1 and close(s["mean_ms"], 15.0) and close(s["percent_of_program"], 75.0), s
    p = by_name["SDFG prog"]
    assert close(p["percent_of_program"], 100.0) and (p["state_id"], p["id"]) == (-1, -1), p
    text = run([cli, "report", fixture])
    line = next(ln for ln in text.splitlines() if "Map m" in ln)
    assert line.split()[-6:] == ["4", "1.000", "2.500", "3.000", "6.000", "60.0"], line
    assert "program time: 20.000 ms" in text, text
    print("ok: dace report statistics of the hand-written report")


def timed_run(cli, corpus, work, kernel, selection):
    out = os.path.join(work, kernel)
    shutil.rmtree(out, ignore_errors=True)
    folder = os.path.join(corpus, kernel)
    text = run([cli, "run", os.path.join(folder, f"{kernel}.simp.sdfg"), "--case", os.path.join(folder, "case.json"),
                "--instrument", selection, "--instrument-dir", out])
    reports = sorted(glob.glob(os.path.join(out, "report-*.json")))
    assert len(reports) == 1, f"{kernel}: one call, one report; found {reports}"
    assert "instrumentation report (last call): " + reports[0] in text, text
    with open(reports[0]) as f:
        return reports[0], json.load(f)


def check_heat_3d(cli, corpus, work):
    path, report = timed_run(cli, corpus, work, "heat_3d", "program,maps")
    events = report["traceEvents"]
    program = [e for e in events if e["name"].startswith("SDFG ")]
    maps = [e for e in events if e["name"].startswith("Map ")]
    assert len(program) == 1 and maps, [e["name"] for e in events]
    total = program[0]["dur"]
    summed = sum(e["dur"] for e in maps)
    share = summed / total
    assert summed <= total, f"maps {summed} us > program {total} us"
    assert share >= 0.9, f"maps cover only {share:.1%} of the program ({summed} of {total} us)"
    print(f"ok: heat_3d maps {summed / 1000:.3f} ms of program {total / 1000:.3f} ms ({share:.1%}); outputs match")
    return path, report


def check_gemm(cli, corpus, work):
    path, report = timed_run(cli, corpus, work, "gemm", "all")
    names = [e["name"] for e in report["traceEvents"]]
    assert any(n.startswith("SDFG ") for n in names), names
    assert any(n.startswith("State ") for n in names), names
    print(f"ok: gemm timed with all ({len(names)} events); outputs match")
    return path, report


DACE_READER = r"""
import json, sys
from dace.codegen.instrumentation.report import InstrumentationReport
for path in sys.argv[1:]:
    ours = json.load(open(path))
    rep = InstrumentationReport(path)
    assert rep.sdfg_hash == ours["sdfgHash"], (rep.sdfg_hash, path)
    assert len(rep.events) == len(ours["traceEvents"]), path
    for e in ours["traceEvents"]:
        if e.get("ph") != "X":
            continue
        a = e["args"]
        uuid = (a["cfg_id"], a.get("state_id", -1), a.get("id", -1))
        assert uuid in rep.durations, (uuid, list(rep.durations))
        # DaCe groups durations by thread: each event must be found under its own tid.
        times = rep.durations[uuid][e["name"]][e["tid"]]
        assert any(abs(t - e["dur"] / 1000) < 1e-9 for t in times), (e, times)
    str(rep)  # DaCe's own table renders
    print("ok: DaCe 1.0.2 InstrumentationReport reads", path, "with", len(rep.durations), "elements")
"""


RETURN_SDFG = r"""
import sys
import dace
from dace.sdfg.state import ReturnBlock
sdfg = dace.SDFG("ret_timed")
sdfg.add_array("A", [4], dace.float64)
s0 = sdfg.add_state("s0", is_start_block=True)
t = s0.add_tasklet("one", {}, {"o"}, "o = 1.0")
s0.add_edge(t, "o", s0.add_write("A"), None, dace.Memlet("A[0]"))
ret = ReturnBlock("ret")
sdfg.add_node(ret)
s1 = sdfg.add_state("s1")
t = s1.add_tasklet("two", {}, {"o"}, "o = 2.0")
s1.add_edge(t, "o", s1.add_write("A"), None, dace.Memlet("A[1]"))
sdfg.add_edge(s0, ret, dace.InterstateEdge())
sdfg.add_edge(ret, s1, dace.InterstateEdge())
sdfg.save(sys.argv[1])
"""


def check_return_block(cli, venv_python, work):
    out = os.path.join(work, "ret_timed")
    shutil.rmtree(out, ignore_errors=True)
    os.makedirs(out)
    sdfg = os.path.join(out, "ret_timed.sdfg")
    run([venv_python, "-c", RETURN_SDFG, sdfg])
    # A starts as [5, 5, 5, 5] (NumPy's .npy written by hand: header, then 4 doubles).
    a_in = os.path.join(out, "A.npy")
    header = "{'descr': '<f8', 'fortran_order': False, 'shape': (4,), }"
    header += " " * (127 - 10 - len(header)) + "\n"
    with open(a_in, "wb") as f:
        f.write(b"\x93NUMPY\x01\x00" + len(header).to_bytes(2, "little") + header.encode())
        f.write(struct.pack("<4d", 5, 5, 5, 5))
    results = os.path.join(out, "results")
    run([cli, "run", sdfg, "-i", "A=" + a_in, "-o", results, "--instrument", "program,states",
         "--instrument-dir", out])
    with open(os.path.join(results, "A.npy"), "rb") as f:
        data = f.read()
    values = struct.unpack("<4d", data[-32:])
    assert values == (1.0, 5.0, 5.0, 5.0), f"A after the call: {values} (s0 writes A[0] = 1; s1 must not run)"
    reports = sorted(glob.glob(os.path.join(out, "report-*.json")))
    assert len(reports) == 1, reports
    with open(reports[0]) as f:
        events = json.load(f)["traceEvents"]
    by_name = {e["name"]: e for e in events}
    assert sorted(by_name) == ["SDFG ret_timed", "State s0"], sorted(by_name)
    p, s0 = by_name["SDFG ret_timed"], by_name["State s0"]
    assert p["ts"] <= s0["ts"] and s0["ts"] + s0["dur"] <= p["ts"] + p["dur"], (p, s0)
    assert p["tid"] == 0 and s0["tid"] == 0, (p, s0)
    assert s0["args"] == {"cfg_id": 0, "state_id": 0}, s0
    print("ok: a state followed by a return block is timed; the state after it is not run")
    return reports[0]


def main():
    if len(sys.argv) != 6:
        sys.exit(__doc__)
    cli, venv_python, corpus, work, fixture = sys.argv[1:]
    os.makedirs(work, exist_ok=True)
    check_known_report(cli, fixture)
    if not os.path.isdir(os.path.join(corpus, "heat_3d")):
        print(f"SKIP: corpus not found at {corpus}")
        return 77
    heat_path, _ = check_heat_3d(cli, corpus, work)
    gemm_path, _ = check_gemm(cli, corpus, work)
    if not os.path.exists(venv_python):
        print(f"SKIP: DaCe's report reader not checked: no DaCe venv at {venv_python}")
        return 77
    ret_path = check_return_block(cli, venv_python, work)
    out = run([venv_python, "-c", DACE_READER, heat_path, gemm_path, ret_path, fixture])
    print(out.strip())
    return 0


if __name__ == "__main__":
    sys.exit(main())
