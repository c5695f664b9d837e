#!/usr/bin/env python3
"""`dace render` of SDFGs: every node drawn, deterministic bytes, a working HTML page.

usage: render_check.py DACE_CLI WORKDIR SDFG|DIR...

For each SDFG (a .sdfg file, every .sdfg below a folder, or NAME.sdfg+LoopLifting to render
it after applying that transformation wherever it applies): renders SVG twice and HTML once. The reference counts come from the SDFG's
JSON, read here independently of libdace: dataflow nodes per DaCe class, in every state of
every control-flow region and nested SDFG. The SVG must draw exactly that many nodes of each
kind (Graphviz writes each node as a <g class="node sdfg-node sdfg-KIND">) and be identical
across runs. When a headless Chromium is installed, each page is opened in it and must report
every listed element present and drawn; with #collapse=scopes it must show exactly the nodes
that DaCe's scope_dict puts at the top level of the top SDFG's states, plus the exits of
the top-level scopes.
"""
import json
import os
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET
from collections import Counter

SVG_NS = '{http://www.w3.org/2000/svg}'
KIND_OF_CLASS = {
    'AccessNode': 'sdfg-access', 'Tasklet': 'sdfg-tasklet', 'MapEntry': 'sdfg-scope-entry',
    'MapExit': 'sdfg-scope-exit', 'ConsumeEntry': 'sdfg-scope-entry', 'ConsumeExit': 'sdfg-scope-exit',
    'NestedSDFG': 'sdfg-nested', 'LibraryNode': 'sdfg-library',
}


def library_or_class(node):
    t = node['type']
    # Library nodes are written under their own class name (MatMul, Reduce, ...).
    return t if t in KIND_OF_CLASS else 'LibraryNode'


def expected(sdfg, counts, top_level, is_top):
    """Counts dataflow nodes by kind; top_level counts what stays visible with scopes collapsed."""
    for block in sdfg.get('nodes', []):
        walk_block(block, counts, top_level, is_top)


def walk_block(block, counts, top_level, is_top):
    t = block.get('type')
    if t == 'SDFGState':
        for node in block.get('nodes', []):
            counts[KIND_OF_CLASS[library_or_class(node)]] += 1
            if node['type'] == 'NestedSDFG':
                expected(node['attributes']['sdfg'], counts, top_level, False)
        if is_top:
            # DaCe's scope_dict lists a scope's exit among its children; the page keeps a
            # collapsed scope's entry and exit in view, so top-level entries count twice.
            nodes = block.get('nodes', [])
            for node_id in block.get('scope_dict', {}).get('-1', []):
                top_level[0] += 2 if nodes[node_id]['type'] in ('MapEntry', 'ConsumeEntry') else 1
    elif t == 'ConditionalBlock':
        for _, region in block.get('branches', []):
            if region:
                walk_block(region, counts, top_level, is_top)
    else:  # LoopRegion, ControlFlowRegion, ...
        for inner in block.get('nodes', []):
            walk_block(inner, counts, top_level, is_top)


def drawn_counts(svg_text):
    root = ET.fromstring(svg_text)
    counts = Counter()
    for g in root.iter(SVG_NS + 'g'):
        classes = g.get('class', '').split()
        if 'node' in classes and 'sdfg-node' in classes:
            kinds = [c for c in classes if c.startswith('sdfg-') and c != 'sdfg-node']
            counts[kinds[0] if kinds else '?'] += 1
    return counts


def find_chromium():
    for name in ('chromium-headless-shell', 'chromium', 'chromium-browser', 'google-chrome'):
        path = shutil.which(name)
        if path:
            return path
    return None


def page_attributes(chromium, html_path, fragment=''):
    out = subprocess.run([chromium, '--headless', '--no-sandbox', '--disable-gpu', '--dump-dom',
                          'file://' + os.path.abspath(html_path) + fragment],
                         capture_output=True, text=True, timeout=120).stdout
    start = out.find('<body')
    tag = out[start:out.find('>', start)]
    attrs = {}
    for part in tag.split(' data-')[1:]:
        key, _, value = part.partition('=')
        attrs[key] = value.strip().strip('"')
    return attrs


def run(cli, args):
    return subprocess.run([cli] + args, capture_output=True, text=True, timeout=300)


def hostile(cli, work, sample):
    """Bad requests end with exit 2 and a message, never a crash or a partial picture."""
    bad_json = os.path.join(work, 'bad.sdfg')
    with open(bad_json, 'w') as fh:
        fh.write('{"type": "SDFG", "nodes": [')
    cases = [
        ('malformed JSON', ['render', bad_json, '-o', os.path.join(work, 'bad.svg')], 'bad.sdfg'),
        ('unknown format', ['render', sample, '-o', os.path.join(work, 'x.png')], 'cannot tell the format'),
        ('no output', ['render', sample], 'usage'),
        ('unwritable output', ['render', sample, '-o', os.path.join(work, 'no', 'such', 'dir.svg')],
         'cannot write'),
        ('missing input', ['render', os.path.join(work, 'absent.sdfg'), '-o', os.path.join(work, 'a.svg')],
         'absent.sdfg'),
    ]
    failures = 0
    for name, args, needle in cases:
        r = run(cli, args)
        if r.returncode != 2 or needle not in r.stderr:
            failures += 1
            print(f'FAIL hostile {name}: exit {r.returncode}, stderr {r.stderr.strip()!r}')
    if os.path.exists(os.path.join(work, 'bad.svg')):
        failures += 1
        print('FAIL hostile malformed JSON: a picture was written')
    print(f'hostile requests: {len(cases) - failures}/{len(cases)} refused cleanly')
    return failures


def main():
    cli, work = sys.argv[1], sys.argv[2]
    files = []
    for arg in sys.argv[3:]:
        if os.path.isdir(arg):
            for folder, _, names in sorted(os.walk(arg)):
                files += [os.path.join(folder, n) for n in sorted(names) if n.endswith('.sdfg')]
        else:
            files.append(arg)
    if not files:
        print('render_check: no SDFG given or found')
        return 1
    os.makedirs(work, exist_ok=True)
    probe = run(cli, ['render', files[0], '-o', os.path.join(work, 'probe.svg')])
    if probe.returncode != 0 and 'built without Graphviz' in probe.stderr:
        print('skip: ' + probe.stderr.strip())
        return 77
    chromium = find_chromium()
    if not chromium:
        print('render_check: no headless Chromium (chromium-headless-shell); HTML pages are not opened')
    failures = 0
    for spec in files:
        path, _, transformation = spec.partition('+')
        stem = os.path.basename(path).replace('.sdfg', '') + ('.' + transformation if transformation else '')
        source = path
        if transformation:
            source = os.path.join(work, stem + '.sdfg')
            r = run(cli, ['optimize', path, '-o', source, '--apply-repeated', transformation])
            if r.returncode != 0:
                print(f'FAIL {spec}: optimize: {r.stderr.strip()}')
                failures += 1
                continue
        with open(source) as fh:
            sdfg = json.load(fh)
        counts, top_level = Counter(), [0]
        expected(sdfg, counts, top_level, True)
        svg1, svg2, html = (os.path.join(work, stem + suffix) for suffix in ('.svg', '.again.svg', '.html'))
        problems = []
        for out in (svg1, svg2, html):
            r = run(cli, ['render', source, '-o', out])
            if r.returncode != 0:
                problems.append(f'render -o {os.path.basename(out)}: exit {r.returncode}: {r.stderr.strip()}')
        if not problems:
            svg_text = open(svg1, encoding='utf-8').read()
            if svg_text != open(svg2, encoding='utf-8').read():
                problems.append('two renderings differ')
            got = drawn_counts(svg_text)
            if got != counts:
                problems.append(f'drawn {dict(got)} != SDFG {dict(counts)}')
            if chromium:
                attrs = page_attributes(chromium, html)
                total = sum(counts.values())
                if attrs.get('ready') != '1':
                    problems.append('HTML page script did not run')
                elif attrs.get('missing'):
                    problems.append('HTML page lacks ' + attrs['missing'][:200])
                elif int(attrs.get('drawn-nodes', -1)) != total or int(attrs.get('visible-nodes', -1)) != total:
                    problems.append(f'HTML shows {attrs.get("drawn-nodes")}/{attrs.get("visible-nodes")} of {total} nodes')
                collapsed = page_attributes(chromium, html, '#collapse=scopes')
                if int(collapsed.get('visible-nodes', -1)) != top_level[0]:
                    problems.append(f'collapsed HTML shows {collapsed.get("visible-nodes")} nodes, '
                                    f'scope_dict top level has {top_level[0]}')
        if problems:
            failures += 1
            print(f'FAIL {spec}: ' + '; '.join(problems))
        else:
            print(f'ok   {stem}: {sum(counts.values())} nodes ({top_level[0]} at top level)')
    print(f'{len(files) - failures}/{len(files)} SDFGs rendered correctly')
    failures += hostile(cli, work, files[0])
    return 1 if failures else 0


if __name__ == '__main__':
    sys.exit(main())
