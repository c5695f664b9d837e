"""The SDFG's positional signature (DaCe's `arg_names`): set from the builder, followed by
positional calls, saved and loaded with the JSON, and readable by DaCe itself."""

import json
import os
import subprocess

import numpy as np
import pytest

import libdace
from helpers import axpb_sdfg

DACE_PYTHON = os.path.join(os.path.dirname(__file__), "..", "..", ".venv-dace", "bin", "python")


def test_positional_call_follows_arg_names():
    sdfg = axpb_sdfg("argn_order")
    assert sdfg.arg_names == []
    sdfg.arg_names = ["s", "B", "A"]
    assert sdfg.arg_names == ["s", "B", "A"]
    prog = sdfg.compile(opt_level=1)
    a = np.arange(6.0)
    b = np.zeros(6)
    prog(3.0, b, a)  # s, B, A as declared
    np.testing.assert_array_equal(b, a * 3.0 + 1)  # B = A * s + 1 (the helper's tasklet)
    prog.close()
    sdfg.close()


def test_json_round_trip_and_clear():
    sdfg = axpb_sdfg("argn_json")
    sdfg.arg_names = ["A", "B", "s", "N"]
    text = sdfg.to_json()
    assert json.loads(text)["attributes"]["arg_names"] == ["A", "B", "s", "N"]
    loaded = libdace.SDFG.from_json(text)
    assert loaded.arg_names == ["A", "B", "s", "N"]
    loaded.arg_names = []
    assert loaded.arg_names == []
    loaded.close()
    sdfg.close()


def test_bad_names_leave_the_list_unchanged():
    sdfg = axpb_sdfg("argn_bad")
    sdfg.add_array("T", ["N"], libdace.float64, transient=True)
    sdfg.arg_names = ["A"]
    with pytest.raises(libdace.errors.NotFoundError, match="nope"):
        sdfg.arg_names = ["B", "nope"]
    with pytest.raises(libdace.errors.InvalidArgumentError, match="transient"):
        sdfg.arg_names = ["T"]
    with pytest.raises(libdace.errors.InvalidArgumentError, match="twice"):
        sdfg.arg_names = ["A", "A"]
    assert sdfg.arg_names == ["A"]
    sdfg.close()


def test_dace_loads_arg_names(tmp_path):
    if not os.path.exists(DACE_PYTHON):
        pytest.skip("DaCe 1.0.2 venv (.venv-dace) not set up")
    sdfg = axpb_sdfg("argn_dace")
    sdfg.arg_names = ["B", "A", "s"]
    path = str(tmp_path / "argn.sdfg")
    sdfg.save(path)
    sdfg.close()
    script = "import sys, dace; s = dace.SDFG.from_file(sys.argv[1]); print(','.join(s.arg_names))"
    out = subprocess.run([DACE_PYTHON, "-c", script, path], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip().splitlines()[-1] == "B,A,s"
