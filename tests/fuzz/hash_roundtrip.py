#!/usr/bin/env python3
"""The content hash is a function of the SDFG, not of how it was read: for every `.sdfg` /
`.sdfgz` under the given folders,

  dace hash FILE == dace hash (dace convert FILE)          (DaCe's dialect vs libdace's)
  dace convert (dace convert FILE) is byte-identical to dace convert FILE   (a fixed point)

in pretty and compact form. Files `dace hash` refuses (exit 2) are listed and skipped: those
are the reader's business, tested elsewhere. A file whose hash changes is a determinism bug of
the reader or writer (src/ir/json).

usage: hash_roundtrip.py DACE TMPDIR DIR... [--jobs N]   (stdlib only)
"""
import concurrent.futures
import os
import pathlib
import shutil
import subprocess
import sys

TIME_LIMIT = 60  # seconds per command; the largest corpus file takes well under one


def dace(exe, *args):
    try:
        p = subprocess.run([exe, *args], capture_output=True, text=True, timeout=TIME_LIMIT)
    except subprocess.TimeoutExpired:
        return 124, "", f"timed out after {TIME_LIMIT} s"
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


def main(argv):
    jobs = os.cpu_count() or 2
    if "--jobs" in argv:
        i = argv.index("--jobs")
        jobs = int(argv[i + 1])
        del argv[i:i + 2]
    if len(argv) < 4:
        print(__doc__, file=sys.stderr)
        return 2
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
    with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as pool:
        results = list(pool.map(lambda ip: check(exe, tmp, *ip), enumerate(files)))
    refused = [f for f, r in zip(files, results) if r is None]
    bad = [(f, r) for f, r in zip(files, results) if r]
    for f in refused:
        print(f"refused (skipped): {f}")
    for f, problems in bad:
        for p in problems:
            print(f"FAIL {f}: {p}")
    print(f"hash_roundtrip: {len(files)} files, {len(files) - len(refused) - len(bad)} stable, "
          f"{len(refused)} refused, {len(bad)} unstable")
    return 1 if bad or not files else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
