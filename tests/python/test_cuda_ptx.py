"""CompiledProgram.ptx(): the PTX of a program's GPU kernels (docs/cuda.md, "The C API returns
the same text") equals the <sdfg>.ptx that compiling with a dump folder writes, which is what
`dace compile --ptx-out` hands out; an emulated GPU program and a CPU program have none.
Compiling for the GPU needs the CUDA plugin, not a driver."""

import pytest

import libdace
from libdace import Memlet

from test_cuda_arrays import device_axpb_sdfg, plugin_or_skip


def compiled(sdfg, **kwargs):
    try:
        return libdace.CompiledProgram(sdfg, **kwargs)
    except libdace.LibdaceError as exc:  # noqa: PERF203
        plugin_or_skip(exc)


def test_ptx_is_the_dumped_file(tmp_path):
    program = compiled(device_axpb_sdfg(), dump_dir=str(tmp_path))
    modules = program.ptx()
    assert len(modules) == 1
    assert modules[0] == (tmp_path / "cai_axpb.ptx").read_text()
    assert ".visible .entry __dace_kernel_cai_axpb" in modules[0]
    program.close()


def test_emulated_and_cpu_programs_have_no_ptx():
    assert compiled(device_axpb_sdfg(), emulate_device=True).ptx() == []
    sdfg = libdace.SDFG("host_axpb")
    sdfg.add_symbol("N", libdace.int64)
    sdfg.add_array("A", ["N"], libdace.float64)
    sdfg.add_array("B", ["N"], libdace.float64)
    state = sdfg.add_state("main")
    state.add_mapped_tasklet("axpb", {"i": "0:N"}, {"a": Memlet("A[i]")}, "b = a + 1", {"b": Memlet("B[i]")},
                             external_edges=True)
    assert compiled(sdfg).ptx() == []


def test_closed_program_is_refused():
    program = compiled(device_axpb_sdfg(), emulate_device=True)
    program.close()
    with pytest.raises(libdace.InvalidArgumentError):
        program.ptx()
