"""DaCe's `instrument` property from Python (docs/instrumentation.md): setters and getters on
SDFG, state and nodes, refusals naming the element, and the report of a timed corpus kernel
whose outputs still match the stored NumPy outputs."""

import json
import os

import numpy as np
import pytest

import libdace
from conftest import CORPUS

HEAT = os.path.join(CORPUS, "heat_3d", "heat_3d.simp.sdfg")


def _load_case(kernel):
    folder = os.path.join(CORPUS, kernel)
    with open(os.path.join(folder, "case.json")) as f:
        case = json.load(f)
    args = {}
    for name, rel in case["inputs"].items():
        v = np.load(os.path.join(folder, rel))
        args[name] = v.item() if v.ndim == 0 else v.copy()
    expected = {n: np.load(os.path.join(folder, rel)) for n, rel in case["expected_outputs"].items()}
    return case, args, expected


def test_setters_getters_and_refusals():
    sdfg = libdace.SDFG("timed")
    sdfg.add_array("A", [8], libdace.float64)
    state = sdfg.add_state("s0")
    _, entry, _ = state.add_mapped_tasklet("t", dict(i="0:8"), dict(a=libdace.Memlet("A[i]")), "b = a + 1",
                                           dict(b=libdace.Memlet("A[i]")), external_edges=True)
    assert sdfg.instrument == "No_Instrumentation"
    sdfg.instrument = libdace.InstrumentationType.Timer
    state.instrument = "Timer"
    entry.instrument = libdace.InstrumentationType.Timer
    assert (sdfg.instrument, state.instrument, entry.instrument) == ("Timer", "Timer", "Timer")
    with pytest.raises(libdace.LibdaceError) as err:
        state.instrument = "PAPI_Counters"
    assert 'state "s0"' in str(err.value) and "PAPI_Counters" in str(err.value)
    with pytest.raises(libdace.LibdaceError) as err:
        entry.instrument = "Stopwatch"
    assert "MapEntry" in str(err.value)
    assert state.instrument == "Timer"  # a refused value changes nothing
    assert sdfg.instrument_all("none") == 0
    assert (sdfg.instrument, state.instrument, entry.instrument) == ("No_Instrumentation",) * 3


@pytest.mark.skipif(not os.path.exists(HEAT), reason="corpus not found")
def test_timed_corpus_kernel_reports_and_matches(tmp_path):
    case, args, expected = _load_case("heat_3d")
    sdfg = libdace.SDFG.from_file(HEAT)
    assert sdfg.instrument_all("program,maps") > 1
    ctx = libdace.Context()
    ctx.set_option("instrument_dir", str(tmp_path))
    program = sdfg.compile(context=ctx)
    assert program.last_report() is None  # not called yet
    program(**args)
    for name, exp in expected.items():
        np.testing.assert_allclose(args[name], exp, rtol=case.get("rtol", 1e-7), atol=case.get("atol", 0))
    report, path = program.last_report()
    assert os.path.dirname(path) == str(tmp_path) and os.path.exists(path)
    names = [e["name"] for e in report["traceEvents"]]
    assert sum(n.startswith("SDFG ") for n in names) == 1
    assert any(n.startswith("Map ") for n in names)
