"""LoopToMap on the corpus against DaCe 1.0.2's own LoopToMap. For each raw corpus SDFG:
DaCe simplifies it and applies its LoopToMap repeatedly (its loops stay state machines);
libdace lifts loops (LoopLifting), simplifies and applies LoopToMap repeatedly. Both must
convert the same number of loops, every libdace result must load and validate in DaCe, and
a result with converted loops must still match the case's NumPy outputs (`dace run --case`).
Prints the table; exit 1 on any difference. DaCe 1.0.2's LoopToMap only matches state-machine
loops, never LoopRegions, so our history entries (on lifted loops) cannot be replayed there:
this comparison of outcomes stands in for a replay."""
import glob
import json
import os
import subprocess
import sys
import warnings

warnings.filterwarnings('ignore')
import dace  # noqa: E402
from dace.transformation.interstate import LoopToMap  # noqa: E402


def dace_conversions(raw):
    g = dace.SDFG.from_file(raw)
    g.simplify()
    return g.apply_transformations_repeated(LoopToMap)


def loop_regions(j):
    n = 0
    for b in j.get('nodes', []):
        t = b.get('type')
        n += t == 'LoopRegion'
        if t in ('LoopRegion', 'ControlFlowRegion'):
            n += loop_regions(b)
        elif t == 'ConditionalBlock':
            n += sum(loop_regions(br) for _, br in b['branches'])
        elif t == 'SDFGState':
            n += sum(loop_regions(x['attributes']['sdfg']) for x in b['nodes'] if x['type'] == 'NestedSDFG')
    return n


def main(cli, corpus, tmp):
    os.makedirs(tmp, exist_ok=True)
    failed = []
    print('| kernel | loops after lifting | DaCe converts | libdace converts | NumPy |')
    print('|---|---|---|---|---|')
    for case in sorted(glob.glob(os.path.join(corpus, '*', 'case.json'))):
        d = os.path.dirname(case)
        k = os.path.basename(d)
        raw = os.path.join(d, k + '.raw.sdfg')
        if not os.path.exists(raw):
            continue
        lifted, out = os.path.join(tmp, k + '.lifted.sdfg'), os.path.join(tmp, k + '.l2m.sdfg')
        subprocess.run([cli, 'optimize', raw, '-o', lifted, '--apply-repeated', 'LoopLifting', '--simplify'], check=True,
                       capture_output=True)
        r = subprocess.run([cli, 'optimize', raw, '-o', out, '--apply-repeated', 'LoopLifting', '--simplify', '--apply-repeated',
                            'LoopToMap', '--json'], check=True, capture_output=True, text=True)
        ours = sum(1 for e in json.loads(r.stdout)['applied'] if e['transformation'] == 'LoopToMap')
        theirs = dace_conversions(raw)
        dace.SDFG.from_file(out).validate()
        numpy = '-'
        if ours:
            run = subprocess.run([cli, 'run', out, '--case', case], capture_output=True, text=True)
            numpy = 'ok' if run.returncode == 0 else 'FAIL'
            if run.returncode:
                failed.append(f'{k}: outputs differ from NumPy\n{run.stdout}{run.stderr}')
        print(f'| {k} | {loop_regions(json.load(open(lifted)))} | {theirs} | {ours} | {numpy} |')
        if ours != theirs:
            failed.append(f'{k}: DaCe converts {theirs} loop(s), libdace {ours}')
    for f in failed:
        print('FAIL', f)
    return 1 if failed else 0


if __name__ == '__main__':
    if len(sys.argv) != 4:
        sys.exit('usage: loop_to_map_vs_dace.py DACE_CLI CORPUS TMPDIR')
    sys.exit(main(*sys.argv[1:]))
