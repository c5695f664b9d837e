#!/usr/bin/env python3
"""peers_runtime.py --rounds: every contender is timed once per round, in the table's order in even
rounds and the reverse in odd ones, and a row reports the median of its rounds' medians (merge_rounds). The contenders are stand-ins that
record the order of the calls and return timings chosen here, so the expected rows are derived by
hand: a drift that makes round 2 slow for everyone must not change who wins."""
import os
import sys
import types

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "bench"))
import peers_runtime  # noqa: E402

failures = []


def expect(what, got, want):
    if got != want:
        failures.append("%s: got %r, want %r" % (what, got, want))


def check_merge():
    m = peers_runtime.merge_rounds
    three = [{"median_ms": 30.0, "min_ms": 25.0, "runs": 10, "check": "ok", "first_ms": 40.0},
             {"median_ms": 10.0, "min_ms": 8.0, "runs": 12, "check": "ok", "first_ms": 11.0},
             {"median_ms": 20.0, "min_ms": 19.0, "runs": 10, "check": "ok", "first_ms": 21.0}]
    r = m(three)
    expect("median of three round medians", r["median_ms"], 20.0)
    expect("least min", r["min_ms"], 8.0)
    expect("calls of all rounds", r["runs"], 32)
    expect("first round's first call", r["first_ms"], 40.0)
    expect("round medians in order", r["round_medians_ms"], [30.0, 10.0, 20.0])
    expect("check of three ok rounds", r["check"], "ok")
    two = m([{"median_ms": 4.0, "min_ms": 3.0, "runs": 5, "check": "ok"},
             {"median_ms": 6.0, "min_ms": 5.0, "runs": 5, "check": "max abs error 1e-3"}])
    expect("median of two rounds (mean of the middle pair)", two["median_ms"], 5.0)
    expect("a round's mismatch is the row's", two["check"], "max abs error 1e-3")
    part = m([{"error": "timeout"}, {"median_ms": 7.0, "min_ms": 6.0, "runs": 3, "check": "ok"}])
    expect("rounds that ran", (part["median_ms"], part["rounds_failed"]), (7.0, 1))
    none = m([{"error": "exit 1: boom"}, {"error": "timeout"}])
    expect("no round ran: the first error", none, {"error": "exit 1: boom"})
    one = m([{"median_ms": 2.0, "min_ms": 1.5, "runs": 10, "check": "ok", "compile_ms": 9.0}])
    expect("one round is passed through", one, {"median_ms": 2.0, "min_ms": 1.5, "runs": 10, "check": "ok",
                                                "compile_ms": 9.0})


def check_alternation():
    calls = []
    # Round 2 runs 3x slower for everyone (a drift of the machine); libdace (b) is the fastest in
    # both rounds, NumPy the slowest, Numba's numba_np variant faster than numba_n in both.
    base = {"libdace_a": 12.0, "libdace_b": 10.0, "numpy": 30.0, "numba:numba_n": 16.0, "numba:numba_np": 14.0, "dace": 20.0}

    def timing(who):
        calls.append(who)
        slow = 3.0 if calls.count(who) == 2 else 1.0
        t = base[who] * slow
        return {"median_ms": t, "min_ms": t - 1.0, "runs": 10, "check": "ok"}

    def libdace(a, sdfg, cdir):
        return timing("libdace_a" if sdfg.endswith(".opt.sdfg") else "libdace_b")

    def peer(a, kernel, worker, variant, tmp, cdir):
        return timing({"numpy": "numpy", "numba": "numba:" + str(variant), "dace": "dace"}[worker])

    saved = {n: getattr(peers_runtime, n) for n in ("libdace", "peer", "load_case", "bench_info")}
    saved_run, saved_glob = peers_runtime.subprocess.run, peers_runtime.glob.glob
    try:
        peers_runtime.libdace, peers_runtime.peer = libdace, peer
        peers_runtime.load_case = lambda cdir: {"inputs": {}}
        peers_runtime.bench_info = lambda npbench, kernel: {"relative_path": "k", "module_name": "k"}
        peers_runtime.subprocess.run = lambda *args, **kw: types.SimpleNamespace(returncode=0, stdout="", stderr="")
        peers_runtime.glob.glob = lambda pattern: ["/npb/k/k_numba_np.py", "/npb/k/k_numba_n.py"]
        a = types.SimpleNamespace(corpus="/corpus", npbench="/npb", dace_cli="dace", timeout=1, rounds=2)
        row = peers_runtime.bench_kernel(a, "k", "/tmp/unused", None, {"k": {"median_ms": 1.0}})
    finally:
        for n, f in saved.items():
            setattr(peers_runtime, n, f)
        peers_runtime.subprocess.run, peers_runtime.glob.glob = saved_run, saved_glob
    order = ["libdace_a", "libdace_b", "numpy", "numba:numba_n", "numba:numba_np", "dace"]
    expect("calls alternate round by round, odd rounds reversed", calls, order + order[::-1])
    # Median of two rounds = mean of t and 3t = 2t.
    for key, who in (("libdace_a", "libdace_a"), ("libdace_b", "libdace_b"), ("numpy", "numpy"), ("dace", "dace")):
        expect(key + " median", row[key]["median_ms"], 2.0 * base[who])
        expect(key + " min", row[key]["min_ms"], base[who] - 1.0)
        expect(key + " round medians", row[key]["round_medians_ms"], [base[who], 3.0 * base[who]])
    expect("fastest Numba variant", (row["numba"]["variant"], row["numba"]["median_ms"]), ("numba_np", 28.0))
    expect("every variant kept", sorted(row["numba_all"]), ["numba_n", "numba_np"])


def check_render_names_failed_rounds():
    # A contender that failed in one of three rounds: its time is the other rounds' median, and
    # the table must say so rather than look clean.
    ok = {"median_ms": 2.0, "min_ms": 1.0, "runs": 10, "check": "ok"}
    row = {"kernel": "k", "sizes": {"N": 4}, "libdace_a": dict(ok), "libdace_b": dict(ok, rounds_failed=1),
           "numpy": dict(ok), "numba": dict(ok, variant="numba_n"), "numba_all": {"numba_n": dict(ok)},
           "dace": dict(ok)}
    a = types.SimpleNamespace(rounds=3, size="S", compile_reps=1, reps=10, min_ms=200.0)

    def table(r):
        out = peers_runtime.render([r], a)
        return "\n".join(out) if isinstance(out, list) else out
    expect("a failed round is in the notes", "(b) failed in 1 of 3 rounds" in table(row), True)
    expect("no failed round, no note", "failed in" in table(dict(row, libdace_b=dict(ok))), False)


def main():
    try:
        import numpy  # noqa: F401  (bench_kernel loads NumPy)
    except ImportError:
        print("SKIP: this Python has no NumPy (run it with .venv-dace/bin/python)")
        return 77
    check_merge()
    check_alternation()
    check_render_names_failed_rounds()
    for f in failures:
        print("FAIL", f)
    print("%d failure(s)" % len(failures))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
