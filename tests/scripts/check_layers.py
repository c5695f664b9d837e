#!/usr/bin/env python3
"""Checks that each layer includes only the layers below it (docs/architecture.md).

usage: check_layers.py SOURCE_DIR
Every `#include "layer/..."` in src/, plugins/, tools/ and bench/ is checked against the table
below; prints each violation as `file:line: <layer> may not include <other>` and exits 1.
"""
import os
import re
import sys

# Folder -> internal layers (folders of src/) it may include. Public headers (libdace.h,
# libdace_plugin.h) are allowed everywhere.
ALLOWED = {
    'src/ir': {'ir'},
    'src/analysis': {'ir', 'analysis'},
    'src/transform': {'ir', 'analysis', 'transform'},
    'src/plugin': {'ir', 'plugin'},
    'src/codegen': {'ir', 'analysis', 'plugin', 'codegen'},
    'src/jit': {'ir', 'analysis', 'plugin', 'codegen', 'jit'},
    'src/pipeline': {'ir', 'analysis', 'transform', 'plugin', 'codegen', 'jit', 'pipeline'},
    # Pictures of SDFGs: read the IR only; linked into the CLI, not into libdace.so.
    'src/render': {'ir', 'render'},
    'src/builder': {'ir', 'analysis', 'transform', 'plugin', 'codegen', 'jit', 'pipeline', 'builder'},
    # Backend plugins use the internal headers they implement against, never the C API layer.
    'plugins': {'ir', 'analysis', 'plugin', 'codegen', 'runtime'},
    # The CLI and benchmarks reach libdace through libdace.h; they share the .npy reader, the
    # SDFG reader/validator and (the CLI's `optimize`) the optimizer with the library.
    'tools': {'ir', 'analysis', 'transform', 'render'},
    'bench': {'ir', 'analysis'},
}
LAYERS = {'ir', 'analysis', 'transform', 'plugin', 'codegen', 'jit', 'pipeline', 'builder', 'render'}
INCLUDE = re.compile(r'^\s*#\s*include\s+"([a-z_]+)/')


def folder_of(rel):
    parts = rel.split('/')
    key = '/'.join(parts[:2]) if parts[0] == 'src' else parts[0]
    return key if key in ALLOWED else None


def main(root):
    violations = 0
    checked = 0
    for top in ('src', 'plugins', 'tools', 'bench'):
        for dirpath, _, files in os.walk(os.path.join(root, top)):
            for name in sorted(files):
                if not name.endswith(('.h', '.hpp', '.cpp', '.c', '.cc')):
                    continue
                path = os.path.join(dirpath, name)
                rel = os.path.relpath(path, root)
                folder = folder_of(rel)
                if folder is None:
                    print(f'{rel}: folder is not in the layer table of {os.path.basename(__file__)}')
                    violations += 1
                    continue
                checked += 1
                with open(path, encoding='utf-8', errors='replace') as fh:
                    for lineno, line in enumerate(fh, 1):
                        m = INCLUDE.match(line)
                        if not m:
                            continue
                        target = m.group(1)
                        if (target in LAYERS or target == 'runtime') and target not in ALLOWED[folder]:
                            print(f'{rel}:{lineno}: {folder} may not include {target}/')
                            violations += 1
    print(f'{checked} files checked, {violations} layer violations')
    return 1 if violations or checked == 0 else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1] if len(sys.argv) > 1 else '.'))
