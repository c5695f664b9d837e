"""Writes what DaCe 1.0.2's GPUTransformSDFG (with its final simplify) makes of corpus SDFGs
whose top-level nested SDFGs DaCe moves to the GPU recursively.

Run with DaCe 1.0.2 (scripts/setup.sh puts it in .venv-dace), from the repository root:
    .venv-dace/bin/python tests/data/gpu_transform/generate.py
For each kernel, <kernel>.dace.sdfgz is DaCe's result on ../shared/sdfg-corpus/<kernel>/
<kernel>.raw.sdfg. tests/unit/transform_gpu_transform_nested_test.cpp applies libdace's
GPUTransformSDFG to the same input and compares the storages and schedules with DaCe's.
"""
import os

import dace
from dace.transformation.interstate import GPUTransformSDFG

HERE = os.path.dirname(os.path.abspath(__file__))
CORPUS = os.path.join(HERE, '..', '..', '..', '..', 'shared', 'sdfg-corpus')

for kernel in ['mandelbrot1']:
    sdfg = dace.SDFG.from_file(os.path.join(CORPUS, kernel, kernel + '.raw.sdfg'))
    assert sdfg.apply_transformations(GPUTransformSDFG) == 1
    sdfg.validate()
    sdfg.save(os.path.join(HERE, kernel + '.dace.sdfgz'), compress=True)
