#!/usr/bin/env python3
"""The content hash is a function of the SDFG, not of how it was read: for every `.sdfg` /
`.sdfgz` under the given folders,

  dace hash FILE == dace hash (dace convert FILE)          (DaCe's dialect vs libdace's)
  dace convert (dace convert FILE) is byte-identical to dace convert FILE   (a fixed point)

in pretty and compact form. Files `dace hash` refuses (exit 2) are listed and skipped: those
are the reader's business, tested elsewhere. A file whose hash changes is a determinism bug of
the reader or writer (src/ir/json).

With --mutants N, also N mutated copies of those files (seeded, so every run checks the same
ones): one to three JSON values replaced, deleted or duplicated, as a fuzzer would. Most are
refused; the ones that load must round-trip like the originals (a hostile `total_size: 0`
once came back as the shape's extent and changed the hash).

Budgets are CPU time, not wall time (as in hostile_cli.sh): on the shared, loaded machine a
run of ~2,700 short commands may wait minutes for a core, but the CPU it uses stays put.
Each command runs under RLIMIT_CPU (CPU_LIMIT seconds, user + system; the kernel ends it
with SIGXCPU), and the run fails when all commands together used more than TOTAL_CPU_BUDGET
seconds (about 4x what they use today: a reader or writer that turned quadratic would show
there). A wall-clock limit per command (HANG_LIMIT) only catches a command that blocks
without using CPU; ctest's TIMEOUT is the same kind of backstop.

usage: hash_roundtrip.py DACE TMPDIR DIR... [--jobs N] [--mutants N]   (stdlib only)
"""
import concurrent.futures
import gzip
import json
import os
import random
import pathlib
import resource
import shutil
import signal
import subprocess
import sys

CPU_LIMIT = int(os.environ.get("HASH_ROUNDTRIP_CPU_LIMIT", "20"))  # CPU s per command; the largest file takes < 1
TOTAL_CPU_BUDGET = float(os.environ.get("HASH_ROUNDTRIP_CPU_BUDGET", "240"))  # CPU s, all commands
HANG_LIMIT = 600  # wall s per command: only a command that blocks without using CPU gets there


def dace(exe, *args):
    # The limit is set by a shell that then execs the tool (no preexec_fn: the commands are
    # started from several threads).
    cmd = ["/bin/sh", "-c", f'ulimit -S -t {CPU_LIMIT} && exec "$0" "$@"', exe, *args]
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=HANG_LIMIT)
    except subprocess.TimeoutExpired:
        return 124, "", f"blocked for {HANG_LIMIT} s of wall time"
    if p.returncode in (-signal.SIGXCPU, 128 + signal.SIGXCPU):
        return p.returncode, "", f"used more than {CPU_LIMIT} s of CPU (RLIMIT_CPU)"
    return p.returncode, p.stdout.strip(), p.stderr.strip()


def check(exe, tmp, index, path):
    """Problems found for one file (empty: fine), or None when the file is refused."""
    rc, h0, err = dace(exe, "hash", str(path))
    if rc == 2:
        return None
    if rc != 0:
        return [f"hash: exit {rc}: {err}"]
    problems = []
    for style in ("pretty", "compact"):
        opt = ["--compact"] if style == "compact" else []
        once, twice = tmp / f"{index}.{style}.1.sdfg", tmp / f"{index}.{style}.2.sdfg"
        rc, _, err = dace(exe, "convert", str(path), str(once), *opt)
        if rc != 0:
            problems.append(f"convert ({style}): exit {rc}: {err}")
            continue
        rc, h1, err = dace(exe, "hash", str(once))
        if rc != 0 or h1 != h0:
            problems.append(f"hash after convert ({style}) {h1 or err} != {h0}")
        rc, _, err = dace(exe, "convert", str(once), str(twice), *opt)
        if rc != 0:
            problems.append(f"second convert ({style}): exit {rc}: {err}")
        elif once.read_bytes() != twice.read_bytes():
            problems.append(f"convert ({style}) is not a fixed point: {once} != {twice}")
            continue  # keep both files to compare
        once.unlink(missing_ok=True)
        twice.unlink(missing_ok=True)
    return problems


# Replacement values: the types and edge values a mutating fuzzer tries.
VALUES = [None, 0, -1, 1, 2**40, "", "0", "-1", "N", "i + 1", "a", [], {}, True, False, 1.5, "1:2",
          "float64", "int32"]


def containers(j, out):
    """Every dict and list in `j`, iteratively (a file may nest deeper than Python recurses)."""
    stack = [j]
    while stack:
        c = stack.pop()
        if isinstance(c, (dict, list)):
            out.append(c)
            stack.extend(c.values() if isinstance(c, dict) else c)
    return out


def mutate(j, rng):
    cont = containers(j, [])
    for _ in range(rng.randint(1, 3)):
        c = rng.choice(cont)
        if isinstance(c, dict) and c:
            k = rng.choice(list(c))
            r = rng.random()
            if r < 0.3:
                del c[k]
            elif r < 0.8:
                c[k] = rng.choice(VALUES)
            else:
                c[k + "_x"] = c[k]
        elif isinstance(c, list) and c:
            i = rng.randrange(len(c))
            r = rng.random()
            if r < 0.3:
                del c[i]
            elif r < 0.6:
                c.append(c[i])
            elif r < 0.8:
                c.insert(0, c.pop(i))
            else:
                c[i] = rng.choice(VALUES)


def write_mutants(files, count, tmp):
    out = []
    for k in range(count):
        src = files[k % len(files)]
        data = src.read_bytes()
        if data[:2] == b"\x1f\x8b":
            data = gzip.decompress(data)
        j = json.loads(data)
        mutate(j, random.Random(k))
        path = tmp / f"mutant{k}.{src.name.split('.')[0]}.sdfg"
        path.write_text(json.dumps(j))
        out.append(path)
    return out


def main(argv):
    jobs = os.cpu_count() or 2
    if "--jobs" in argv:
        i = argv.index("--jobs")
        jobs = int(argv[i + 1])
        del argv[i:i + 2]
    if len(argv) < 4:
        print(__doc__, file=sys.stderr)
        return 2
    mutants = 0
    if "--mutants" in argv:
        i = argv.index("--mutants")
        mutants = int(argv[i + 1])
        del argv[i:i + 2]
    exe, tmp = argv[1], pathlib.Path(argv[2])
    shutil.rmtree(tmp, ignore_errors=True)
    tmp.mkdir(parents=True)
    files = []
    for d in argv[3:]:
        root = pathlib.Path(d)
        if not root.is_dir():
            print(f"hash_roundtrip: no folder {root}", file=sys.stderr)
            return 1
        files += sorted(p for p in root.rglob("*") if p.suffix in (".sdfg", ".sdfgz") and p.is_file())
    if mutants and files:
        files += write_mutants(files, mutants, tmp)
    with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as pool:
        results = list(pool.map(lambda ip: check(exe, tmp, *ip), enumerate(files)))
    refused = [f for f, r in zip(files, results) if r is None]
    bad = [(f, r) for f, r in zip(files, results) if r]
    for f in refused:
        if "mutant" not in f.name:
            print(f"refused (skipped): {f}")
    for f, problems in bad:
        for p in problems:
            print(f"FAIL {f}: {p}")
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = usage.ru_utime + usage.ru_stime
    print(f"hash_roundtrip: {len(files)} files, {len(files) - len(refused) - len(bad)} stable, "
          f"{len(refused)} refused, {len(bad)} unstable; commands used {cpu:.1f} s CPU "
          f"(budget {TOTAL_CPU_BUDGET:g} s)")
    over = cpu > TOTAL_CPU_BUDGET
    if over:
        print(f"FAIL: the commands used {cpu:.1f} s of CPU, more than the budget of {TOTAL_CPU_BUDGET:g} s")
    return 1 if bad or not files or over else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
