"""Simplify time, libdace vs DaCe 1.0.2, on every raw SDFG DaCe wrote for the corpus.

For each `<kernel>.raw.sdfg` of the corpus (default ../shared/sdfg-corpus), in the same run:
  - libdace: `dace optimize RAW -o OUT --simplify --json`, best of --repeat runs of the
    in-process optimization time it reports (`ms`: load, validation and writing excluded);
  - DaCe: `SDFG.from_file(RAW).simplify()` in a DaCe 1.0.2 interpreter (.venv-dace), best of
    --repeat runs, load excluded;
  - the work each did: blocks and dataflow nodes before and after, counted the same way
    (recursively through nested SDFGs) from both outputs, because the two pipelines do not
    run the same passes yet and a fast simplify that does nothing is no win;
  - correctness: `dace run OUT --case case.json` must match NumPy's outputs, and DaCe must load
    and validate libdace's output.

Usage: python3 bench/simplify_vs_dace.py --dace-cli build/bin/dace [--corpus DIR]
       [--dace-python .venv-dace/bin/python] [--repeat 5] [--json OUT.json] [--max-ms MS]
       [--kernels k1,k2]
Prints one table row per kernel and the geometric mean of DaCe time / libdace time. Exit 1 if
an output mismatches, DaCe refuses libdace's output, or (with --max-ms, issue 10's bound of
20 ms) libdace's best simplify time of a kernel exceeds MS; the table is printed in full
first and each kernel over the bound is named. Time on a quiet machine: the bound is about
libdace, not about a loaded host. Not part of CI (DaCe's simplify takes
seconds per kernel); tests/unit covers simplify's correctness.
"""
import argparse
import glob
import json
import math
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)

# Runs in DaCe's interpreter: times simplify, counts, validates libdace's output.
DACE_SIDE = r'''
import json, sys, time, copy
import dace

def count(sdfg):
    blocks = nodes = 0
    for cfg in sdfg.all_control_flow_regions():
        blocks += len(cfg.nodes())
    for state in sdfg.states():
        nodes += len(state.nodes())
    for state in sdfg.states():
        for n in state.nodes():
            if isinstance(n, dace.nodes.NestedSDFG):
                b, k = count(n.sdfg)
                blocks += b
                nodes += k
    return blocks, nodes

raw, ours, repeat = sys.argv[1], sys.argv[2], int(sys.argv[3])
best = None
for _ in range(repeat):
    sdfg = dace.SDFG.from_file(raw)
    t0 = time.perf_counter()
    sdfg.simplify()
    dt = (time.perf_counter() - t0) * 1e3
    best = dt if best is None else min(best, dt)
before = count(dace.SDFG.from_file(raw))
after = count(sdfg)
ok, why = True, ''
try:
    mine = dace.SDFG.from_file(ours)
    mine.validate()
    mine_count = count(mine)
except Exception as e:  # DaCe refusing libdace's output is the finding, not a crash
    ok, why, mine_count = False, f'{type(e).__name__}: {e}', (-1, -1)
print(json.dumps(dict(ms=best, before=before, after=after, ours=mine_count, dace_loads=ok, why=why)))
'''


def run(cmd, **kw):
    return subprocess.run(cmd, capture_output=True, text=True, **kw)


def libdace_simplify(cli, raw, out, repeat):
    best = None
    for _ in range(repeat):
        p = run([cli, 'optimize', raw, '-o', out, '--simplify', '--json'])
        if p.returncode != 0:
            return None, p.stderr.strip()
        ms = json.loads(p.stdout)['ms']
        best = ms if best is None else min(best, ms)
    return best, ''


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--dace-cli', required=True)
    ap.add_argument('--corpus', default=os.path.join(ROOT, '..', 'shared', 'sdfg-corpus'))
    ap.add_argument('--dace-python', default=os.path.join(ROOT, '.venv-dace', 'bin', 'python'))
    ap.add_argument('--repeat', type=int, default=5)
    ap.add_argument('--json')
    ap.add_argument('--max-ms', type=float, help="exit 1 if libdace's simplify takes longer on a kernel")
    ap.add_argument('--kernels', default='', help='comma-separated subset of the corpus kernels')
    args = ap.parse_args()

    raws = sorted(glob.glob(os.path.join(args.corpus, '*', '*.raw.sdfg')))
    if args.kernels:
        wanted = args.kernels.split(',')
        unknown = sorted(set(wanted) - {os.path.basename(r).split('.')[0] for r in raws})
        if unknown:
            sys.exit(f'no raw SDFG for {", ".join(unknown)} under {args.corpus}')
        raws = [r for r in raws if os.path.basename(r).split('.')[0] in wanted]
    if not raws:
        sys.exit(f'no *.raw.sdfg under {args.corpus}')
    rows, failed = [], False
    with tempfile.TemporaryDirectory() as tmp:
        side = os.path.join(tmp, 'dace_side.py')
        with open(side, 'w') as f:
            f.write(DACE_SIDE)
        print(f'{"kernel":<12} {"libdace ms":>10} {"DaCe ms":>10} {"DaCe/libdace":>12}  '
              f'{"blocks raw/DaCe/ours":>21} {"nodes raw/DaCe/ours":>20}  run  DaCe loads ours')
        for raw in raws:
            kernel = os.path.basename(raw).split('.')[0]
            out = os.path.join(tmp, kernel + '.simp.sdfg')
            ours_ms, err = libdace_simplify(args.dace_cli, raw, out, args.repeat)
            if ours_ms is None:
                print(f'{kernel:<12} libdace simplify failed: {err}')
                failed = True
                continue
            case = os.path.join(os.path.dirname(raw), 'case.json')
            matched = run([args.dace_cli, 'run', out, '--case', case]).returncode == 0
            d = run([args.dace_python, side, raw, out, str(args.repeat)], cwd=tmp)
            if d.returncode != 0:
                print(f'{kernel:<12} DaCe side failed: {d.stderr.strip()[-300:]}')
                failed = True
                continue
            dace_res = json.loads(d.stdout.strip().splitlines()[-1])
            ratio = dace_res['ms'] / ours_ms if ours_ms > 0 else float('inf')
            b = f'{dace_res["before"][0]}/{dace_res["after"][0]}/{dace_res["ours"][0]}'
            n = f'{dace_res["before"][1]}/{dace_res["after"][1]}/{dace_res["ours"][1]}'
            print(f'{kernel:<12} {ours_ms:>10.2f} {dace_res["ms"]:>10.1f} {ratio:>12.0f}  {b:>21} {n:>20}  '
                  f'{"ok" if matched else "MISMATCH":<4} {"yes" if dace_res["dace_loads"] else "NO: " + dace_res["why"][:80]}')
            failed |= not matched or not dace_res['dace_loads']
            rows.append(dict(kernel=kernel, libdace_ms=ours_ms, dace_ms=dace_res['ms'], ratio=ratio,
                             blocks=dict(raw=dace_res['before'][0], dace=dace_res['after'][0], libdace=dace_res['ours'][0]),
                             nodes=dict(raw=dace_res['before'][1], dace=dace_res['after'][1], libdace=dace_res['ours'][1]),
                             outputs_match=matched, dace_loads_ours=dace_res['dace_loads']))
    if rows:
        geo = math.exp(sum(math.log(r['ratio']) for r in rows) / len(rows))
        print(f'geomean DaCe/libdace simplify time: {geo:.0f}x over {len(rows)} kernels')
    if args.json:
        with open(args.json, 'w') as f:
            json.dump(rows, f, indent=1)
    if args.max_ms is not None:
        slow = [r for r in rows if r['libdace_ms'] > args.max_ms]
        for r in slow:
            print(f'OVER {r["kernel"]}: libdace simplify {r["libdace_ms"]:.2f} ms > {args.max_ms:g} ms')
        print(f'--max-ms {args.max_ms:g}: {len(slow)} of {len(rows)} kernels over the bound')
        failed |= bool(slow)
    sys.exit(1 if failed else 0)


if __name__ == '__main__':
    main()
