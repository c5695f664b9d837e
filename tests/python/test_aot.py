"""SDFG.compile_aot (docs/aot.md): the three files, and a name that is no C identifier refused
with nothing written. The run of AOT programs against NumPy is ctest aot.corpus."""

import json
import os

import pytest

import libdace
from conftest import CORPUS

GEMM = os.path.join(CORPUS, "gemm", "gemm.simp.sdfg")
JACOBI_GPU = os.path.join(CORPUS, "jacobi_2d", "jacobi_2d.gpu.sdfg")


def _cuda_plugin():
    from libdace._loader import library_path

    return os.path.join(os.path.dirname(library_path()), "libdace", "plugins", "libdace_plugin_cuda.so")


@pytest.mark.skipif(not os.path.exists(GEMM), reason="corpus not found")
def test_compile_aot_writes_library_object_header(tmp_path):
    g = libdace.SDFG.from_file(GEMM)
    lib, obj, header = g.compile_aot(tmp_path / "out", opt_level=1)
    assert os.path.basename(lib) == f"lib{g.name}.so"
    for path in (lib, obj, header):
        assert os.path.getsize(path) > 0
    text = open(header).read()
    assert f"__program_{g.name}({g.name}Handle_t handle, double* A, double* B, double* C" in text
    archive = f"lib{g.name}.a"  # the static archive, written next to the three returned paths
    assert open(tmp_path / "out" / archive, "rb").read(8) == b"!<arch>\n"
    assert sorted(os.listdir(tmp_path / "out")) == sorted([archive] + [os.path.basename(p) for p in (lib, obj, header)])


@pytest.mark.skipif(not os.path.exists(GEMM), reason="corpus not found")
def test_compile_aot_refuses_a_name_that_is_no_c_identifier(tmp_path):
    doc = json.load(open(GEMM))
    doc["attributes"]["name"] = "gemm-kernel"
    (tmp_path / "bad.sdfg").write_text(json.dumps(doc))
    g = libdace.SDFG.from_file(str(tmp_path / "bad.sdfg"))
    with pytest.raises(libdace.InvalidArgumentError, match="not a C identifier"):
        g.compile_aot(tmp_path / "out")
    assert not (tmp_path / "out").exists() or not os.listdir(tmp_path / "out")


@pytest.mark.skipif(not os.path.exists(JACOBI_GPU), reason="corpus not found")
def test_compile_aot_of_a_gpu_program_links_the_cuda_runtime(tmp_path):
    if not os.path.exists(_cuda_plugin()):
        pytest.skip(f"no CUDA plugin in this build ({_cuda_plugin()})")
    g = libdace.SDFG.from_file(JACOBI_GPU)
    for emulate in (True, False):
        out = tmp_path / ("emulated" if emulate else "ptx")
        lib, obj, header = g.compile_aot(out, opt_level=1, emulate_device=emulate)
        data = open(lib, "rb").read()
        assert b"libdace_cuda_rt.so" in data, "the library needs the CUDA runtime"
        # Built for the device, the kernels travel as PTX text; emulated, as host code.
        assert (b".entry " in data) == (not emulate)
        # The PTX's address is exported for the JIT's hosts only: two AOT GPU programs linked
        # into one binary must not both define it.
        assert b"__dace_ptx" not in data and b"__dace_ptx" not in open(obj, "rb").read()
