#!/usr/bin/env python3
"""Checks that src/codegen and src/pipeline name no target (DESIGN.md §2 and §7,
docs/plugins.md "Lowering interface"): schedules, storages, vendor libraries and runtimes of a
backend belong to its plugin, and the core reaches them only through the registry (also in the
messages it writes: a refusal names a class's DaCe library, the plugin names itself).

usage: check_codegen_targets.py SOURCE_DIR
Code (comments stripped) of every file in FOLDERS is searched for the names of targets
below, and its includes for a plugin's lowering or runtime headers and vendor headers (cblas.h,
lapacke.h, omp.h, cuda*.h: always an error). A hit in a file outside ALLOWED is an error (`file:line: names target "X"`); so is a
file in ALLOWED that names no target any more (drop it from the list) and a target a file
names beyond the ones its entry grants. Exits 1 on any error.
"""
import os
import re
import sys

# Names that belong to one backend: its schedules and storages, its vendor libraries and
# their entry points, its runtime. Host storages (CPU_Heap, CPU_Pinned, CPU_ThreadLocal,
# Register) are not among them: the core allocates host memory itself (DESIGN.md §2,
# "allocation"), pinned memory as plain heap memory when no plugin registers the storage.
TARGET = re.compile(
    r'\b(CPU_Multicore|CPU_Persistent|GPU_\w+|FPGA_\w+|MPI\b|mpi\b|'
    r'cblas_\w*|CBLAS\w*|Cblas\w*|LAPACKE_?\w*|lapacke\w*|LAPACK_\w+|lapack_\w+|OpenBLAS|openblas\w*|'
    r'ScaLAPACK|scalapack\w*|'
    r'cuda\w*|CUDA\w*|cublas\w*|'
    r'dace_cpu_\w+|__kmpc_\w+|omp_\w+)')

# The core's folders that must name no target.
FOLDERS = ('src/codegen', 'src/pipeline')

# File (relative to the source dir) -> (targets it may still name, why). Each entry is work
# left for the plugin interface (docs/plugins.md); the list only shrinks.
ALLOWED = {
    'src/pipeline/aot.cpp': ({'cuda', 'CUDA'}, 'ahead-of-time linking knows the runtime libraries built beside '
                             'libdace.so (libdace_cuda_rt.so); a plugin manifest entry naming its runtime library '
                             'would replace the table'),
}


# Headers of a backend's lowering or its vendor libraries: src/codegen reaches a plugin only
# through the registry, never by including its code (plugins/<name>/lowering) or a vendor API.
PLUGIN_INCLUDE = re.compile(r'^\s*#\s*include\s*[<"]((?:lowering|runtime|plugins)/[^>"]*|'
                            r'(?:cblas|lapacke|lapack|f77blas|openblas_config|omp|cuda|cuda_runtime|cublas\w*)\.h)[>"]')


def family(name):
    """The allowance key of a hit: cblas_dgemm -> cblas, LAPACKE_dgetrf -> LAPACKE, ..."""
    for prefix in ('cblas', 'CBLAS', 'LAPACKE', 'lapacke', 'openblas', 'cuda', 'CUDA', 'cublas'):
        if name.startswith(prefix):
            return prefix
    return name


def strip_comments(text):
    text = re.sub(r'/\*.*?\*/', lambda m: '\n' * m.group(0).count('\n'), text, flags=re.S)
    return [line.split('//', 1)[0] for line in text.split('\n')]


def main(root):
    errors = []
    named = {}
    files = []
    for folder in FOLDERS:
        files += [f'{folder}/{name}' for name in sorted(os.listdir(os.path.join(root, folder)))
                  if name.endswith(('.h', '.cpp'))]
    for rel in files:
        with open(os.path.join(root, rel), encoding='utf-8') as f:
            lines = strip_comments(f.read())
        allowed = ALLOWED.get(rel, (set(), ''))[0]
        for number, line in enumerate(lines, 1):
            inc = PLUGIN_INCLUDE.match(line)
            if inc:
                errors.append(f'{rel}:{number}: includes "{inc.group(1)}" '
                              '(a plugin\'s lowering or a vendor header; use the registry, docs/plugins.md)')
            for m in TARGET.finditer(line):
                key = family(m.group(1))
                named.setdefault(rel, set()).add(key)
                if key not in allowed:
                    errors.append(f'{rel}:{number}: names target "{m.group(1)}" '
                                  '(lower it in its plugin, docs/plugins.md "Lowering interface")')
    for rel in sorted(ALLOWED):
        if rel not in named:
            errors.append(f'{rel}: names no target any more; drop it from ALLOWED in {__file__}')
    for e in errors:
        print(e)
    if not errors:
        print(f'{" and ".join(FOLDERS)} name no target outside {len(ALLOWED)} allow-listed files')
    return 1 if errors else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1] if len(sys.argv) > 1 else '.'))
