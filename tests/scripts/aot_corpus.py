#!/usr/bin/env python3
"""Ahead-of-time compilation of corpus kernels, used from C with no JIT (docs/aot.md).

usage: aot_corpus.py DACE_CLI CORPUS_DIR WORK_DIR C_COMPILER C++_COMPILER

For each kernel below: `dace compile IN.sdfg --aot -o DIR` writes lib<name>.so, lib<name>.a,
<name>.o and <name>.h; the header compiles alone as C99 and C++ with -pedantic -Werror; the
archive holds exactly <name>.o (binutils' `ar t`) and its symbol index names the three entry
points (`nm --print-armap`); a C program generated from the SDFG's argument list (`dace info
--json`) and the case file calls __dace_init/__program/__dace_exit through the header on the
corpus inputs, built four times: once linking only -l<name>, once linking <name>.o with
-ldace_rt and the vendor libraries, once linking lib<name>.a the same way (and then needing no
lib<name>.so), and once linking lib<name>.a with the static runtime libdace_rt.a (-fopenmp,
-lstdc++: then no shared libdace_rt either, and every dace_cpu_* function the archive calls is
defined in the executable). libdace_rt.a must be deterministic (ar tv: owner 0/0, time 0),
index the runtime's API and link whole into a shared object (position-independent). Each
program checks in /proc/self/maps that no LLVM and no libdace.so is loaded, and the outputs are
compared with the corpus's NumPy outputs (rtol/atol of the case). The dynamic-link closure
(ldd) of each program must not name libLLVM or libdace.so either. A second AOT compile into
another folder gives a byte-identical object and archive. GPU programs (check_gpu_programs): with
the CUDA plugin, on the emulated device and built for the device (embedded PTX), linked with
libdace_cuda_rt.so; without it, refused. Then the refusals: an output folder that cannot be
created, an SDFG name that is not a C identifier, and an MPI program (its runtime has no library
of its own), each exit 2 with a message naming the problem and leaving no file behind.
"""
import json
import os
import shutil
import subprocess
import sys

import numpy as np

# (kernel, variant): BLAS (gemm: cblas_dgemm), parallel maps (jacobi_2d, softmax:
# dace_cpu_parallel_for), integer code with a scalar loop (crc16).
KERNELS = [('gemm', 'simp'), ('jacobi_2d', 'opt'), ('softmax', 'simp'), ('crc16', 'simp')]

C_TYPES = {'float64': 'double', 'float32': 'float', 'int64': 'int64_t', 'int32': 'int32_t', 'int16': 'int16_t',
           'int8': 'int8_t', 'uint64': 'uint64_t', 'uint32': 'uint32_t', 'uint16': 'uint16_t', 'uint8': 'uint8_t',
           'bool': 'uint8_t'}
NP_TYPES = {'float64': np.float64, 'float32': np.float32, 'int64': np.int64, 'int32': np.int32, 'int16': np.int16,
            'int8': np.int8, 'uint64': np.uint64, 'uint32': np.uint32, 'uint16': np.uint16, 'uint8': np.uint8,
            'bool': np.uint8}

failures = []


def fail(msg):
    print('FAIL: ' + msg)
    failures.append(msg)


def run(cmd, **kw):
    kw.setdefault('env', dict(os.environ, TZ='UTC'))  # ar tv prints times in local time
    return subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, **kw)


# Reads the argument files, calls the program, writes the outputs; refuses to run when LLVM or
# libdace.so is mapped into the process.
C_TEMPLATE = r'''#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "%(name)s.h"

static void* read_all(const char* path, size_t bytes) {
  FILE* f = fopen(path, "rb");
  void* p = malloc(bytes ? bytes : 1);
  if (!f || !p || fread(p, 1, bytes, f) != bytes) { fprintf(stderr, "cannot read %%s\n", path); exit(3); }
  fclose(f);
  return p;
}

static void write_all(const char* path, const void* p, size_t bytes) {
  FILE* f = fopen(path, "wb");
  if (!f || fwrite(p, 1, bytes, f) != bytes) { fprintf(stderr, "cannot write %%s\n", path); exit(3); }
  fclose(f);
}

/* 1 when a mapping of this process names `what` (no JIT, no compiler in an AOT host). */
static int mapped(const char* what) {
  char line[4096];
  int found = 0;
  FILE* f = fopen("/proc/self/maps", "r");
  if (!f) { fprintf(stderr, "cannot read /proc/self/maps\n"); exit(3); }
  while (fgets(line, sizeof line, f)) if (strstr(line, what)) found = 1;
  fclose(f);
  return found;
}

int main(void) {
%(decls)s
  %(name)sHandle_t h = __dace_init_%(name)s(%(init_args)s);
  if (!h) { fprintf(stderr, "init failed: %%s\n", __dace_status_%(name)s.what ? __dace_status_%(name)s.what : "?"); return 4; }
  __dace_status_%(name)s.code = 0;
  __program_%(name)s(h%(call_args)s);
  if (__dace_status_%(name)s.code != 0) { fprintf(stderr, "program failed: %%s\n", __dace_status_%(name)s.what); return 4; }
  if (__dace_exit_%(name)s(h) != 0) { fprintf(stderr, "exit failed\n"); return 4; }
%(writes)s
  if (mapped("libLLVM")) { fprintf(stderr, "libLLVM is loaded\n"); return 5; }
  if (mapped("/libdace.so")) { fprintf(stderr, "libdace.so is loaded\n"); return 5; }
#ifdef AOT_STATIC_RUNTIME
  if (mapped("libdace_rt")) { fprintf(stderr, "a shared libdace_rt is loaded\n"); return 5; }
  if (mapped("lib%(name)s.so")) { fprintf(stderr, "lib%(name)s.so is loaded\n"); return 5; }
#else
  if (!mapped("libdace_rt.so")) { fprintf(stderr, "libdace_rt.so is not loaded\n"); return 5; }
#endif
#if defined(AOT_CUDA_RUNTIME) && defined(AOT_STATIC_RUNTIME)
  if (mapped("libdace_cuda_rt")) { fprintf(stderr, "a shared libdace_cuda_rt is loaded\n"); return 5; }
#elif defined(AOT_CUDA_RUNTIME)
  if (!mapped("libdace_cuda_rt.so")) { fprintf(stderr, "libdace_cuda_rt.so is not loaded\n"); return 5; }
#endif
  printf("ok\n");
  return 0;
}
'''


def make_driver(name, args, init_args, case, kdir, data_dir):
    """C source calling the program with the case's inputs; returns (source, outputs)."""
    decls, call, writes, outputs = [], [], [], []
    inputs = case.get('inputs', {})
    expected = case.get('expected_outputs', {})
    symbols = dict(case.get('symbols', {}))
    for a in args:
        n, kind, dt = a['name'], a['kind'], a['dtype']
        ct = C_TYPES[dt]
        if kind == 'array':
            if n in inputs:
                arr = np.ascontiguousarray(np.load(os.path.join(kdir, inputs[n])), dtype=NP_TYPES[dt])
            elif n in expected:
                arr = np.zeros(np.load(os.path.join(kdir, expected[n])).shape, dtype=NP_TYPES[dt])
            else:
                raise RuntimeError(f'{name}: no data for array {n}')
            path = os.path.join(data_dir, n + '.in')
            arr.tofile(path)
            decls.append(f'  {ct}* {n} = ({ct}*)read_all("{path}", {arr.nbytes});')
            if n in expected:
                out = os.path.join(data_dir, n + '.out')
                writes.append(f'  write_all("{out}", {n}, {arr.nbytes});')
                outputs.append((n, out, dt))
            call.append(n)
        elif kind == 'scalar':
            value = np.load(os.path.join(kdir, inputs[n])).item()
            decls.append(f'  {ct} {n} = ({ct})({value!r});')
            call.append(n)
        else:
            if n not in symbols:
                # Symbols DaCe derives from array shapes are in the case file; the rest (loop
                # variables left free) get 0, as DaCe's generated dummy passes whatever it has.
                symbols[n] = 0
            decls.append(f'  {ct} {n} = ({ct}){int(symbols[n])};')
            call.append(n)
    init_values = [f'({C_TYPES[a["dtype"]]}){int(symbols.get(a["name"], 0))}' for a in init_args]
    src = C_TEMPLATE % dict(name=name, decls='\n'.join(decls), init_args=', '.join(init_values),
                            call_args=''.join(', ' + c for c in call), writes='\n'.join(writes))
    return src, outputs


def check_outputs(kernel, outputs, case, kdir, label):
    ok = True
    for n, path, dt in outputs:
        ref = np.load(os.path.join(kdir, case['expected_outputs'][n]))
        got = np.fromfile(path, dtype=NP_TYPES[dt]).reshape(ref.shape)
        if not np.allclose(got, ref, rtol=case.get('rtol', 1e-10), atol=case.get('atol', 1e-12)):
            fail(f'{kernel} ({label}): output {n} differs from NumPy (max |diff| {np.max(np.abs(got - ref))})')
            ok = False
    return ok


def closure_names(exe):
    out = run(['ldd', exe]).stdout
    return out


# GPU programs (DaCe's *.gpu.sdfg): grid-strided stencils (jacobi_2d), warpReduce block
# reductions (softmax), cuBLAS tasklets (gemm: dace_cuda_gemm).
GPU_KERNELS = ['jacobi_2d', 'softmax', 'gemm']


def cuda_driver_present():
    try:
        import ctypes
        ctypes.CDLL('libcuda.so.1')
        return True
    except OSError:
        return False


def check_gpu_programs(cli, corpus, work, cc, env):
    """With the CUDA plugin: a GPU program compiled ahead of time links libdace_cuda_rt.so (the
    CUDA runtime without LLVM) besides libdace_rt.so. On the emulated device (--emulate-device:
    kernels built for the host) a C program linking only -l<name> must match NumPy with no LLVM
    or libdace.so loaded and libdace_cuda_rt.so loaded; the same program linked statically
    (lib<name>.a, libdace_cuda_rt.a, libdace_rt.a) must match too and load no shared libdace
    runtime, lib<name>.so, libdace.so or LLVM. Built for the device (PTX embedded in the
    library, loaded by the driver at the first launch), the library must hold the PTX; the
    program must match NumPy where a CUDA driver is present, and fail naming the missing
    driver (status record, no crash) where none is."""
    driver = cuda_driver_present()
    lib_dir = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(cli))), 'lib')
    check_cuda_static_runtime(lib_dir, work, cc)
    for kernel in GPU_KERNELS:
        kdir = os.path.join(corpus, kernel)
        sdfg = os.path.join(kdir, f'{kernel}.gpu.sdfg')
        case = json.load(open(os.path.join(kdir, 'case.json')))
        info = json.loads(run([cli, 'info', sdfg, '--json']).stdout)
        name = info['name']
        init_args = [{'name': s, 'dtype': info['symbols'].get(s, 'int64') if isinstance(info['symbols'], dict)
                      else 'int64'} for s in info['free_symbols'] if not s.startswith('__dace')]
        for mode in ('emulated', 'ptx'):
            label = f'GPU {mode}'
            out = os.path.join(work, f'{kernel}.gpu.{mode}')
            flags = ['--emulate-device'] if mode == 'emulated' else []
            r = run([cli, 'compile', sdfg, '--aot', '-o', out, '-O3'] + flags, env=env)
            if r.returncode != 0:
                fail(f'{kernel} ({label}): dace compile --aot exit {r.returncode}: {r.stdout}')
                continue
            lib = os.path.join(out, f'lib{name}.so')
            dyn = run(['readelf', '-d', lib]).stdout
            for needed in ('libdace_rt.so', 'libdace_cuda_rt.so'):
                if f'[{needed}' not in dyn:
                    fail(f'{kernel} ({label}): lib{name}.so does not need {needed}:\n{dyn[:2000]}')
            ptx = run(['strings', '-n', '8', lib]).stdout
            has_ptx = '.entry ' in ptx and '.target sm_' in ptx
            if has_ptx != (mode == 'ptx'):
                fail(f'{kernel} ({label}): PTX text {"missing from" if mode == "ptx" else "found in"} lib{name}.so')
            data_dir = os.path.join(work, f'{kernel}.gpu.{mode}.data')
            os.makedirs(data_dir)
            src, outputs = make_driver(name, info['arguments'], init_args, case, kdir, data_dir)
            main_c = os.path.join(work, f'{kernel}_gpu_{mode}_main.c')
            open(main_c, 'w').write(src)
            warn = ['-std=c99', '-Wall', '-Wextra', '-pedantic', '-Werror', '-DAOT_CUDA_RUNTIME', '-I', out, main_c]
            builds = {
                label: [cc] + warn + ['-o', os.path.join(work, f'{kernel}_gpu_{mode}'), '-L', out, '-l' + name,
                                      '-Wl,-rpath,' + out],
                # Nothing shared from libdace: the program's archive, libdace_cuda_rt.a and libdace_rt.a.
                label + ', static': [cc] + warn + [
                    '-DAOT_STATIC_RUNTIME', '-o', os.path.join(work, f'{kernel}_gpu_{mode}_static'),
                    os.path.join(out, f'lib{name}.a'), os.path.join(lib_dir, 'libdace_cuda_rt.a'),
                    os.path.join(lib_dir, 'libdace_rt.a'), '-fopenmp', '-lstdc++', '-lpthread', '-ldl',
                    '-Wl,--as-needed', '-l:libopenblas.so.0', '-lmvec', '-lm'],
            }
            for build_label, cmd in builds.items():
                static = build_label.endswith('static')
                r = run(cmd)
                if r.returncode != 0:
                    fail(f'{kernel} ({build_label}): building the C program: {r.stdout}')
                    continue
                exe = cmd[cmd.index('-o') + 1]
                deps = closure_names(exe)
                if 'libLLVM' in deps or 'libdace.so' in deps:
                    fail(f'{kernel} ({build_label}): the program links LLVM or libdace.so:\n{deps}')
                if static and ('libdace_cuda_rt' in deps or 'libdace_rt' in deps or f'lib{name}.so' in deps):
                    fail(f'{kernel} ({build_label}): the program needs a shared libdace runtime or lib{name}.so:\n{deps}')
                if not static and 'libdace_cuda_rt.so' not in deps:
                    fail(f'{kernel} ({build_label}): the program does not link libdace_cuda_rt.so:\n{deps}')
                for _, path, _ in outputs:  # each build writes its own outputs
                    if os.path.exists(path):
                        os.remove(path)
                r = run([exe], env=env)
                if mode == 'ptx' and not driver:
                    # The reason must be in the status record the host reads (the C program
                    # prints its `what` after "init failed: " or "program failed: "), not only in
                    # the runtime's own line on stderr.
                    reported = [line for line in r.stdout.splitlines()
                                if line.startswith(('init failed: ', 'program failed: ')) and 'no CUDA driver' in line]
                    if r.returncode != 4 or not reported:
                        fail(f'{kernel} ({build_label}): without a CUDA driver, expected exit 4 naming it: '
                             f'exit {r.returncode}: {r.stdout}')
                    else:
                        print(f'{kernel} ({build_label}): PTX embedded; without a CUDA driver the status record '
                              f'says so: {reported[0]}')
                    continue
                if r.returncode != 0 or 'ok' not in r.stdout:
                    fail(f'{kernel} ({build_label}): the C program failed (exit {r.returncode}): {r.stdout}')
                    continue
                if check_outputs(kernel, outputs, case, kdir, build_label):
                    runtime = 'no shared libdace runtime' if static else 'libdace_cuda_rt.so loaded'
                    print(f'{kernel} ({build_label}): outputs match NumPy, no LLVM loaded, {runtime}')


def check_cuda_static_runtime(lib_dir, work, cc):
    """libdace_cuda_rt.a, like libdace_rt.a: deterministic members, the runtime's entry points
    (device and emulated) in its index, position-independent (links whole into a shared object
    with only what libdace_cuda_rt_static.pc adds)."""
    archive = os.path.join(lib_dir, 'libdace_cuda_rt.a')
    if not os.path.isfile(archive):
        fail(f'no static CUDA runtime next to libdace_cuda_rt.so: {archive}')
        return
    listing = run(['ar', 'tv', archive]).stdout.splitlines()
    if not listing or any(' 0/0 ' not in line or '1970' not in line for line in listing):
        fail('libdace_cuda_rt.a is not deterministic (owner/time stamps):\n' + '\n'.join(listing))
    armap = run(['nm', '--print-armap', archive]).stdout
    for fn in ('dace_cuda_launch', 'dace_cuda_malloc', 'dace_cuda_gemm', 'dace_cuda_emu_launch'):
        if f'{fn} in ' not in armap:
            fail(f'the symbol index of libdace_cuda_rt.a lacks {fn}')
    so = os.path.join(work, 'whole_cuda_rt.so')
    r = run([cc, '-shared', '-o', so, '-Wl,--whole-archive', archive, '-Wl,--no-whole-archive', '-Wl,--no-undefined',
             '-ldl', '-lstdc++', '-lpthread'])
    if r.returncode != 0:
        fail(f'libdace_cuda_rt.a does not link alone into a shared object: {r.stdout}')
    else:
        print(f'libdace_cuda_rt.a: {len(listing)} deterministic PIC members')


def check_static_runtime(rt_dir, work, cc):
    """libdace_rt.a: deterministic members (ar's D mode: owner 0/0, mode 644, time 0), the
    runtime's API in its index, and position-independent objects (it links whole into a
    shared object, which non-PIC code cannot)."""
    archive = os.path.join(rt_dir or '', 'libdace_rt.a')
    if not os.path.isfile(archive):
        fail(f'no static runtime next to libdace_rt.so: {archive}')
        return
    listing = run(['ar', 'tv', archive]).stdout.splitlines()
    if not listing or any(' 0/0 ' not in line or '1970' not in line for line in listing):
        fail(f'libdace_rt.a is not deterministic (owner/time stamps):\n' + '\n'.join(listing))
    armap = run(['nm', '--print-armap', archive]).stdout
    for fn in ('dace_cpu_parallel_for', 'dace_cpu_parallel_for_nd', 'dace_cpu_num_threads'):
        if f'{fn} in ' not in armap:
            fail(f'the symbol index of libdace_rt.a lacks {fn}')
    so = os.path.join(work, 'whole_rt.so')
    r = run([cc, '-shared', '-o', so, '-Wl,--whole-archive', archive, '-Wl,--no-whole-archive', '-fopenmp',
             '-lstdc++'])
    if r.returncode != 0:
        fail(f'libdace_rt.a does not link into a shared object (not position-independent?): {r.stdout}')
    else:
        print(f'libdace_rt.a: {len(listing)} deterministic PIC members')


def main():
    cli, corpus, work, cc, cxx = sys.argv[1:6]
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    env = dict(os.environ)
    for v in ('LD_LIBRARY_PATH', 'DACE_PLUGIN_PATH'):
        env.pop(v, None)
    rt_dir = None
    for kernel, variant in KERNELS:
        kdir = os.path.join(corpus, kernel)
        sdfg = os.path.join(kdir, f'{kernel}.{variant}.sdfg')
        case = json.load(open(os.path.join(kdir, 'case.json')))
        info = json.loads(run([cli, 'info', sdfg, '--json']).stdout)
        name = info['name']
        out = os.path.join(work, kernel)
        r = run([cli, 'compile', sdfg, '--aot', '-o', out, '-O3', '--json'], env=env)
        if r.returncode != 0:
            fail(f'{kernel}: dace compile --aot exit {r.returncode}: {r.stdout}')
            continue
        written = json.loads(r.stdout)
        for key, fname in (('library', f'lib{name}.so'), ('object', f'{name}.o'), ('header', f'{name}.h'),
                           ('archive', f'lib{name}.a')):
            if written.get(key) != os.path.join(out, fname) or not os.path.isfile(written[key]):
                fail(f'{kernel}: {key} {written.get(key)} is not {os.path.join(out, fname)}')
        leftovers = [f for f in os.listdir(out) if f.startswith('.')]
        if leftovers:
            fail(f'{kernel}: temporary files left: {leftovers}')
        header = os.path.join(out, f'{name}.h')
        for compiler, std, lang in ((cc, '-std=c99', 'c'), (cxx, '-std=c++17', 'c++')):
            r = run([compiler, std, '-Wall', '-Wextra', '-pedantic', '-Werror', '-fsyntax-only', '-x', lang, header])
            if r.returncode != 0:
                fail(f'{kernel}: header does not compile alone as {lang}: {r.stdout}')
        # Determinism: a second compile gives the same object bytes.
        out2 = os.path.join(work, kernel + '.again')
        r = run([cli, 'compile', sdfg, '--aot', '-o', out2, '-O3'], env=env)
        for fname in (f'{name}.o', f'lib{name}.a'):
            if r.returncode != 0 or open(os.path.join(out, fname), 'rb').read() != \
                    open(os.path.join(out2, fname), 'rb').read():
                fail(f'{kernel}: a second AOT compile gives another {fname} ({r.stdout})')
        # The archive, read by binutils (not by LLVM, which wrote it): one member, and an index
        # that lets a linker find the entry points.
        archive = os.path.join(out, f'lib{name}.a')
        members = run(['ar', 't', archive]).stdout.split()
        if members != [f'{name}.o']:
            fail(f'{kernel}: lib{name}.a holds {members}, not [{name}.o]')
        armap = run(['nm', '--print-armap', archive]).stdout
        for entry in (f'__dace_init_{name}', f'__program_{name}', f'__dace_exit_{name}'):
            if f'{entry} in {name}.o' not in armap:
                fail(f'{kernel}: the symbol index of lib{name}.a lacks {entry}:\n{armap[:1500]}')
        # Where lib<name>.so finds libdace_rt.so: its RUNPATH.
        dyn = run(['readelf', '-d', os.path.join(out, f'lib{name}.so')]).stdout
        if 'NEEDED' not in dyn or 'libdace_rt.so' not in dyn:
            fail(f'{kernel}: lib{name}.so does not need libdace_rt.so:\n{dyn[:2000]}')
        for line in dyn.splitlines():
            if 'RUNPATH' in line:
                rt_dir = line.split('[', 1)[1].rstrip(']').split(':')[0]

        args = info['arguments']
        init_args = [{'name': s, 'dtype': info['symbols'].get(s, 'int64') if isinstance(info['symbols'], dict)
                      else 'int64'} for s in info['free_symbols'] if not s.startswith('__dace')]
        data_dir = os.path.join(work, kernel + '.data')
        os.makedirs(data_dir)
        src, outputs = make_driver(name, args, init_args, case, kdir, data_dir)
        main_c = os.path.join(work, kernel + '_main.c')
        open(main_c, 'w').write(src)
        builds = {
            'shared library': [cc, '-std=c99', '-Wall', '-Wextra', '-pedantic', '-Werror', '-I', out, main_c, '-o',
                               os.path.join(work, kernel + '_so'), '-L', out, '-l' + name, '-Wl,-rpath,' + out],
            'object': [cc, '-std=c99', '-Wall', '-Wextra', '-pedantic', '-Werror', '-I', out, main_c,
                       os.path.join(out, f'{name}.o'), '-o', os.path.join(work, kernel + '_o'), '-L', rt_dir or '',
                       '-Wl,--no-as-needed', '-ldace_rt', '-Wl,-rpath,' + (rt_dir or ''), '-Wl,--as-needed',
                       '-l:libopenblas.so.0',
                       '-lmvec', '-lm'],
            'static archive': [cc, '-std=c99', '-Wall', '-Wextra', '-pedantic', '-Werror', '-I', out, main_c, '-o',
                               os.path.join(work, kernel + '_a'), '-L', out, f'-l:lib{name}.a', '-L', rt_dir or '',
                               '-Wl,--no-as-needed', '-ldace_rt', '-Wl,-rpath,' + (rt_dir or ''),
                               '-Wl,--as-needed', '-l:libopenblas.so.0', '-lmvec', '-lm'],
            # Nothing shared from libdace at all: the program's archive and libdace_rt.a, plus
            # the toolchain's OpenMP runtime (-fopenmp), the C++ library and the vendor ones.
            'static archive and static runtime': [
                cc, '-std=c99', '-Wall', '-Wextra', '-pedantic', '-Werror', '-DAOT_STATIC_RUNTIME', '-I', out, main_c,
                '-o', os.path.join(work, kernel + '_static'), os.path.join(out, f'lib{name}.a'),
                os.path.join(rt_dir or '', 'libdace_rt.a'), '-fopenmp', '-lstdc++', '-lpthread', '-Wl,--as-needed',
                '-l:libopenblas.so.0', '-lmvec', '-lm'],
        }
        # The runtime functions the program calls must be linked into the static program.
        runtime_calls = sorted({line.split()[-1] for line in run(['nm', '-u', archive]).stdout.splitlines()
                                if line.split() and line.split()[-1].startswith('dace_cpu_')})
        for label, cmd in builds.items():
            r = run(cmd)
            if r.returncode != 0:
                fail(f'{kernel}: building the C program against the {label}: {r.stdout}')
                continue
            exe = cmd[cmd.index('-o') + 1]
            deps = closure_names(exe)
            if 'libLLVM' in deps or 'libdace.so' in deps:
                fail(f'{kernel} ({label}): the program links LLVM or libdace.so:\n{deps}')
            if label.startswith('static archive') and f'lib{name}.so' in deps:
                fail(f'{kernel} ({label}): the program needs lib{name}.so:\n{deps}')
            if label == 'static archive and static runtime':
                if 'libdace_rt' in deps:
                    fail(f'{kernel} ({label}): the program needs a shared libdace_rt:\n{deps}')
                defined = run(['nm', '--defined-only', exe]).stdout.split()
                missing = [f for f in runtime_calls if f not in defined]
                if missing:
                    fail(f'{kernel} ({label}): runtime functions not linked in: {missing}')
            for _, path, _ in outputs:
                if os.path.exists(path):
                    os.remove(path)
            r = run([exe], env=env)
            if r.returncode != 0 or 'ok' not in r.stdout:
                fail(f'{kernel} ({label}): the C program failed (exit {r.returncode}): {r.stdout}')
                continue
            if check_outputs(kernel, outputs, case, kdir, label):
                extra = f', runtime linked in: {runtime_calls}' if label.endswith('static runtime') else ''
                print(f'{kernel} ({label}): outputs match NumPy, no LLVM loaded{extra}')
    check_static_runtime(rt_dir, work, cc)

    # Refusals: exit 2, a message naming the problem, no file left behind.
    blocker = os.path.join(work, 'a_file')
    open(blocker, 'w').write('not a folder')
    gemm = os.path.join(corpus, 'gemm', 'gemm.simp.sdfg')
    r = run([cli, 'compile', gemm, '--aot', '-o', os.path.join(blocker, 'out')], env=env)
    if r.returncode != 2 or 'output folder' not in r.stdout or blocker not in r.stdout:
        fail(f'unwritable output folder: exit {r.returncode}: {r.stdout}')
    bad = json.load(open(gemm))
    bad['attributes']['name'] = 'gemm-kernel'
    bad_path = os.path.join(work, 'bad_name.sdfg')
    json.dump(bad, open(bad_path, 'w'))
    bad_out = os.path.join(work, 'bad_name_out')
    r = run([cli, 'compile', bad_path, '--aot', '-o', bad_out], env=env)
    if r.returncode != 2 or 'not a C identifier' not in r.stdout or 'gemm-kernel' not in r.stdout:
        fail(f'SDFG name that is no C identifier: exit {r.returncode}: {r.stdout}')
    if os.path.isdir(bad_out) and os.listdir(bad_out):
        fail(f'a refused compile left files: {os.listdir(bad_out)}')
    # Without the CUDA plugin, the lowering refuses GPU storage; with it, GPU programs are
    # compiled (check_gpu_programs).
    cuda_plugin = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(cli))), 'lib', 'libdace', 'plugins',
                               'libdace_plugin_cuda.so')
    if os.path.exists(cuda_plugin):
        check_gpu_programs(cli, corpus, work, cc, env)
    else:
        print('note: no CUDA plugin in this build: GPU programs checked for their refusal only')
        gpu_out = os.path.join(work, 'gpu_out')
        r = run([cli, 'compile', os.path.join(corpus, 'jacobi_2d', 'jacobi_2d.gpu.sdfg'), '--aot', '-o', gpu_out],
                env=env)
        if r.returncode != 2 or 'GPU_Global' not in r.stdout:
            fail(f'GPU program without the CUDA plugin: exit {r.returncode}, expected GPU_Global in: {r.stdout}')
        if os.path.isdir(gpu_out) and os.listdir(gpu_out):
            fail(f'a refused GPU compile left files: {os.listdir(gpu_out)}')
    # A runtime with no library of its own (MPI's lives only in its plugin) refuses the program.
    mpi_sdfg = os.path.join(corpus + '-mpi', 'allreduce_mean', 'allreduce_mean.simp.sdfg')
    mpi_plugin = os.path.join(os.path.dirname(cuda_plugin), 'libdace_plugin_mpi.so')
    if os.path.exists(mpi_sdfg) and os.path.exists(mpi_plugin):
        mpi_out = os.path.join(work, 'mpi_out')
        r = run([cli, 'compile', mpi_sdfg, '--aot', '-o', mpi_out], env=env)
        expected = ['dace_mpi_', 'plugin "mpi"', 'lives inside the plugin']
        if r.returncode != 2 or not all(e in r.stdout for e in expected):
            fail(f'MPI program: exit {r.returncode}, expected {expected} in: {r.stdout}')
        if os.path.isdir(mpi_out) and os.listdir(mpi_out):
            fail(f'a refused MPI compile left files: {os.listdir(mpi_out)}')
    else:
        print(f'note: no MPI plugin or no {mpi_sdfg}: the refusal of MPI programs is not checked')
    r = run([cli, 'compile', gemm, '--aot'], env=env)
    if r.returncode != 2 or '--aot needs -o' not in r.stdout:
        fail(f'--aot without -o: exit {r.returncode}: {r.stdout}')

    if failures:
        print(f'aot_corpus: {len(failures)} failure(s)')
        return 1
    print('aot_corpus: ok')
    return 0


if __name__ == '__main__':
    sys.exit(main())
